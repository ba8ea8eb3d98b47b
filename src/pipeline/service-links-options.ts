// The `serviceLinks` options: their types and rules, apart from the link reader so that checking options loads no HTML parser.
import { z } from 'zod';
import { optionsObject, rule, storeRule } from './option-check.js';
import { originOf } from './url-policy.js';

/** A string store for the service's answers. Keys are `serviceLinksCacheKey(content, domainId)`. */
export interface ServiceLinksCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

/**
 * The internal-links endpoint, injected: the pipeline knows nothing of HTTP. Each call of `link`
 * costs the site owner 1 credit, so give a persistent `cache`; a rebuild then never pays again.
 */
export interface ServiceLinksOptions {
  /** The registered domain's id, as the endpoint wants it. Part of the cache key. */
  domainId: string;
  /** The registered site's origin, e.g. `'https://example.com'`. Links elsewhere are ignored. */
  siteUrl: string | URL;
  /** Send content (HTML) to the endpoint and return the HTML it answers with links inserted. */
  link(content: string): Promise<string>;
  cache?: ServiceLinksCache;
  /**
   * When `link` throws (e.g. code `insufficient_credits` for HTTP 402, `plan_required` for 403):
   * `'warn'` (default) adds a warning and the article gets local links only; `'fail'` throws.
   */
  onError?: 'warn' | 'fail';
}

/** The rules of the `serviceLinks` options. */
export const serviceLinksOptionsSchema = optionsObject({
  link: rule<ServiceLinksOptions['link']>((value) => (typeof value === 'function' ? undefined : 'must be a function (content) => Promise<string>')),
  domainId: z.string({ error: 'is required: the id of your domain registered with the service' }).min(1, { error: 'must not be empty' }),
  siteUrl: rule<string | URL>((value) =>
    value === undefined
      ? 'is required: your site as an absolute URL, e.g. "https://example.com"'
      : originOf(value) === undefined
        ? 'must be an absolute http(s) URL, e.g. "https://example.com"'
        : undefined,
  ),
  onError: z.enum(['warn', 'fail'], { error: 'must be "warn" or "fail"' }).optional(),
  cache: storeRule<ServiceLinksCache>('{ get(key), set(key, value) }').optional(),
});

