// The public API of astro-article-loader: the loader, its entry schema and options, the integration, and the error classes.
//
// Every value here comes from a module that loads only what importing it needs: the manifest reader, the
// sync engine, the pipeline, the service client and the emulator are imported when a build uses them.
export { articleLoader, articleEntrySchema, ENTRY_STATUSES, LOADER_NAME, API_KEY_ENV, API_URL_ENV } from './loader/index.js';
export { ArticlesNotReadyError, LoaderOptionError } from './loader/index.js';
export { articleDetails, type ArticleDetails } from './loader/index.js';
export { articleJsonLd, jsonLdScript, type JsonLdEntry, type JsonLdOptions } from './loader/index.js';
export { articleAlternates, alternateLinkTags, AlternatesError } from './loader/index.js';
export type { AlternatePage, AlternatesEntry, AlternatesI18n, AlternatesOptions, ArticleAlternate, AstroLocales } from './loader/index.js';
export { sitemapAlternates, type SitemapAlternatesOptions, type SitemapEntry } from './loader/index.js';
export type { ArticleEntryConfig, ArticleEntryData, ArticleEntryStatus, ArticleLoaderOptions } from './loader/index.js';
export { articles, IntegrationOptionError, type ArticlesIntegrationOptions } from './integration/integration.js';

export { ArticleLoaderError } from './errors.js';
export { ManifestError, type ManifestProblem } from './manifest/manifest-error.js';
export type { ArticleSpec, Manifest } from './manifest/article-spec.js';
export { SyncError, CorruptLockError, FrozenLockError, LockBusyError, OverBudgetError, UnsupportedLockVersionError } from './sync/errors.js';
export { SyncFailedError } from './sync/sync-failed-error.js';
export { PipelineOptionError, InternalLinksError } from './pipeline/errors.js';
export type { ArticleHeading, ArticleImage, ArticleLink } from './pipeline/article-data.js';
export type { ExternalRelOption, ExternalTargetOption } from './pipeline/external-links.js';
export { ArticleServiceError } from './api/errors.js';
export type { ArticleRequest, ArticleRequestInput, ArticleType } from './contract/request-schema.js';
