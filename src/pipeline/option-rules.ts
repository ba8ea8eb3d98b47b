// Rules of single plugin options that the pipeline's option checks share with the plugins, without the plugins (so the loader's options load light).
import { z } from 'zod';
import { imageSizeToPixels } from '../contract/image-size.js';

const PREFIX_RULE = 'must be letters, digits, "-" or "_" only';
const SIZE_RULE = 'must be a pixel size such as "1536x1024" or a shorthand such as "16:9" or "landscape"';

/** The rule of a heading id prefix: letters, digits, `-` and `_`, so that an id stays one plain token. */
export const headingIdPrefixSchema = z.string({ error: PREFIX_RULE }).regex(/^[A-Za-z0-9_-]*$/, { error: PREFIX_RULE });

/** The rule of an `imageSize` option: the request's pixel size or shorthand (see `imageSizeToPixels`). */
export const imageSizeSchema = z.string({ error: SIZE_RULE }).refine((size) => imageSizeToPixels(size) !== undefined, { error: SIZE_RULE });

/** The rule of a reading speed or an excerpt length: a positive number. */
export const positiveNumberSchema = z.number({ error: 'must be a positive number' }).positive({ error: 'must be a positive number' });
