// One article's quality as the loader keeps it (in its processed record) and shows it (`entry.data.quality`): findings, counts, and its near-duplicate signature.
import { checkArticle } from './check-article.js';
import type { ArticleToCheck } from './check-context.js';
import type { Finding } from './finding.js';
import { nearDuplicateSignature } from './near-duplicates.js';
import type { QualityOptions } from './quality-options.js';

/** What a processed record keeps: the findings of the article alone (near_duplicate needs the collection) and its MinHash signature. */
export interface ArticleQuality {
  findings: Finding[];
  /** Null when `near_duplicate` is off. */
  signature: string | null;
}

/** `entry.data.quality`: every finding of the article, and how many are errors and warnings. */
export interface QualitySummary {
  findings: Finding[];
  errors: number;
  warnings: number;
}

/** Checks one article's final HTML with the pass's settings; 0 requests. */
export async function articleQuality(article: ArticleToCheck, options: QualityOptions): Promise<ArticleQuality> {
  const findings = await checkArticle(article, options);
  return { findings, signature: options.codes.near_duplicate === 'off' ? null : nearDuplicateSignature(article.html) };
}

export function qualitySummary(findings: readonly Finding[]): QualitySummary {
  return { findings: [...findings], errors: findings.filter((f) => f.severity === 'error').length, warnings: findings.filter((f) => f.severity === 'warning').length };
}

/** Every code off: nothing is checked at all. */
export function checksOff(options: QualityOptions): boolean {
  return Object.values(options.codes).every((setting) => setting === 'off');
}
