// One article's quality as the loader keeps it (in its processed record) and shows it (`entry.data.quality`): findings, counts, and its near-duplicate signature.
import type { ArticleToCheck } from './check-context.js';
import { checkedWith, type CheckedWith } from './checked-with.js';
import type { Finding } from './finding.js';
import { articleShingles, signatureText } from './near-duplicates.js';
import type { QualityOptions } from './quality-options.js';

/** What a processed record keeps: the findings of the article alone (near_duplicate needs the collection) and its MinHash signature; and, for the pass that made it, its shingles. */
export interface ArticleQuality {
  findings: Finding[];
  /** Null when `near_duplicate` is off. */
  signature: string | null;
  /** What the findings were decided from besides the article itself (`checked-with.ts`); absent in a record written before it was kept. */
  checkedWith?: CheckedWith;
  /**
   * The article's sorted shingles, made with its signature, null when `near_duplicate` is off: the pass that checked it measures a
   * pair the signatures leave in doubt on them, instead of shingling the HTML again. Held in memory only: a processed record does
   * not keep them (they would double the size of the committed cache), so a record read from disk has none.
   */
  shingles?: Uint32Array | null;
}

/** `entry.data.quality`: every finding of the article, and how many are errors and warnings. */
export interface QualitySummary {
  findings: Finding[];
  errors: number;
  warnings: number;
}

/** Checks one article's final HTML with the pass's settings; 0 requests. */
export async function articleQuality(article: ArticleToCheck, options: QualityOptions): Promise<ArticleQuality> {
  // The checks (and the HTML parser they read with) load with the first article checked, not with the loader.
  const { checkArticle } = await import('./check-article.js');
  const findings = await checkArticle(article, options);
  const decidedFrom = checkedWith(article, options);
  if (options.codes.near_duplicate === 'off') return { findings, signature: null, checkedWith: decidedFrom, shingles: null };
  // Shingled once: the signature is made of them, and the pass measures candidate pairs on them.
  const shingles = articleShingles(article.html);
  return { findings, signature: signatureText(shingles), checkedWith: decidedFrom, shingles };
}

export function qualitySummary(findings: readonly Finding[]): QualitySummary {
  return { findings: [...findings], errors: findings.filter((f) => f.severity === 'error').length, warnings: findings.filter((f) => f.severity === 'warning').length };
}

/** Every code off: nothing is checked at all. */
export function checksOff(options: QualityOptions): boolean {
  return Object.values(options.codes).every((setting) => setting === 'off');
}
