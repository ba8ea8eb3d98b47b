// The manifest reader: YAML, JSON and CSV manifests (or inline ones) into validated article specs with safe, unique slugs.
export type { ArticleSpec, Manifest } from './article-spec.js';
export { loadManifest, parseManifest, resolveInlineManifest, MAX_MANIFEST_BYTES, MANIFEST_EXTENSIONS, type ManifestMemo } from './load-manifest.js';
export { ManifestError, formatManifestProblem, type ManifestProblem, type ManifestSection } from './manifest-error.js';
export { deriveSlug, validateSlug, MAX_SLUG_LENGTH, MAX_SLUG_BYTES, type SlugSpelling } from './slug.js';
export { withRecordedSlugs } from './former-slugs.js';
export { CSV_LIST_SEPARATOR } from './csv-manifest.js';
export { didYouMean, suggestName } from './suggestion.js';
export { calendarDates, offSchedule, unrecordedDates, withCalendar, type CalendarDate } from './schedule-calendar.js';
export type { Schedule } from './schedule.js';
export { DEFAULT_LOOKAHEAD, type ManifestBudget } from './budget-setting.js';
