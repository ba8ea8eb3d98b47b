// The public API of astro-article-loader: the loader, its entry schema and options, the integration, and the error classes.
export { articleLoader, articleEntrySchema, ENTRY_STATUSES, LOADER_NAME, API_KEY_ENV, API_URL_ENV } from './loader/index.js';
export { ArticlesNotReadyError, LoaderOptionError } from './loader/index.js';
export { articleJsonLd, jsonLdScript, type JsonLdEntry, type JsonLdOptions } from './loader/index.js';
export type { ArticleEntryConfig, ArticleEntryData, ArticleEntryStatus, ArticleLoaderOptions } from './loader/index.js';
export { articles, IntegrationOptionError, type ArticlesIntegrationOptions } from './integration/index.js';

export { ArticleLoaderError } from './errors.js';
export { ManifestError, type ArticleSpec, type Manifest, type ManifestProblem } from './manifest/index.js';
export { SyncError, SyncFailedError, CorruptLockError, FrozenLockError, LockBusyError, OverBudgetError } from './sync/index.js';
export { UnsupportedLockVersionError } from './sync/index.js';
export { PipelineOptionError, InternalLinksError } from './pipeline/index.js';
export type { ArticleHeading, ArticleImage, ArticleLink, ExternalRelOption, ExternalTargetOption } from './pipeline/index.js';
export { ArticleServiceError, type ArticleRequest, type ArticleRequestInput, type ArticleType } from './api/index.js';
