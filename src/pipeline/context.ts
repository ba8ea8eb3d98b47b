// The pipeline's options (ArticleContext): what they mean, their defaults, and their one-time resolution.

import { imageSizeToPixels } from '../spec/image-size.js';
import { PipelineOptionError } from './errors.js';
import type { LinkMap } from './link-map.js';
import { compileEmbedHosts, type EmbedPolicy } from './embeds.js';
import { compileRelPolicy, type ExternalLinkInfo, type RelPolicy, type RelTokens } from './external-links.js';
import type { DownloadImagesOptions } from './image-download.js';
import type { ServiceLinksOptions } from './service-links.js';

// One list of article types for the whole package: the spec's, from the request schema.
import { ARTICLE_TYPES, type ArticleType } from '../spec/request-schema.js';
export { ARTICLE_TYPES, type ArticleType };

/** Embed hosts allowed in iframes when `embedHosts` is not given. Subdomains of a host are allowed too. */
export const DEFAULT_EMBED_HOSTS: readonly string[] = Object.freeze([
  'youtube.com',
  'youtube-nocookie.com',
  'player.vimeo.com',
]);

export const DEFAULT_MAX_LINKS = 10;
export const DEFAULT_WORDS_PER_MINUTE = 200;
export const DEFAULT_CJK_CHARACTERS_PER_MINUTE = 500;
export const DEFAULT_EXCERPT_LENGTH = 160;
export const DEFAULT_IMAGE_SIZE = '1024x1024';

/** `rel` tokens for external links, or a function of the link deciding them. */
export type ExternalRelOption = RelTokens | ((link: ExternalLinkInfo) => RelTokens | null | undefined);
/** `target` for external links, or a function of the link deciding it. */
export type ExternalTargetOption = string | ((link: ExternalLinkInfo) => string | null | undefined);

/**
 * Everything `processArticle` needs to know about one article and the site it lands on.
 *
 * Only `keyword` is required. Objects that are expensive to prepare (the link map, the embed host
 * list) are compiled once and reused across calls when the same object is passed again, so build
 * them once per site, not once per article.
 */
export interface ArticleContext {
  /** The article's target keyword. Used for the title when nothing better exists and for image alt text. */
  keyword: string;
  /**
   * Title used when the HTML has no `<h1>` (and, for a full document, no `<title>`).
   * Default: the keyword.
   */
  title?: string;
  /** The article's slug. Entries of `links` with this slug are never linked (no self-links). */
  slug?: string;
  /** The article's own URL, e.g. `url(slug)`. Links to it are never inserted (no self-links). */
  url?: string;
  /** The request's `articleType`. Default `'blog_post'`. Passed to the `externalLinks.rel` function. */
  articleType?: ArticleType;
  /**
   * The request's `imageSize` (pixel size or shorthand, see `imageSizeToPixels`). Images without
   * `width` and `height` get this size. Default `'1024x1024'`.
   */
  imageSize?: string;
  /**
   * The site's origin(s), e.g. `'https://example.com'`. Links to them count as internal: they get no
   * external `rel`/`target` and are flagged `internal` in `links`. Relative links are always internal.
   */
  site?: string | URL | readonly (string | URL)[];
  /**
   * Hosts whose iframes are kept (exact host or any subdomain of it), rewritten to a safe form.
   * Default `DEFAULT_EMBED_HOSTS` (youtube.com, youtube-nocookie.com, player.vimeo.com).
   * An empty list drops every iframe.
   */
  embedHosts?: readonly string[];
  /** Phrase → URL map for internal links, from `buildLinkMap`. Default: none. */
  links?: LinkMap;
  /** Most internal links inserted into one article (local and service together). Default 10. */
  maxLinks?: number;
  /**
   * Prefix for the generated heading ids. Default `''` (ids are bare slugs, as Astro's Markdown
   * makes them). Set one (e.g. `'h-'`) if your page's scripts read globals that a heading id
   * could shadow.
   */
  headingIdPrefix?: string;
  externalLinks?: {
    /**
     * `rel` tokens added after `noopener` on links to other sites: `'nofollow'`, `'sponsored'`,
     * `'ugc'`, `'noreferrer'`, `'external'`, a list of them, or a function of the link.
     * Default: `'sponsored'` in `retail_product_roundup` and `retail_single_product_review`
     * articles (affiliate links), `'nofollow'` otherwise.
     */
    rel?: ExternalRelOption;
    /** `target` on links to other sites (`'_blank'`, `'_self'`, `'_parent'`, `'_top'`) or a function. Default: none. */
    target?: ExternalTargetOption;
  };
  /** The service's internal-links endpoint, injected. Default: not used. */
  serviceLinks?: ServiceLinksOptions;
  /** Download remote images into a content-addressed directory. Default: not used. */
  downloadImages?: DownloadImagesOptions;
  /** Reading speed for words in space-separated scripts. Default 200. */
  wordsPerMinute?: number;
  /** Reading speed for Chinese/Japanese characters, counted one by one. Default 500. */
  cjkCharactersPerMinute?: number;
  /** Longest excerpt, in characters, ellipsis included. Default 160. */
  excerptLength?: number;
}

/** The options after validation and defaults, with the costly parts compiled (and memoised). */
export interface ResolvedSettings {
  keyword: string;
  title: string | undefined;
  slug: string | undefined;
  url: string | undefined;
  articleType: ArticleType;
  imageSize: { width: number; height: number };
  internalOrigins: ReadonlySet<string>;
  embeds: EmbedPolicy;
  links: LinkMap | undefined;
  maxLinks: number;
  headingIdPrefix: string;
  rel: RelPolicy;
  target: ExternalTargetOption | undefined;
  serviceLinks: ServiceLinksOptions | undefined;
  downloadImages: DownloadImagesOptions | undefined;
  wordsPerMinute: number;
  cjkCharactersPerMinute: number;
  excerptLength: number;
}

