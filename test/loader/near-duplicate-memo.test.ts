// The near-duplicate memo: the pairs a pass decided, kept in the committed cache under what they were decided from, read
// back only for the same articles (record keys) and threshold; a damaged or foreign file is a miss, warned about.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoKey, NEAR_DUPLICATES_STORE, readMemo, writeMemo } from '../../src/quality/near-duplicate-memo.js';
import { articlePairFindings, articlePairs, type NearDuplicatePair } from '../../src/quality/near-duplicates.js';
import { resolveQualityOptions } from '../../src/quality/index.js';
import { OutputCache, type CacheWarning } from '../../src/sync/index.js';

let dir: string;
let cache: OutputCache;
const warnings: CacheWarning[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-memo-'));
  warnings.length = 0;
  cache = new OutputCache(join(dir, 'articles.cache'), { onWarning: (warning) => warnings.push(warning) });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Seven articles alike to `a`, one estimated: more than one article's findings show, so the memo keeps a count of the rest. */
const PAIRS: NearDuplicatePair[] = ['b', 'c', 'd', 'e', 'f', 'g', 'h'].map((other, index) => ({ slug: 'a', otherSlug: other, similarity: 0.9 - index / 100, ...(index === 2 ? { estimated: true } : {}) }));

describe('the near-duplicate memo', () => {
  it('should give back the pairs it kept, with the same findings, for the same articles and threshold', async () => {
    const store = cache.keyedStore(NEAR_DUPLICATES_STORE);
    const key = memoKey(0.6, [{ slug: 'a', key: 'k1' }, { slug: 'b', key: 'k2' }])!;
    const decided = articlePairs(PAIRS);
    await writeMemo(store, 'articles', key, decided);
    const read = await readMemo(store, 'articles', key);
    expect(read).toEqual(decided);
    const options = resolveQualityOptions();
    expect(articlePairFindings(read!, options)).toEqual(articlePairFindings(decided, options));
    const messages = articlePairFindings(read!, options).map((finding) => finding.message);
    expect(messages).toHaveLength(5);
    expect(messages[2]).toMatch(/^"a" and "d" are about 88% alike/);
    expect(messages[4]).toMatch(/^"a" and "f" are 86% alike .*\(and 2 more like it\)$/);
  });

  it('should keep that an article\'s count of more pairs is a lower bound (it met only a window of a large bucket)', async () => {
    const store = cache.keyedStore(NEAR_DUPLICATES_STORE);
    const key = memoKey(0.6, [{ slug: 'a', key: 'k1' }])!;
    const decided = articlePairs(PAIRS.map((pair) => ({ ...pair, windowed: true })));
    expect(decided[0]!.windowed).toBe(true);
    await writeMemo(store, 'articles', key, decided);
    const read = await readMemo(store, 'articles', key);
    expect(read).toEqual(decided);
    expect(articlePairFindings(read!, resolveQualityOptions()).at(-1)!.message).toMatch(/\(and at least 2 more like it\)$/);
  });

  it('should miss for a memo of the right state whose pairs are misshapen, and read a sound one whole', async () => {
    const store = cache.keyedStore(NEAR_DUPLICATES_STORE);
    const sound = ['a', [['b', 0.9, false], ['c', 0.8, true]], 2];
    await store.set('articles', { decided: 's', articles: [sound, ['d', [], 0, true]] });
    expect(await readMemo(store, 'articles', 's')).toEqual([
      { slug: 'a', pairs: [{ slug: 'a', otherSlug: 'b', similarity: 0.9 }, { slug: 'a', otherSlug: 'c', similarity: 0.8, estimated: true }], more: 2 },
      { slug: 'd', pairs: [], more: 0, windowed: true },
    ]);
    for (const damaged of [['a', [['b', '0.9', false]], 2], ['a', [['b', 0.9]], 2], ['a', [], -1], ['a', [], 1.5], ['a', [], 0, 'yes'], [1, [], 0], ['a', {}, 0], 'a']) {
      await store.set('articles', { decided: 's', articles: [sound, damaged] });
      expect(await readMemo(store, 'articles', 's'), JSON.stringify(damaged)).toBeUndefined();
    }
    await store.set('articles', { decided: 's', articles: 'none' });
    expect(await readMemo(store, 'articles', 's')).toBeUndefined();
  });

  it('should be decided from the articles in any order, and from each record key and the threshold', () => {
    const articles = [{ slug: 'a', key: 'k1' }, { slug: 'b', key: 'k2' }];
    expect(memoKey(0.6, articles)).toBe(memoKey(0.6, [...articles].reverse()));
    expect(memoKey(0.6, [articles[0]!, { slug: 'b', key: 'k3' }])).not.toBe(memoKey(0.6, articles));
    expect(memoKey(0.7, articles)).not.toBe(memoKey(0.6, articles));
    expect(memoKey(0.6, [...articles, { slug: 'c', key: undefined }])).toBeUndefined();
  });

  it('should miss for another state of the collection, another collection, or a damaged file (warned), and keep one file per collection', async () => {
    const store = cache.keyedStore(NEAR_DUPLICATES_STORE);
    await writeMemo(store, 'articles', 'state-1', articlePairs(PAIRS));
    await writeMemo(store, 'articles', 'state-2', []);
    expect(await readMemo(store, 'articles', 'state-1')).toBeUndefined();
    expect(await readMemo(store, 'articles', 'state-2')).toEqual([]);
    expect(await readMemo(store, 'guides', 'state-2')).toBeUndefined();
    const memoDir = join(dir, 'articles.cache', NEAR_DUPLICATES_STORE);
    const files = await readdir(memoDir);
    expect(files).toHaveLength(1);
    await writeFile(join(memoDir, files[0]!), '{"sha256":"0","value":{"decided":"state-2","articles":[]}}');
    expect(await readMemo(store, 'articles', 'state-2')).toBeUndefined();
    expect(warnings.map((warning) => warning.code)).toEqual(['corrupt_cache_file']);
  });
});
