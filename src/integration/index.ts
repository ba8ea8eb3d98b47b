// The integration's public API: `articles()` for astro.config, its options, and the build summary formatter.
export { articles, INTEGRATION_NAME, IntegrationOptionError } from './integration.js';
export type { ArticlesIntegrationOptions } from './integration.js';
export { formatBuildSummary } from './build-summary.js';
