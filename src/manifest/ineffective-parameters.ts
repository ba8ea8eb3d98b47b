// Parameters the spec says have no effect under an entry's other settings: paid for as if they mattered, so refused on an entry and warned about in defaults.
import type { ArticleRequest } from '../contract/request-schema.js';

/** One rule of the spec: `field` has an effect only when `effective(request)`; `needs` says what makes it so. */
interface EffectRule {
  field: string;
  effective(request: Record<string, unknown>): boolean;
  needs: string;
}

/** The spec's "only effective when" / "only used when" rules, one per parameter. */
const EFFECT_RULES: readonly EffectRule[] = [
  { field: 'numberOfItems', effective: (r) => r.enableAutomaticLength === false, needs: '`enableAutomaticLength: false` (otherwise the count comes from the keyword, or is 10)' },
  { field: 'numberOfSections', effective: (r) => r.articleLength === 'custom', needs: '`articleLength: custom`' },
  { field: 'polishSettings', effective: (r) => r.autoPolish === true, needs: '`autoPolish: true`' },
  { field: 'polishCustomInstructions', effective: (r) => r.autoPolish === true, needs: '`autoPolish: true`' },
  { field: 'enableDeepResearch', effective: (r) => r.realTimeData === true, needs: '`realTimeData: true`' },
  { field: 'realTimeDataSource', effective: (r) => r.realTimeData === true, needs: '`realTimeData: true`' },
  { field: 'realTimeDateRange', effective: (r) => r.realTimeDataSource === 'news', needs: '`realTimeDataSource: news`' },
  { field: 'extraEntitiesPrompt', effective: (r) => r.seoOptimizationLevel === 'manual', needs: '`seoOptimizationLevel: manual`' },
];

/** A parameter that would have no effect, and the setting that would give it one. */
export interface IneffectiveParameter {
  field: string;
  needs: string;
}

/** Of `fields` (names given in the manifest), those the request's other settings leave without effect. */
export function ineffectiveParameters(request: ArticleRequest, fields: Iterable<string>): IneffectiveParameter[] {
  const given = new Set(fields);
  const values = request as unknown as Record<string, unknown>;
  return EFFECT_RULES.filter((rule) => given.has(rule.field) && !rule.effective(values)).map(({ field, needs }) => ({ field, needs }));
}

/** The message for a parameter an entry gives itself: an error, since it would be paid for without effect. */
export function ineffectiveMessage({ field, needs }: IneffectiveParameter): string {
  return `has no effect without ${needs}; add that setting to this entry, or remove \`${field}\``;
}
