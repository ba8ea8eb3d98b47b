// What a plan says per language, for a manifest with `languages`: articles, creates and estimated words in each, and the translations sent with the entry's keyword as written.
import type { ArticleSpec } from '../manifest/index.js';
import type { SyncPlan } from '../sync/index.js';
import { formatCount, plural, type Style } from './output.js';

export interface LanguagePlan {
  language: string;
  locale: string;
  articles: number;
  creates: number;
  /** Estimated words the creates bill. */
  words: number;
  /** Ids of this language's articles whose entry gives no keyword of its own for it: the entry's keyword is sent as written. */
  keywordAsWritten: string[];
}

/** Per language, in the order the manifest first names each; none for a manifest without `languages` (its plan is as it was). */
export function languagePlans(specs: readonly ArticleSpec[], plan: SyncPlan): LanguagePlan[] {
  const bySlug = new Map(plan.articles.map((article) => [article.slug, article]));
  const plans = new Map<string, LanguagePlan>();
  for (const spec of specs) {
    if (spec.translation === undefined) continue;
    const { language, locale, keywordFallback } = spec.translation;
    const each = plans.get(locale) ?? { language, locale, articles: 0, creates: 0, words: 0, keywordAsWritten: [] };
    const planned = bySlug.get(spec.slug);
    each.articles += 1;
    if (planned?.action === 'create') {
      each.creates += 1;
      each.words += planned.estimate?.words ?? 0;
    }
    if (keywordFallback) each.keywordAsWritten.push(spec.slug);
    plans.set(locale, each);
  }
  return [...plans.values()];
}

/** The plan's lines per language: "German (de): 12 articles, 3 to create, ~4,500 words", and which keywords are sent as written. */
export function languagePlanLines(plans: readonly LanguagePlan[], style: Style): string[] {
  if (plans.length === 0) return [];
  const lines = [style.bold('By language:')];
  for (const each of plans) {
    const words = each.creates > 0 ? `, ~${formatCount(each.words)} words` : '';
    lines.push(`  ${each.language} (${each.locale}): ${plural(each.articles, 'article')}, ${formatCount(each.creates)} to create${words}`);
  }
  for (const each of plans.filter((plan) => plan.keywordAsWritten.length > 0)) {
    const shown = `${each.keywordAsWritten.slice(0, 5).join(', ')}${each.keywordAsWritten.length > 5 ? `, … ${each.keywordAsWritten.length - 5} more` : ''}`;
    lines.push(style.yellow(`  ${each.language}: ${plural(each.keywordAsWritten.length, 'article')} sent with the entry's keyword as written (no keyword for ${each.language}): ${shown}; give \`keyword: { ${each.language}: … }\` for a search in ${each.language}`));
  }
  return lines;
}
