// The pipeline's options (ArticleContext): what they mean, their rules, and their one-time resolution into each plugin's options.

import { z } from 'zod';
import { ARTICLE_TYPES, type ArticleType } from '../contract/article-types.js';
import { embedHostsSchema } from './embeds.js';
import { PipelineOptionError } from './errors.js';
import type { ExternalLinksOptions } from './external-links.js';
import { articleTypeSchema, relOptionSchema, targetOptionSchema, type ExternalRelOption, type ExternalTargetOption } from './external-links-options.js';
import type { FinalSanitizeOptions } from './final-sanitize.js';
import type { HeadingsOptions } from './headings.js';
import { astroImagesOptionsSchema, type AstroImagesOptions } from './astro-images-options.js';
import { downloadImagesOptionsSchema, type DownloadImagesOptions } from './image-download-options.js';
import type { ImagesOptions } from './images.js';
import { maxLinksSchema, type InternalLinksOptions } from './internal-links-options.js';
import { linkMapSchema, type LinkMap } from './link-map.js';
import type { MetadataOptions } from './metadata.js';
import { headingIdPrefixSchema, imageSizeSchema, positiveNumberSchema } from './option-rules.js';
import { alreadyChecked, checkOptions } from './option-check.js';
import type { SanitizeOptions } from './sanitize.js';
import { serviceLinksOptionsSchema, type ServiceLinksOptions } from './service-links-options.js';
import { siteSchema, type SiteOption } from './url-policy.js';

// One list of article types for the whole package: the spec's, from the request schema.
export { ARTICLE_TYPES, type ArticleType };

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
  site?: SiteOption;
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
  /** Download remote images into a content-addressed directory, with the `fetch` given. Default: not used. */
  downloadImages?: DownloadImagesOptions;
  /**
   * Hand the downloaded images (those under `publicPath` in `dir`) to astro:assets as placeholders
   * its content runtime optimizes; the entry needs `filePath` in `from` and `imageImports` as its
   * `assetImports` and `imagePaths`. Default: not used.
   */
  astroImages?: AstroImagesOptions;
  /** Reading speed for words in space-separated scripts. Default 200. */
  wordsPerMinute?: number;
  /** Reading speed for Chinese/Japanese characters, counted one by one. Default 500. */
  cjkCharactersPerMinute?: number;
  /** Longest excerpt, in characters, ellipsis included. Default 160. */
  excerptLength?: number;
}

const KEYWORD_RULE = 'must be a non-empty string';
const text = z.string({ error: 'must be a string' });

/**
 * The rules of every `ArticleContext` option, each written once, next to the plugin that uses the
 * option. The loader's options reuse them (`articleContextSchema.shape.maxLinks`…), adding only
 * their own shapes and defaults. Messages say what a value must be: "must be 0 or more; …".
 */
export const articleContextSchema = z.object(
  {
    keyword: z.string({ error: KEYWORD_RULE }).refine((keyword) => keyword.trim() !== '', { error: KEYWORD_RULE }),
    title: text.optional(),
    slug: text.optional(),
    url: text.optional(),
    articleType: articleTypeSchema.optional(),
    imageSize: imageSizeSchema.optional(),
    maxLinks: maxLinksSchema.optional(),
    headingIdPrefix: headingIdPrefixSchema.optional(),
    externalLinks: z.object({ rel: relOptionSchema.optional(), target: targetOptionSchema.optional() }, { error: 'must be { rel?, target? }' }).optional(),
    embedHosts: embedHostsSchema.optional(),
    site: siteSchema.optional(),
    serviceLinks: serviceLinksOptionsSchema.optional(),
    downloadImages: downloadImagesOptionsSchema.optional(),
    astroImages: astroImagesOptionsSchema.optional(),
    links: linkMapSchema.optional(),
    wordsPerMinute: positiveNumberSchema.optional(),
    cjkCharactersPerMinute: positiveNumberSchema.optional(),
    excerptLength: positiveNumberSchema.optional(),
  },
  { error: 'must be an object with at least `keyword`' },
);

/** One article's context, checked, as the options of each plugin of the processor. */
export interface ArticleSettings {
  keyword: string;
  slug: string | undefined;
  sanitize: SanitizeOptions;
  headings: HeadingsOptions;
  images: ImagesOptions;
  /** Undefined: no downloads, and no download plugin. */
  imageDownload: DownloadImagesOptions | undefined;
  /** Undefined: images stay as they are. */
  astroImages: AstroImagesOptions | undefined;
  internalLinks: InternalLinksOptions;
  externalLinks: ExternalLinksOptions;
  metadata: MetadataOptions;
  finalSanitize: FinalSanitizeOptions;
}

/**
 * Check the context once, then hand each plugin its part, built from checked values only (so the
 * plugins do not check it again). Throws PipelineOptionError.
 */
export function resolveSettings(context: ArticleContext): ArticleSettings {
  checkContext(context);
  const keyword = context.keyword.trim();
  const site = siteWithService(context);
  const embeds = alreadyChecked({ embedHosts: context.embedHosts });
  return {
    keyword,
    slug: context.slug,
    sanitize: embeds,
    headings: alreadyChecked({ idPrefix: context.headingIdPrefix, title: context.title?.trim() || undefined }),
    images: alreadyChecked({ keyword, imageSize: context.imageSize }),
    // The caller's own object, checked by its plugin: its identity is what shares the download limit.
    imageDownload: context.downloadImages,
    astroImages: context.astroImages === undefined ? undefined : alreadyChecked({ ...context.astroImages }),
    internalLinks: alreadyChecked({
      links: context.links,
      maxLinks: context.maxLinks,
      site,
      slug: context.slug,
      url: context.url,
      serviceLinks: context.serviceLinks,
    }),
    externalLinks: alreadyChecked({ rel: context.externalLinks?.rel, target: context.externalLinks?.target, articleType: context.articleType, site }),
    metadata: alreadyChecked({
      site,
      wordsPerMinute: context.wordsPerMinute,
      cjkCharactersPerMinute: context.cjkCharactersPerMinute,
      excerptLength: context.excerptLength,
    }),
    finalSanitize: embeds,
  };
}

/** The first broken rule, as an error that names the option and the article. */
function checkContext(context: ArticleContext): void {
  if (context === null || typeof context !== 'object') {
    throw new PipelineOptionError('processArticle needs a context object with at least `keyword`.');
  }
  const where = context.slug ? ` (article "${context.slug}")` : '';
  checkOptions(articleContextSchema, context satisfies z.input<typeof articleContextSchema>, (path) =>
    path === '' ? 'The processArticle context' : `Pipeline option \`${path}\`${where}`,
  );
}

/** The site's origins for every plugin that tells internal from external: `site`, and the service's `siteUrl`. */
function siteWithService(context: ArticleContext): SiteOption | undefined {
  const siteUrl = context.serviceLinks?.siteUrl;
  if (siteUrl === undefined) return context.site;
  const sites = context.site === undefined ? [] : Array.isArray(context.site) ? context.site : [context.site as string | URL];
  return [...sites, siteUrl];
}
