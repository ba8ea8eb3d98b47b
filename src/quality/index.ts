// The quality checks' surface: checkArticle, findNearDuplicates, the codes and the settings. franc and retext load only when a check runs.
export { checkArticle, withSeverity } from './check-article.js';
export type { ArticleToCheck, CollectionPaths } from './check-context.js';
export { findingSchema, QUALITY_CODE_MEANINGS, QUALITY_CODES, SEVERITIES, type CodeSetting, type Finding, type QualityCode, type Severity } from './finding.js';
export { containsKeyword, keywordPattern } from './keyword-match.js';
export { findNearDuplicates, nearDuplicateFindings, type ArticleText, type NearDuplicatePair } from './near-duplicates.js';
export {
  CODE_SETTINGS,
  DEFAULT_ERROR_CODES,
  QualityOptionError,
  qualityCodesTable,
  qualityOptionsSchema,
  qualityOptionsTable,
  resolveQualityOptions,
  type QualityOptions,
  type QualityOptionsInput,
} from './quality-options.js';
export { articleQuality, checksOff, qualitySummary, type ArticleQuality, type QualitySummary } from './article-quality.js';
export { checkedWith, checkedWithSchema, type CheckedWith } from './checked-with.js';
export { manifestQuality } from './manifest-quality.js';
export { findSignedNearDuplicates, nearDuplicateSignature, type SignedArticle } from './near-duplicates.js';
export { checkQualityOptions, type QualityProblem } from './quality-options.js';
