import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputCache, serializeOutput, type CacheWarning, type LockFile } from '../../src/sync/index.js';

let dir: string;
let warnings: CacheWarning[];
let cache: OutputCache;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-cache-'));
  warnings = [];
  cache = new OutputCache(join(dir, 'articles.cache'), { onWarning: (w) => warnings.push(w) });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const output = { html: '<h1>Grinders</h1><p>Burr beats blade.</p>', polishedHtml: null, updatedAt: 1_736_000_000_000 };

function lockReferencing(...hashes: string[]): LockFile {
  const articles: LockFile['articles'] = {};
  hashes.forEach((hash, i) => {
    articles[`a${i}`] = {
      keyword: `k${i}`,
      status: 'finished',
      hash: `sha256:${'b'.repeat(64)}`,
      articleId: `id-${i}`,
      attempt: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      output: hash,
    };
  });
  return { version: 1, articles };
}

describe('OutputCache', () => {
  it('should name each output by the sha256 of its file bytes', async () => {
    const hash = await cache.put(output);
    const bytes = await readFile(cache.outputFile(hash));
    expect(hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect(bytes.toString('utf8')).toBe(serializeOutput(output));
  });

  it('should give equal outputs the same hash', async () => {
    expect(await cache.put({ ...output })).toBe(await cache.put({ updatedAt: output.updatedAt, polishedHtml: null, html: output.html }));
  });

  it('should read back what it stored', async () => {
    expect(await cache.read(await cache.put(output))).toEqual(output);
  });

  it('should treat a missing output as absent without a warning', async () => {
    expect(await cache.read(`sha256:${'c'.repeat(64)}`)).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('should treat a damaged output as absent and warn, naming the file', async () => {
    const hash = await cache.put(output);
    await writeFile(cache.outputFile(hash), serializeOutput({ ...output, html: '<p>edited</p>' }));
    expect(await cache.read(hash)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.file).toBe(cache.outputFile(hash));
  });

  it('should index present outputs by file name, and only intact ones with verify', async () => {
    const good = await cache.put(output);
    const bad = await cache.put({ ...output, html: '<p>two</p>' });
    await writeFile(cache.outputFile(bad), 'garbage');
    expect(await cache.index()).toEqual(new Set([good, bad]));
    expect(await cache.index({ verify: true })).toEqual(new Set([good]));
  });

  it('should list unreferenced outputs and leftover temp files for prune, and keep referenced ones', async () => {
    const kept = await cache.put(output);
    const dropped = await cache.put({ ...output, html: '<p>old</p>' });
    await writeFile(join(cache.outputsDir, '.x.json.123.abc.tmp'), 'partial');
    const files = await cache.unreferenced(lockReferencing(kept));
    expect(files).toEqual([join(cache.outputsDir, '.x.json.123.abc.tmp'), cache.outputFile(dropped)].sort());
    await cache.prune(lockReferencing(kept));
    expect(await readdir(cache.outputsDir)).toEqual([cache.outputFile(kept).split('/').pop()]);
  });

  it('should report a finished entry whose output is missing, and a file whose content does not match its name', async () => {
    const present = await cache.put(output);
    const tampered = await cache.put({ ...output, html: '<p>t</p>' });
    await writeFile(cache.outputFile(tampered), serializeOutput({ ...output, html: '<p>changed</p>' }));
    const missing = `sha256:${'d'.repeat(64)}`;
    const problems = await cache.verify(lockReferencing(present, missing));
    expect(problems.map((p) => p.code).sort()).toEqual(['hash_mismatch', 'missing_output']);
    expect(problems.find((p) => p.code === 'missing_output')!.slug).toBe('a1');
  });

  it('should report nothing for a consistent lock and cache', async () => {
    const hash = await cache.put(output);
    await cache.links.set('content+domain', '<p>linked</p>');
    expect(await cache.verify(lockReferencing(hash))).toEqual([]);
  });
});

describe('OutputCache keyed stores', () => {
  it('should return what was set for a key, and undefined for another key', async () => {
    await cache.links.set('some content\u0000domain-1', { links: [], wordsAnalysed: 3 });
    expect(await cache.links.get('some content\u0000domain-1')).toEqual({ links: [], wordsAnalysed: 3 });
    expect(await cache.links.get('other')).toBeUndefined();
  });

  it('should ignore a damaged record with a warning', async () => {
    await cache.links.set('k', '<p>linked</p>');
    const [name] = await readdir(cache.linksDir);
    await writeFile(join(cache.linksDir, name!), JSON.stringify({ sha256: 'nope', value: '<p>evil</p>' }));
    expect(await cache.links.get('k')).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('should check a record as written by its text, and one laid out otherwise (pretty-printed) by its value', async () => {
    await cache.links.set('k', { links: ['/a/'], note: 'é "quoted"' });
    const [name] = await readdir(cache.linksDir);
    const file = join(cache.linksDir, name!);
    const written = await readFile(file, 'utf8');
    // Written as it always was: JSON.stringify of the checksum and the value.
    const value = { links: ['/a/'], note: 'é "quoted"' };
    expect(written).toBe(`${JSON.stringify({ sha256: createHash('sha256').update(JSON.stringify(value)).digest('hex'), value })}\n`);
    // One letter of the value changed, the layout kept: the text no longer has its hash.
    await writeFile(file, written.replace('/a/', '/b/'));
    expect(await cache.links.get('k')).toBeUndefined();
    expect(warnings).toHaveLength(1);
    // The same record pretty-printed: its value still has its hash.
    await writeFile(file, `${JSON.stringify(JSON.parse(written), null, 2)}\n`);
    expect(await cache.links.get('k')).toEqual({ links: ['/a/'], note: 'é "quoted"' });
  });

  it('should keep keyed stores when pruning outputs', async () => {
    await cache.links.set('k', 'v');
    const images = cache.keyedStore<string>('images');
    await images.set('https://cdn.example.com/a.png', 'abc.png');
    await cache.prune({ version: 1, articles: {} });
    expect(await cache.links.get('k')).toBe('v');
    expect(await images.get('https://cdn.example.com/a.png')).toBe('abc.png');
  });

  it('should refuse a store name that could escape the cache directory', () => {
    expect(() => cache.keyedStore('../x')).toThrow(TypeError);
    expect(() => cache.keyedStore('outputs')).toThrow(TypeError);
  });

  it('should report a damaged keyed record in verify', async () => {
    await mkdir(cache.linksDir, { recursive: true });
    await writeFile(join(cache.linksDir, `${'e'.repeat(64)}.json`), '{"sha256":"x","value":1}');
    expect((await cache.verify({ version: 1, articles: {} })).map((p) => p.code)).toEqual(['hash_mismatch']);
  });
});
