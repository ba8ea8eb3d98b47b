// applyNearDuplicates on Astro's own data store: an entry's near-duplicate findings go into the findings book, and the entry
// is written again only when what it holds changed (its counts on a slim entry, its findings with `entryData: ['findings']`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
// Astro's data store is not among its package exports; the content layer uses this class for every collection.
import { MutableDataStore } from '../../node_modules/astro/dist/content/mutable-data-store.js';
import type { CollectionScope } from '../../src/loader/collection-scope.js';
import { readFindingsBook } from '../../src/loader/findings-book.js';
import type { EntryDataPart } from '../../src/loader/option-declarations.js';
import { applyNearDuplicates } from '../../src/loader/pass-quality.js';
import type { NearDuplicateInputs } from '../../src/loader/pass-context.js';
import { memoKey, NEAR_DUPLICATES_STORE, writeMemo } from '../../src/quality/near-duplicate-memo.js';
import { resolveQualityOptions } from '../../src/quality/quality-options.js';
import { OutputCache } from '../../src/sync/index.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const SLUGS = ['a', 'b', 'c'];
/** Each article's record key (the memo knows an article by its slug and its key's first 16 hex digits). */
const KEY = '0123456789abcdef0123';

/**
 * A collection of three finished entries in Astro's store, each written by this pass with no findings of its own, and the
 * cache's memo saying which pairs the pass finds at each threshold: the pass then reads them instead of measuring.
 */
async function collection(entryData: EntryDataPart[]) {
  const dir = await mkdtemp(join(tmpdir(), 'aal-pass-quality-'));
  dirs.push(dir);
  const scoped = new MutableDataStore().scopedStore('articles');
  const sets: string[] = [];
  const store = { ...scoped, set: (entry: Parameters<typeof scoped.set>[0]) => (sets.push(entry.id), scoped.set(entry)) } as LoaderContext['store'];
  const meta = new Map<string, string>();
  const context = { collection: 'articles', store, meta } as unknown as LoaderContext;
  const scope = { context, options: { entryData } } as unknown as CollectionScope;
  const book = await readFindingsBook(join(dir, 'findings.bin'));
  const signatures = new Map<string, NearDuplicateInputs | null>();
  for (const slug of SLUGS) {
    store.set({ id: slug, digest: `own-${slug}`, data: { status: 'finished', quality: { errors: 0, warnings: 0 } }, rendered: { html: `<p>${slug}</p>` } });
    book.write(slug, `own-${slug}`, []);
    signatures.set(slug, { signature: `signature-${slug}`, shingles: null, key: KEY });
  }
  sets.length = 0;
  const memo = new OutputCache(dir).keyedStore(NEAR_DUPLICATES_STORE);
  /** The pass at `threshold`, with the memo for it saying `c` is a copy of `other`. */
  const pass = async (threshold: number, other: string) => {
    const options = resolveQualityOptions({ nearDuplicateThreshold: threshold });
    const key = memoKey(threshold, SLUGS.map((slug) => ({ slug, key: KEY.slice(0, 16) })))!;
    await writeMemo(memo, 'articles', key, [{ slug: 'c', pairs: [{ slug: 'c', otherSlug: other, similarity: 0.97 }], more: 0 }]);
    await applyNearDuplicates(scope, options, signatures, memo, book);
  };
  return { store, sets, book, pass };
}

describe('applyNearDuplicates', () => {
  it('writes a slim entry again when its counts change, and only the book when the finding names another copy', async () => {
    const { store, sets, book, pass } = await collection([]);
    await pass(0.8, 'a');
    expect(sets).toEqual(['c']);
    const marked = store.get('c')!;
    expect(marked.data.quality).toEqual({ errors: 0, warnings: 1 });
    expect(String(marked.digest).startsWith('own-c+')).toBe(true);
    expect(book.ofEntry(marked).map((finding) => finding.message)).toEqual([expect.stringContaining('"c" and "a" are 97% alike')]);
    // a and b have no near-duplicate finding: left as they were.
    expect(store.get('a')!.digest).toBe('own-a');

    sets.length = 0;
    await pass(0.85, 'b');
    // The same counts: the entry holds what it held, so it is not written again; the book names the new copy.
    expect(sets).toEqual([]);
    expect(store.get('c')!.digest).toBe(marked.digest);
    expect(book.ofEntry(store.get('c')!).map((finding) => finding.message)).toEqual([expect.stringContaining('"c" and "b" are 97% alike')]);
  });

  it("writes the entry again when the finding names another copy and `entryData: ['findings']` puts the findings on it", async () => {
    const { store, sets, pass } = await collection(['findings']);
    await pass(0.8, 'a');
    const first = store.get('c')!;
    expect((first.data.quality as { findings: { message: string }[] }).findings.map((finding) => finding.message)).toEqual([expect.stringContaining('"c" and "a"')]);

    sets.length = 0;
    await pass(0.85, 'b');
    expect(sets).toEqual(['c']);
    const second = store.get('c')!;
    expect(second.digest).not.toBe(first.digest);
    expect(String(second.digest).startsWith('own-c+')).toBe(true);
    expect(second.data.quality).toMatchObject({ errors: 0, warnings: 1 });
    expect((second.data.quality as { findings: { message: string }[] }).findings.map((finding) => finding.message)).toEqual([expect.stringContaining('"c" and "b"')]);
  });
});
