// The near-duplicate pairs a pass decided, kept in the committed cache (articles.cache/near-duplicates/, one file per
// collection, replaced when the collection changes): a build with a cold Astro data store (CI, a fresh clone) whose
// articles and settings are those of the last build reads them instead of measuring the collection again, as it reads
// each article's own findings from its processed record. `check` reads them too (cli/current-findings.ts).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ArticlePairs } from './near-duplicates.js';
import type { KeyedStore } from '../sync/index.js';

/** The cache's subdirectory (a keyed store: a damaged file is warned about and decided again, `verify` checks it, `prune` keeps it). */
export const NEAR_DUPLICATES_STORE = 'near-duplicates';
/** Bumped when what is kept changes meaning: every memo made before is then a miss. */
const MEMO_FORMAT = 1;

/**
 * One article's pairs as kept: `[slug, [[otherSlug, similarity, estimated], …], more, windowed?]`, compact since a
 * corpus of alike articles has tens of thousands (`windowed`, when `more` is a lower bound, is left out when false).
 */
const memoSchema = z.object({
  decided: z.string(),
  articles: z.array(z.tuple([z.string(), z.array(z.tuple([z.string(), z.number(), z.boolean()])), z.number().int().nonnegative()], z.literal(true))),
});
type Memo = z.infer<typeof memoSchema>;

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
  const parsed = memoSchema.safeParse(await store.get(collection));
  if (!parsed.success || parsed.data.decided !== decided) return undefined;
  return pairsOf(parsed.data);
}

function pairsOf(memo: Memo): ArticlePairs[] {
  return memo.articles.map(([slug, pairs, more, windowed]) => ({
    slug,
    pairs: pairs.map(([otherSlug, similarity, estimated]) => ({ slug, otherSlug, similarity, ...(estimated ? { estimated } : {}) })),
    more,
    ...(windowed === true ? { windowed } : {}),
  }));
}

/**
 * The pairs of whichever collection's memo was decided from `decided`: `check` does not know the collection's name (it is in
 * the content config), and the memo's key names every article and its record, so only that collection's can match.
 */
export async function findMemo(store: KeyedStore, decided: string): Promise<ArticlePairs[] | undefined> {
  for (const value of await store.values()) {
    const parsed = memoSchema.safeParse(value);
    if (parsed.success && parsed.data.decided === decided) return pairsOf(parsed.data);
  }
  return undefined;
}

/** Keeps the pairs decided from `decided` for `collection`, replacing the last ones. */
export function writeMemo(store: KeyedStore, collection: string, decided: string, articles: readonly ArticlePairs[]): Promise<void> {
  const memo: Memo = {
    decided,
    articles: articles.map(({ slug, pairs, more, windowed }) => {
      const kept: Memo['articles'][number] = [slug, pairs.map((pair) => [pair.otherSlug, pair.similarity, pair.estimated === true] as [string, number, boolean]), more];
      if (windowed === true) kept.push(true);
      return kept;
    }),
  };
  return store.set(collection, memo);
}
