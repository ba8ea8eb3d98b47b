// The Astro images plugin's options: their type and rules, apart from the plugin so that checking options loads no image decoder.
import { z } from 'zod';
import { optionsObject } from './option-check.js';

export interface AstroImagesOptions {
  /** The directory downloaded images are in (absolute), as given to `rehypeArticleImageDownload`. */
  dir: string;
  /** The URL path that directory is served at: images whose `src` starts with it are handed over. */
  publicPath: string;
  /** The directory of the entry's `filePath` (absolute): import paths are relative to it. */
  from: string;
}

const absolute = z.string({ error: 'must be an absolute path' }).refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path), { error: 'must be an absolute path' });
export const astroImagesOptionsSchema = optionsObject({
  dir: absolute,
  publicPath: z.string({ error: 'must be a URL path such as "/_articles/"' }).min(1, { error: 'must be a URL path such as "/_articles/"' }),
  from: absolute,
});

