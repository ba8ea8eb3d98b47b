// The plan of a manifest with languages: counts and words per language, the keywords sent as written, the budget over every language, and a removed language left to prune.
import { describe, expect, it } from 'vitest';
import { languagePlanLines, languagePlans } from '../../src/cli/language-plan.js';
import { parseManifest } from '../../src/manifest/index.js';
import { requestHash } from '../../src/sync/canonical-request.js';
import { overBudget, planSync, type LockFile } from '../../src/sync/index.js';

const manifest = (languages: string) =>
  parseManifest(`defaults:\n  languages: [${languages}]\narticles:\n  - keyword: { English: espresso, German: Espresso Maschine }\n  - grinder\n`, 'articles.yaml');
const plain = { bold: String, dim: String, yellow: String, green: String, red: String, cyan: String } as never;

describe('a plan in several languages', () => {
  it('should count articles, creates and estimated words per language, and name the keywords sent as written', () => {
    const { specs } = manifest('English, German');
    const plan = planSync(specs, { version: 1, articles: {} }, new Set());
    const plans = languagePlans(specs, plan);
    expect(plans.map(({ language, locale, articles, creates, keywordAsWritten }) => [language, locale, articles, creates, keywordAsWritten])).toEqual([
      ['English', 'en', 2, 2, []],
      ['German', 'de', 2, 2, ['de/grinder']],
    ]);
    expect(plans.every((each) => each.words > 0)).toBe(true);
    const lines = languagePlanLines(plans, plain);
    expect(lines[1]).toMatch(/^ {2}English \(en\): 2 articles, 2 to create, ~[\d,]+ words$/);
    expect(lines.at(-1)).toContain("German: 1 article sent with the entry's keyword as written (no keyword for German): de/grinder");
  });

  it('should say nothing per language for a manifest without languages', () => {
    const { specs } = parseManifest('articles:\n  - grinder\n', 'articles.yaml');
    expect(languagePlans(specs, planSync(specs, { version: 1, articles: {} }, new Set()))).toEqual([]);
  });

  it('should count every language against the budget', () => {
    const { specs } = manifest('English, German, Arabic');
    expect(overBudget(planSync(specs, { version: 1, articles: {} }, new Set()), 5)).toBe(true);
    expect(overBudget(planSync(specs, { version: 1, articles: {} }, new Set()), 6)).toBe(false);
  });

  it('should leave a removed language in the lock file as orphans, for prune', () => {
    const lock: LockFile = { version: 1, articles: {} };
    for (const spec of manifest('English, German').specs) {
      lock.articles[spec.slug] = { keyword: spec.keyword, status: 'failed', hash: requestHash(spec.request), attempt: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' } as LockFile['articles'][string];
    }
    // The German keyword goes with German: a keyword for a language not in `languages` is an error.
    const english = parseManifest('defaults:\n  languages: [English]\narticles:\n  - keyword: { English: espresso }\n  - grinder\n', 'articles.yaml');
    const plan = planSync(english.specs, lock, new Set());
    expect(plan.orphans.map((orphan) => orphan.slug)).toEqual(['de/espresso-maschine', 'de/grinder']);
    expect(plan.creates).toEqual([]);
  });
});