const TARGETS = new Set(['_blank', '_self', '_parent', '_top']);

/** Validate the context, apply defaults and compile what is costly. Throws PipelineOptionError. */
export function resolveSettings(context: ArticleContext): ResolvedSettings {
  if (context === null || typeof context !== 'object') {
    throw new PipelineOptionError('processArticle needs a context object with at least `keyword`.');
  }
  const where = context.slug ? ` (article "${context.slug}")` : '';
  const fail = (option: string, expected: string): never => {
    throw new PipelineOptionError(`Pipeline option \`${option}\`${where} is invalid: expected ${expected}.`);
  };

  if (typeof context.keyword !== 'string' || context.keyword.trim() === '') fail('keyword', 'a non-empty string');
  if (context.title !== undefined && typeof context.title !== 'string') fail('title', 'a string');
  if (context.slug !== undefined && typeof context.slug !== 'string') fail('slug', 'a string');
  if (context.url !== undefined && typeof context.url !== 'string') fail('url', 'a string');

  const articleType = context.articleType ?? 'blog_post';
  if (!(ARTICLE_TYPES as readonly string[]).includes(articleType)) fail('articleType', `one of ${ARTICLE_TYPES.join(', ')}`);

  const imageSizeName = context.imageSize ?? DEFAULT_IMAGE_SIZE;
  const imageSize = typeof imageSizeName === 'string' ? imageSizeToPixels(imageSizeName) : undefined;
  if (!imageSize) fail('imageSize', 'a pixel size such as "1536x1024" or a shorthand such as "16:9" or "landscape"');

  const maxLinks = context.maxLinks ?? DEFAULT_MAX_LINKS;
  if (!Number.isInteger(maxLinks) || maxLinks < 0) fail('maxLinks', 'a whole number ≥ 0');

  const headingIdPrefix = context.headingIdPrefix ?? '';
  if (typeof headingIdPrefix !== 'string' || !/^[A-Za-z0-9_-]*$/.test(headingIdPrefix)) {
    fail('headingIdPrefix', 'letters, digits, "-" or "_" only');
  }

  const positive = (option: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(option, 'a positive number');
    return v;
  };

  const target = context.externalLinks?.target;
  if (typeof target === 'string' && !TARGETS.has(target)) fail('externalLinks.target', `one of ${[...TARGETS].join(', ')} or a function`);
  if (target !== undefined && typeof target !== 'string' && typeof target !== 'function') fail('externalLinks.target', 'a string or a function');

  let rel: RelPolicy;
  try {
    rel = compileRelPolicy(context.externalLinks?.rel);
  } catch (error) {
    return fail('externalLinks.rel', (error as Error).message);
  }

  let embeds: EmbedPolicy;
  try {
    embeds = compileEmbedHosts(context.embedHosts ?? DEFAULT_EMBED_HOSTS);
  } catch (error) {
    return fail('embedHosts', (error as Error).message);
  }

  const internalOrigins = new Set<string>();
  const sites = context.site === undefined ? [] : Array.isArray(context.site) ? context.site : [context.site];
  for (const site of sites as (string | URL)[]) {
    const origin = originOf(site);
    if (!origin) fail('site', 'an absolute http(s) URL such as "https://example.com"');
    internalOrigins.add(origin as string);
  }

  const serviceLinks = context.serviceLinks;
  if (serviceLinks !== undefined) {
    if (typeof serviceLinks.link !== 'function') fail('serviceLinks.link', 'a function (content) => Promise<string>');
    if (typeof serviceLinks.domainId !== 'string' || serviceLinks.domainId === '') fail('serviceLinks.domainId', 'a non-empty string');
    const origin = originOf(serviceLinks.siteUrl);
    if (!origin) fail('serviceLinks.siteUrl', 'the registered site as an absolute http(s) URL');
    if (serviceLinks.onError !== undefined && serviceLinks.onError !== 'warn' && serviceLinks.onError !== 'fail') {
      fail('serviceLinks.onError', '"warn" or "fail"');
    }
    internalOrigins.add(origin as string);
  }

  const downloadImages = context.downloadImages;
  if (downloadImages !== undefined) {
    if (typeof downloadImages.dir !== 'string' || downloadImages.dir === '') fail('downloadImages.dir', 'a directory path');
    if (typeof downloadImages.publicPath !== 'string' || downloadImages.publicPath === '') fail('downloadImages.publicPath', 'a URL path such as "/images/articles/"');
  }

  if (context.links !== undefined && !Array.isArray(context.links?.entries)) fail('links', 'a link map from buildLinkMap()');

  return {
    keyword: context.keyword.trim(),
    title: context.title?.trim() || undefined,
    slug: context.slug,
    url: context.url,
    articleType,
    imageSize: imageSize as { width: number; height: number },
    internalOrigins,
    embeds,
    links: context.links,
    maxLinks,
    headingIdPrefix,
    rel,
    target,
    serviceLinks,
    downloadImages,
    wordsPerMinute: positive('wordsPerMinute', context.wordsPerMinute, DEFAULT_WORDS_PER_MINUTE),
    cjkCharactersPerMinute: positive('cjkCharactersPerMinute', context.cjkCharactersPerMinute, DEFAULT_CJK_CHARACTERS_PER_MINUTE),
    excerptLength: positive('excerptLength', context.excerptLength, DEFAULT_EXCERPT_LENGTH),
  };
}

function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof URL)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
