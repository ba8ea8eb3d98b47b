// The pipeline's public API: processArticle, the link map builder, their options and result types.

export { processArticle, type ProcessedArticle } from './processor.js';
export {
  ARTICLE_TYPES,
  DEFAULT_EMBED_HOSTS,
  DEFAULT_MAX_LINKS,
  DEFAULT_WORDS_PER_MINUTE,
  DEFAULT_CJK_CHARACTERS_PER_MINUTE,
  DEFAULT_EXCERPT_LENGTH,
  DEFAULT_IMAGE_SIZE,
  type ArticleContext,
  type ArticleType,
  type ExternalRelOption,
  type ExternalTargetOption,
} from './context.js';
export type { ArticleHeading, ArticleImage, ArticleLink, LinkSource } from './article-run.js';
export { buildLinkMap, type BuildLinkMapOptions, type LinkableArticle, type LinkEntry, type LinkMap } from './link-map.js';
export { serviceLinksCacheKey, type ServiceLinksCache, type ServiceLinksOptions } from './service-links.js';
export { type DownloadCache, type DownloadImagesOptions } from './image-download.js';
export { REL_TOKENS, type ExternalLinkInfo, type RelToken, type RelTokens } from './external-links.js';
export { InternalLinksError, PipelineOptionError } from './errors.js';
export { countWords, type WordCount } from '../spec/word-count.js';
