// The near-duplicate pairs a pass decided, kept in the committed cache (articles.cache/near-duplicates/, one file per
// collection, replaced when the collection changes): a build with a cold Astro data store (CI, a fresh clone) whose
// articles and settings are those of the last build reads them instead of measuring the collection again, as it reads
// each article's own findings from its processed record. `check` reads them too (cli/current-findings.ts).
import { createHash } from 'node:crypto';
import type { ArticlePairs, NearDuplicatePair } from './near-duplicates.js';
import type { KeyedStore } from '../sync/index.js';

/** The cache's subdirectory (a keyed store: a damaged file is warned about and decided again, `verify` checks it, `prune` keeps it). */
export const NEAR_DUPLICATES_STORE = 'near-duplicates';
/** Bumped when what is kept changes meaning: every memo made before is then a miss. */
const MEMO_FORMAT = 1;

/**
 * One article's pairs as kept: `[slug, [[otherSlug, similarity, estimated], …], more, windowed?]`, compact since a
 * corpus of alike articles has tens of thousands (`windowed`, when `more` is a lower bound, is left out when false).
 */
type KeptArticle = [string, [string, number, boolean][], number] | [string, [string, number, boolean][], number, true];
interface Memo {
  decided: string;
  articles: KeptArticle[];
}

/** A finished article as the memo knows it: its slug and its processed record's key (which fixes its HTML, and so its shingles). */
export interface MemoArticle {
  slug: string;
  key: string | undefined;
}

/**
 * What the pairs are decided from: the threshold and every finished article's slug and record key. Undefined when an
 * article's key is not known (a store written before keys were kept): the pairs are then decided and not kept.
 */
export function memoKey(threshold: number, articles: readonly MemoArticle[]): string | undefined {
  if (articles.some((article) => article.key === undefined)) return undefined;
  const keys = articles.map(({ slug, key }) => [slug, key]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([MEMO_FORMAT, threshold, keys])).digest('hex');
}

/** The pairs kept for `collection` when they were decided from `decided`; undefined otherwise (none kept, another collection state, damaged). */
export async function readMemo(store: KeyedStore, collection: string, decided: string): Promise<ArticlePairs[] | undefined> {
  return pairsOf(await store.get(collection), decided);
}

/**
 * The pairs of a memo decided from `decided`, each checked as it is read; undefined for another memo or one of another shape.
 * Checked here rather than by a schema, which copied every pair first (67 MB and 50 ms of a 10,000-article cold load()).
 */
function pairsOf(memo: unknown, decided: string): ArticlePairs[] | undefined {
  if (typeof memo !== 'object' || memo === null || (memo as Partial<Memo>).decided !== decided) return undefined;
  const articles = (memo as Partial<Memo>).articles;
  if (!Array.isArray(articles)) return undefined;
  const read: ArticlePairs[] = [];
  for (const kept of articles as unknown[]) {
    if (!Array.isArray(kept) || kept.length < 3 || kept.length > 4 || typeof kept[0] !== 'string' || !Array.isArray(kept[1])) return undefined;
    const [slug, pairs, more, windowed] = kept as [string, unknown[], unknown, unknown];
    if (typeof more !== 'number' || !Number.isInteger(more) || more < 0 || (kept.length === 4 && windowed !== true)) return undefined;
    const article: ArticlePairs = { slug, pairs: [], more, ...(windowed === true ? { windowed } : {}) };
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 3 || typeof pair[0] !== 'string' || typeof pair[1] !== 'number' || typeof pair[2] !== 'boolean') return undefined;
      const [otherSlug, similarity, estimated] = pair as [string, number, boolean];
      article.pairs.push({ slug, otherSlug, similarity, ...(estimated ? { estimated } : {}) } satisfies NearDuplicatePair);
    }
    read.push(article);
  }
  return read;
}

/**
 * The pairs of whichever collection's memo was decided from `decided`: `check` does not know the collection's name (it is in
 * the content config), and the memo's key names every article and its record, so only that collection's can match.
 */
export async function findMemo(store: KeyedStore, decided: string): Promise<ArticlePairs[] | undefined> {
  for (const value of await store.values()) {
    const pairs = pairsOf(value, decided);
    if (pairs !== undefined) return pairs;
  }
  return undefined;
}

/** Keeps the pairs decided from `decided` for `collection`, replacing the last ones. */
export function writeMemo(store: KeyedStore, collection: string, decided: string, articles: readonly ArticlePairs[]): Promise<void> {
  const memo: Memo = {
    decided,
    articles: articles.map(({ slug, pairs, more, windowed }) => {
      const kept = pairs.map((pair) => [pair.otherSlug, pair.similarity, pair.estimated === true] as [string, number, boolean]);
      return windowed === true ? [slug, kept, more, true] : [slug, kept, more];
    }),
  };
  return store.set(collection, memo);
}
