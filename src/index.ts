// The public API of astro-article-loader: the loader, its entry schema and options, and the error classes.
export {
  API_KEY_ENV,
  API_URL_ENV,
  articleEntrySchema,
  articleLoader,
  ArticlesNotReadyError,
  ENTRY_STATUSES,
  LOADER_NAME,
  LoaderOptionError,
} from './loader/index.js';
export type { ArticleEntryConfig, ArticleEntryData, ArticleEntryStatus, ArticleLoaderOptions } from './loader/index.js';
export { articles, IntegrationOptionError } from './integration/index.js';
export type { ArticlesIntegrationOptions } from './integration/index.js';

export { ArticleLoaderError } from './errors.js';
export { ManifestError } from './manifest/index.js';
export type { ArticleSpec, Manifest, ManifestProblem } from './manifest/index.js';
export {
  CorruptLockError,
  FrozenLockError,
  LockBusyError,
  OverBudgetError,
  SyncError,
  SyncFailedError,
  UnsupportedLockVersionError,
} from './sync/index.js';
export { PipelineOptionError, InternalLinksError } from './pipeline/index.js';
export type { ArticleHeading, ArticleImage, ArticleLink, ExternalRelOption, ExternalTargetOption } from './pipeline/index.js';
export {
  ArticleServiceError,
} from './api/index.js';
export type { ArticleRequest, ArticleRequestInput, ArticleType } from './api/index.js';
