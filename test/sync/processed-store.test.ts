// verify and prune know the processed-article directory: damaged records are errors, records of other slugs and of
// earlier outputs are warnings, and prune removes the records of slugs no longer in the lock file.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputCache, type LockFile } from '../../src/sync/index.js';
import { buildPackage, REPO } from '../loader/astro-site.js';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-processed-store-'));
});

function lockWith(outputs: Record<string, string>): LockFile {
  const articles = Object.fromEntries(
    Object.entries(outputs).map(([slug, output]) => [slug, { keyword: slug, hash: 'sha256:x', request: { targetKeyword: slug }, status: 'finished', articleId: `id-${slug}`, output }]),
  );
  return { version: 1, articles } as unknown as LockFile;
}

describe('processed records in verify and prune', () => {
  it('should report damaged, unreferenced and stale records, and nothing for a sound one', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    const output = await cache.put({ html: '<p>a</p>', polishedHtml: null, updatedAt: 1, articleId: 'id-a', targetKeyword: 'a' });
    const outputB = await cache.put({ html: '<p>b</p>', polishedHtml: null, updatedAt: 1, articleId: 'id-b', targetKeyword: 'b' });
    const lock = lockWith({ a: output, b: outputB });
    await cache.processed.set('a', { output, key: 'k', value: {} });
    await cache.processed.set('b', { output: `sha256:${'0'.repeat(64)}`, key: 'k', value: {} });
    await cache.processed.set('gone', { output, key: 'k', value: {} });
    await writeFile(cache.processed.file('c'), 'garbage');
    const problems = (await cache.verify(lock)).filter((problem) => problem.file?.includes('processed'));
    expect(problems.map((p) => [p.code, p.severity, p.file?.split('/').pop()])).toEqual([
      ['stale_file', 'warning', 'b.json.gz'],
      ['invalid_file', 'error', 'c.json.gz'],
      ['unreferenced_file', 'warning', 'gone.json.gz'],
    ]);
    expect(problems.find((p) => p.code === 'invalid_file')?.message).toContain('delete it (the next build processes the article again)');
  });

  it('should prune the records of slugs the lock file no longer has, and keep the others', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    const output = await cache.put({ html: '<p>a</p>', polishedHtml: null, updatedAt: 1, articleId: 'id-a', targetKeyword: 'a' });
    await cache.processed.set('a', { output, key: 'k', value: {} });
    await cache.processed.set('gone', { output, key: 'k', value: {} });
    const removed = await cache.prune(lockWith({ a: output }));
    expect(removed.map((file) => file.split('/').pop())).toEqual(['gone.json.gz']);
    expect(await cache.processed.get('a', 'k')).toEqual({});
    await expect(readFile(cache.processed.file('gone'))).rejects.toThrow();
  });

  it('should not take the processed directory for a keyed store', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    expect(() => cache.keyedStore('processed')).toThrow(TypeError);
    await mkdir(join(dir, 'articles.cache', 'processed'), { recursive: true });
    expect(await cache.verify(lockWith({}))).toEqual([]);
  });
});

describe('a record as written', () => {
  const written = async (cache: OutputCache, slug: string): Promise<string> => gunzipSync(await readFile(cache.processed.file(slug))).toString('utf8');

  it('should escape the few non-ASCII characters of a mostly English record, and read them back as they were', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    const html = `<p>${'Steep the tea — four minutes… '.repeat(40)}😀 “done”</p>`;
    await cache.processed.set('tea', { output: 'sha256:o', key: 'k', value: { html } });
    const text = await written(cache, 'tea');
    expect(text).toMatch(/^[\x00-\x7f]*$/);
    expect(text).toContain('tea \\u2014 four minutes\\u2026');
    expect(text).toContain('\\ud83d\\ude00');
    expect(await cache.processed.get('tea', 'k')).toEqual({ html });
  });

  it('should write a record that is mostly not ASCII as it is', async () => {
    const cache = new OutputCache(join(dir, 'articles.cache'));
    const html = `<p>${'お茶を四分間蒸らします。'.repeat(40)}</p>`;
    await cache.processed.set('ocha', { output: 'sha256:o', key: 'k', value: { html } });
    expect(await written(cache, 'ocha')).toContain('お茶を四分間蒸らします。');
    expect(await cache.processed.get('ocha', 'k')).toEqual({ html });
  });
});

describe('reading records ahead', () => {
  it('should hand the loader each record from the ring its own thread filled (dist, as a build runs it), and read for itself once stopped', async () => {
    await buildPackage();
    const { ProcessedStore } = (await import(pathToFileURL(join(REPO, 'dist/sync/processed-store.js')).href)) as typeof import('../../src/sync/processed-store.js');
    const store = new ProcessedStore(join(dir, 'articles.cache'));
    for (const slug of ['a', 'de/b', 'c']) await store.set(slug, { output: 'sha256:o', key: 'k', value: { slug, text: 'Kaffee \u2014 über 20 Minuten' } });
    const reading = store.readAhead(['a', 'de/b', 'missing', 'c']);
    expect(await reading.done).toBe(3);
    // Gone from the disk, the records are still in the ring.
    await rm(join(dir, 'articles.cache/processed'), { recursive: true });
    expect(await store.get('a', 'k')).toEqual({ slug: 'a', text: 'Kaffee \u2014 über 20 Minuten' });
    expect(await store.get('de/b', 'other key')).toBeUndefined();
    expect(await store.get('c', 'k')).toEqual({ slug: 'c', text: 'Kaffee \u2014 über 20 Minuten' });
    expect(reading.stop()).toBe(3);
    // Stopped, `get` reads the disk again.
    expect(await store.get('c', 'k')).toBeUndefined();
  }, 120_000);

  it('should carry each record\u2019s text apart and put it back where it was, or read the file when it is not at the path given', async () => {
    await buildPackage();
    const { ProcessedStore } = (await import(pathToFileURL(join(REPO, 'dist/sync/processed-store.js')).href)) as typeof import('../../src/sync/processed-store.js');
    const store = new ProcessedStore(join(dir, 'articles.cache'));
    const article = (html: string) => ({ article: { html, title: 'T', headings: [{ depth: 2, slug: 'a', text: '"html":"no"' }] }, edit: null });
    const values = {
      en: article('<p class="x">Coffee \u2014 "brewed" \\ well</p>'),
      ja: article('<p>\u304a\u8336\u3092\u56db\u5206\u9593\u84b8\u3089\u3057\u307e\u3059\u3002</p>'.repeat(40)),
      plain: article('<p>plain</p>'),
      // An `html` member, but not at the path: the loader's thread reads this one itself, and gets it whole.
      elsewhere: { html: '<p>top</p>', article: { title: 'T' } },
    };
    for (const [slug, value] of Object.entries(values)) await store.set(slug, { output: 'sha256:o', key: 'k', value });
    const reading = store.readAhead(Object.keys(values), { text: ['article', 'html'] });
    expect(await reading.done).toBe(4);
    for (const [slug, value] of Object.entries(values)) expect(await store.get(slug, 'k'), slug).toEqual(value);
    // All four handed over by the ring; the fourth, its text not where the loader said, then read again from the disk.
    expect(reading.stop()).toBe(4);
  }, 120_000);
});
