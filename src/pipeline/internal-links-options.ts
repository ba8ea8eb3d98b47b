// The internal links plugin's options: their type and the `maxLinks` rule, apart from the plugin so that checking options loads no HTML parser.
import { z } from 'zod';
import type { LinkMap } from './link-map.js';
import type { ServiceLinksOptions } from './service-links-options.js';
import type { ServiceLinkSuggestions } from './service-links.js';
import type { SiteOption } from './url-policy.js';

const MAX_LINKS_ADVICE = 'use 0 to turn internal links off';

/** The rule of a `maxLinks` option: a whole number, 0 or more. */
export const maxLinksSchema = z
  .number({ error: `must be a number; ${MAX_LINKS_ADVICE}` })
  .int({ error: `must be a whole number; ${MAX_LINKS_ADVICE}` })
  .min(0, { error: `must be 0 or more; ${MAX_LINKS_ADVICE}` });

export interface InternalLinksOptions {
  /** Phrase → URL map, from `buildLinkMap`. Build it once per site: its matcher is compiled once per map. Default: none. */
  links?: LinkMap;
  /** Most links inserted into one article (local and service together). Default 10. */
  maxLinks?: number;
  /** The site's origin(s): a link to them is a link to one of its pages. Relative links always are. Default: none. */
  site?: SiteOption;
  /** The article's slug: entries of `links` with this slug are never linked (no self-links). */
  slug?: string;
  /** The article's own URL: never linked (no self-links). */
  url?: string;
  /**
   * The service's internal-links endpoint, asked with the file's input HTML (`String(file)`); its
   * `siteUrl` counts as the site's too. Default: not used.
   */
  serviceLinks?: ServiceLinksOptions;
  /**
   * The answer for this file, when the caller already asked (`fetchServiceLinkSuggestions(html,
   * serviceLinks)`), e.g. before parsing so that the request overlaps the work. For one file only.
   */
  serviceSuggestions?: Promise<ServiceLinkSuggestions>;
}

