// The pipeline's public API: processArticle, its rehype plugins one by one, the link map builder, their options, rules and result types.

export { processArticle, type ProcessedArticle } from './processor.js';
export { articleContextSchema, ARTICLE_TYPES, type ArticleContext, type ArticleType } from './pipeline-options.js';
export { WARNING_SOURCE, type ArticleData, type ArticleHeading, type ArticleImage, type ArticleLink, type LinkSource } from './article-data.js';

// The plugins, in the order processArticle runs them.
export { rehypeArticleParse } from './parse.js';
export { rehypeArticleSanitize, type SanitizeOptions } from './sanitize.js';
export { rehypeArticleHeadings, type HeadingsOptions } from './headings.js';
export { rehypeArticleImages, type ImagesOptions } from './images.js';
export { rehypeArticleImageDownload, type DownloadCache, type DownloadImagesOptions } from './image-download.js';
export { rehypeArticleInternalLinks, DEFAULT_MAX_LINKS, type InternalLinksOptions } from './internal-links.js';
export {
  rehypeArticleExternalLinks,
  REL_TOKENS,
  type ExternalLinkInfo,
  type ExternalLinksOptions,
  type ExternalRelOption,
  type ExternalTargetOption,
  type RelToken,
  type RelTokens,
} from './external-links.js';
export {
  rehypeArticleMetadata,
  DEFAULT_CJK_CHARACTERS_PER_MINUTE,
  DEFAULT_EXCERPT_LENGTH,
  DEFAULT_WORDS_PER_MINUTE,
  type MetadataOptions,
} from './metadata.js';
export { rehypeArticleFinalSanitize, type FinalSanitizeOptions } from './final-sanitize.js';
export { rehypeArticleAstroImages, ASTRO_IMAGE_ATTRIBUTE, type AstroImagesOptions } from './astro-images.js';

export { DEFAULT_EMBED_HOSTS } from './embeds.js';
export type { SiteOption } from './url-policy.js';
export { buildLinkMap, type BuildLinkMapOptions, type LinkableArticle, type LinkEntry, type LinkMap } from './link-map.js';
export {
  fetchServiceLinkSuggestions,
  serviceLinksCacheKey,
  type ServiceLinksCache,
  type ServiceLinkSuggestions,
  type ServiceLinksOptions,
} from './service-links.js';
export { InternalLinksError, PipelineOptionError } from './errors.js';
export { countWords, type WordCount } from '../contract/word-count.js';
export { faqOf, type FaqItem } from './faq.js';
