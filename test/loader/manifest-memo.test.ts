// The manifest memo: a manifest file whose path and bytes are unchanged is taken from the loader's memo (kept with v8's
// serializer in Astro's cache directory) instead of being parsed again; the kept manifest equals a fresh parse, its
// requests frozen and hashed alike; a changed, damaged or problem manifest is read and reported as without a memo, and a memo
// that cannot be written never fails the load.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNote } from '../../src/loader/build-notes.js';
import { manifestMemo } from '../../src/loader/manifest-memo.js';
import { loadManifest, ManifestError, type Manifest, type ManifestMemo } from '../../src/manifest/index.js';
import { requestHash } from '../../src/sync/index.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-manifest-memo-'));
  file = join(dir, 'articles.yaml');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const MANIFEST = [
  'defaults:',
  '  data: { section: coffee }',
  'articles:',
  '  - keyword: best espresso machines',
  '    publishDate: 2026-05-01',
  '    data: { tags: [espresso, machines] }',
  '  - keyword: pour over coffee',
  '    articleType: listicle',
  '',
].join('\n');

/** The real memo, counting what it was asked and what it kept. */
function counted(memo: ManifestMemo): ManifestMemo & { hits: number; sets: number } {
  const counts = { hits: 0, sets: 0 };
  return Object.assign(counts, {
    get: async (digest: string) => {
      const kept = await memo.get(digest);
      if (kept !== undefined) counts.hits += 1;
      return kept;
    },
    set: async (digest: string, manifest: Manifest) => {
      counts.sets += 1;
      await memo.set(digest, manifest);
    },
  });
}

describe('the manifest memo', () => {
  it('should give back an unchanged manifest equal to a fresh parse, dates and frozen requests included, without parsing it', async () => {
    await writeFile(file, MANIFEST);
    const memo = counted(manifestMemo(join(dir, 'cache'), 'articles'));
    const parsed = await loadManifest(file, memo);
    expect(memo).toMatchObject({ hits: 0, sets: 1 });
    const kept = await loadManifest(file, memo);
    expect(memo).toMatchObject({ hits: 1, sets: 1 });
    expect(kept).not.toBe(parsed);
    expect(kept).toEqual(parsed);
    expect(kept.specs[0]!.publishDate).toBeInstanceOf(Date);
    expect(Object.isFrozen(kept.specs[1]!.request)).toBe(true);
    expect(kept.specs.map((spec) => requestHash(spec.request))).toEqual(parsed.specs.map((spec) => requestHash(spec.request)));
  });

  it('should parse again once the file changes, and never keep a manifest with a problem', async () => {
    await writeFile(file, MANIFEST);
    const memo = counted(manifestMemo(join(dir, 'cache'), 'articles'));
    await loadManifest(file, memo);
    await writeFile(file, MANIFEST.replace('pour over coffee', 'cold brew at home'));
    expect((await loadManifest(file, memo)).specs[1]!.keyword).toBe('cold brew at home');
    expect(memo).toMatchObject({ hits: 0, sets: 2 });
    await writeFile(file, MANIFEST.replace('articleType: listicle', 'articleType: listical'));
    await expect(loadManifest(file, memo)).rejects.toBeInstanceOf(ManifestError);
    await expect(loadManifest(file, memo)).rejects.toThrow(/listical/);
    expect(memo).toMatchObject({ hits: 0, sets: 2 });
  });

  it('should load the manifest all the same when the memo cannot be written', async () => {
    await writeFile(file, MANIFEST);
    // The memo's directory would be inside a regular file: every write fails.
    await writeFile(join(dir, 'not-a-dir'), '');
    const memo = counted(manifestMemo(join(dir, 'not-a-dir', 'cache'), 'articles'));
    expect((await loadManifest(file, memo)).specs).toHaveLength(2);
    expect((await loadManifest(file, memo)).specs).toHaveLength(2);
    expect(memo).toMatchObject({ hits: 0, sets: 2 });
  });

  it('should read a damaged memo as a miss, and keep one file per collection', async () => {
    await writeFile(file, MANIFEST);
    const cache = join(dir, 'cache');
    await loadManifest(file, manifestMemo(cache, 'articles'));
    await loadManifest(file, manifestMemo(cache, 'guides'));
    const files = (await readdir(cache)).sort();
    expect(files).toEqual(['manifest-articles.bin', 'manifest-guides.bin']);
    await writeFile(join(cache, files[0]!), 'not a serialized value');
    const memo = counted(manifestMemo(cache, 'articles'));
    expect((await loadManifest(file, memo)).specs).toHaveLength(2);
    expect(memo).toMatchObject({ hits: 0, sets: 1 });
  });

  it('should decode a memo only when its first line names the manifest asked for', async () => {
    await writeFile(file, MANIFEST);
    const cache = join(dir, 'cache');
    await loadManifest(file, manifestMemo(cache, 'articles'));
    const note = join(cache, 'manifest-articles.bin');
    const head = (await readFile(note)).subarray(0, 200).toString('latin1').split('\n')[0]!;
    expect(head).toMatch(/^astro-article-loader \S+ manifest \S+$/);
    const decoded: number[] = [];
    const decode = (bytes: Buffer): unknown => (decoded.push(bytes.length), {});
    expect(await readNote(note, decode, head.replace(/manifest \S+$/, 'manifest sha256:another'))).toBeUndefined();
    expect(decoded).toEqual([]);
    expect(await readNote(note, decode, `${head}\n`)).toEqual({});
    expect(decoded).toEqual([(await readFile(note)).length - head.length - 1]);
  });
});
