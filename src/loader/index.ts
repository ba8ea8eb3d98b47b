// The loader's surface: what the package root and the articles() integration use of it, and nothing else.
export { articleLoader, LOADER_NAME } from './article-loader.js';
export { ArticlesNotReadyError } from './not-ready-error.js';
export { articleEntrySchema, ENTRY_STATUSES } from './entry-schema.js';
export { articleDetails, type ArticleDetails } from './article-details.js';
export { articleJsonLd, jsonLdScript, type JsonLdEntry, type JsonLdOptions } from './json-ld.js';
export { articleAlternates, alternateLinkTags, AlternatesError } from './article-alternates.js';
export type { AlternatePage, AlternatesEntry, AlternatesI18n, AlternatesOptions, ArticleAlternate, AstroLocales } from './article-alternates.js';
export { sitemapAlternates, type SitemapAlternatesOptions, type SitemapEntry } from './sitemap-alternates.js';
export type { ArticleEntryConfig, ArticleEntryData, ArticleEntryStatus } from './entry-schema.js';
export { API_KEY_ENV, API_URL_ENV, LoaderOptionError } from './options.js';
export type { ArticleLoaderOptions } from './option-declarations.js';

// For the integration: the queues the loaders publish, their shutdown, and the shared ways of saying things.
export { loaderRuntime, shutdownRuntime, subscribeQueues } from './runtime.js';
export type { QueueArticle, QueueSnapshot, QueueTotals } from './runtime.js';
export { forAstro } from './astro-error.js';
export { warnWhenDebugPrintsEnv } from './debug-env.js';
export { shortPath } from './short-path.js';
