import { mkdir, mkdtemp, readdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CorruptLockError,
  emptyLockFile,
  parseLockFile,
  readLockFile,
  lockPathsForManifest,
  resolveLockPaths,
  serializeLockFile,
  UnsupportedLockVersionError,
  writeLockFile,
  type LockFile,
} from '../../src/sync/index.js';
import { isVerifiedLock, lockTextDigest } from '../../src/sync/verified-locks.js';
import { childScript, spawnTsChild } from './ts-child.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/locks/', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lock file', () => {
  it('should read a missing lock file as an empty lock', async () => {
    expect(await readLockFile(join(dir, 'articles.lock.json'))).toEqual(emptyLockFile());
  });

  it('should refuse a lock file path that is a directory with lock_read_failed naming the file', async () => {
    const file = join(dir, 'articles.lock.json');
    await mkdir(file);
    const error = await readLockFile(file).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'lock_read_failed' });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('is a directory');
  });

  it('should round-trip a lock file through write and read', async () => {
    const lock = parseLockFile(await readFile(join(FIXTURES, 'valid-v1.json'), 'utf8'), 'valid-v1.json');
    const file = join(dir, 'articles.lock.json');
    await writeLockFile(file, lock);
    expect(await readLockFile(file)).toEqual(lock);
  });

  it('should serialize the committed fixture to exactly its own bytes', async () => {
    const text = await readFile(join(FIXTURES, 'valid-v1.json'), 'utf8');
    expect(serializeLockFile(parseLockFile(text, 'valid-v1.json'))).toBe(text);
  });

  it('should serialize billing records in their fixed place, in an entry and in its previous article', async () => {
    const text = await readFile(join(FIXTURES, 'billed-v1.json'), 'utf8');
    const lock = parseLockFile(text, 'billed-v1.json');
    expect(lock.articles['best-coffee-grinder']).toMatchObject({ words: 3012, images: 0, imageWords: 0 });
    expect(lock.articles['espresso-at-home']!.previous).toMatchObject({ words: 1788, images: 3, imageWords: 600 });
    expect(serializeLockFile(lock)).toBe(text);
  });

  it('should read a text it checked before as the schema read it, without checking it again', async () => {
    const json = JSON.parse(await readFile(join(FIXTURES, 'billed-v1.json'), 'utf8')) as { articles: Record<string, Record<string, unknown>> } & Record<string, unknown>;
    delete json.articles['best-coffee-grinder']!.attempt;
    json.articles['best-coffee-grinder']!.approved = { output: json.articles['best-coffee-grinder']!.output, approvedAt: '2025-01-04T10:00:00.000Z' };
    json.schedule = { 'espresso-at-home': '2025-02-01T09:00:00.000Z' };
    json.spent = { '2025-01': { articles: 2, words: 4800 } };
    const text = JSON.stringify(json, null, 1);
    const file = join(dir, 'articles.lock.json');
    await writeFile(file, text);
    const checked = await readLockFile(file);
    expect(checked.articles['best-coffee-grinder']!.attempt).toBe(1);
    // The first read checked the text; the second takes it as checked.
    expect(isVerifiedLock(file, lockTextDigest(text))).toBe(true);
    expect(await readLockFile(file)).toEqual(checked);
  });

  it('should read version 1 entries written before billing records existed', async () => {
    const lock = parseLockFile(await readFile(join(FIXTURES, 'valid-v1.json'), 'utf8'), 'valid-v1.json');
    expect(Object.values(lock.articles).map((entry) => entry.words)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('should refuse a billing record that is not a whole number of words, naming the field', async () => {
    const text = (await readFile(join(FIXTURES, 'billed-v1.json'), 'utf8')).replace('"words": 3012', '"words": -3');
    expect(() => parseLockFile(text, 'billed.json')).toThrow(/articles\["best-coffee-grinder"\]\.words must be 0 or more/);
  });

  it('should write the emulator mark after the billing record, and accept only true', async () => {
    const text = await readFile(join(FIXTURES, 'billed-v1.json'), 'utf8');
    const lock = parseLockFile(text, 'billed-v1.json');
    lock.articles['best-coffee-grinder']!.emulator = true;
    const written = serializeLockFile(lock);
    expect(written).toContain('"imageWords": 0,\n      "emulator": true,\n      "request"');
    expect(parseLockFile(written, 'x.json').articles['best-coffee-grinder']!.emulator).toBe(true);
    expect(() => parseLockFile(written.replace('"emulator": true', '"emulator": false'), 'x.json')).toThrow(/emulator must be true \(or absent\)/);
  });

  it('should give the same bytes whatever order the entries and keys were built in', () => {
    const entry = {
      keyword: 'k',
      status: 'pending' as const,
      hash: `sha256:${'a'.repeat(64)}`,
      articleId: 'id-1',
      attempt: 1,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
    const a: LockFile = { version: 1, articles: { zeta: entry, alpha: entry } };
    const b: LockFile = { version: 1, articles: { alpha: reordered, zeta: reordered } };
    expect(serializeLockFile(a)).toBe(serializeLockFile(b));
    expect(serializeLockFile(a).indexOf('"alpha"')).toBeLessThan(serializeLockFile(a).indexOf('"zeta"'));
    expect(serializeLockFile(a).endsWith('}\n')).toBe(true);
  });

  it('should refuse a truncated lock file with corrupt_lock naming the file, and leave it untouched', async () => {
    const file = join(dir, 'articles.lock.json');
    await copyFile(join(FIXTURES, 'corrupt-truncated.json'), file);
    const before = await readFile(file);
    const error = await readLockFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptLockError);
    expect((error as CorruptLockError).code).toBe('corrupt_lock');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/version control/);
    expect(await readFile(file)).toEqual(before);
  });

  it('should name merge-conflict markers in a conflicted lock file', async () => {
    const text = await readFile(join(FIXTURES, 'merge-conflict.json'), 'utf8');
    expect(() => parseLockFile(text, 'articles.lock.json')).toThrow(/merge-conflict markers/);
  });

  it('should refuse an unknown version with unsupported_lock_version', async () => {
    const text = await readFile(join(FIXTURES, 'future-version.json'), 'utf8');
    const error = (() => {
      try {
        parseLockFile(text, 'articles.lock.json');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedLockVersionError);
    expect((error as Error).message).toMatch(/version 2.*version 1/);
  });

  it('should refuse a finished entry without its output, naming the field', async () => {
    const text = await readFile(join(FIXTURES, 'bad-entry.json'), 'utf8');
    expect(() => parseLockFile(text, 'articles.lock.json')).toThrow(/articles\["best-coffee-grinder"\]\.output is required/);
  });

  it('should resolve a directory to articles.lock.json and the cache beside it', () => {
    expect(resolveLockPaths('/site')).toEqual({ lockFile: '/site/articles.lock.json', cacheDir: '/site/articles.cache' });
    expect(resolveLockPaths('/site/custom.json')).toEqual({ lockFile: '/site/custom.json', cacheDir: '/site/articles.cache' });
    expect(resolveLockPaths('/site/custom.lock.json')).toEqual({ lockFile: '/site/custom.lock.json', cacheDir: '/site/custom.cache' });
  });

  it('should keep an existing site\'s articles.lock.json for a manifest of another name, unless an articles manifest owns it', async () => {
    const manifest = join(dir, 'keywords.yaml');
    expect(lockPathsForManifest(manifest).lockFile).toBe(join(dir, 'keywords.lock.json'));
    await writeFile(join(dir, 'articles.lock.json'), serializeLockFile(emptyLockFile()));
    expect(lockPathsForManifest(manifest)).toEqual({ lockFile: join(dir, 'articles.lock.json'), cacheDir: join(dir, 'articles.cache') });
    await writeFile(join(dir, 'articles.yaml'), 'articles: []\n');
    expect(lockPathsForManifest(manifest).lockFile).toBe(join(dir, 'keywords.lock.json'));
    expect(lockPathsForManifest(join(dir, 'articles.yaml')).lockFile).toBe(join(dir, 'articles.lock.json'));
  });

  it('should keep using articles.cache for a custom-named lock file that had it, unless articles.lock.json owns it', async () => {
    await mkdir(join(dir, 'articles.cache'));
    expect(resolveLockPaths(join(dir, 'custom.lock.json')).cacheDir).toBe(join(dir, 'articles.cache'));
    await writeFile(join(dir, 'articles.lock.json'), serializeLockFile(emptyLockFile()));
    expect(resolveLockPaths(join(dir, 'custom.lock.json')).cacheDir).toBe(join(dir, 'custom.cache'));
  });

  it('should name the lock file and cache of a manifest after it, articles.yaml keeping articles.lock.json', () => {
    expect(lockPathsForManifest('/site/articles.yaml')).toEqual({ lockFile: '/site/articles.lock.json', cacheDir: '/site/articles.cache' });
    expect(lockPathsForManifest('/site/guides.yaml')).toEqual({ lockFile: '/site/guides.lock.json', cacheDir: '/site/guides.cache' });
    expect(lockPathsForManifest('/site/content/reviews.csv')).toEqual({ lockFile: '/site/content/reviews.lock.json', cacheDir: '/site/content/reviews.cache' });
  });

  it('should leave no temp file behind after a write', async () => {
    await writeLockFile(join(dir, 'articles.lock.json'), emptyLockFile());
    expect(await readdir(dir)).toEqual(['articles.lock.json']);
  });

  it('should always leave a parsable lock file when the writer is killed mid-write', async () => {
    const file = join(dir, 'articles.lock.json');
    await writeFile(file, serializeLockFile(emptyLockFile()));
    for (let kill = 0; kill < 4; kill++) {
      const child = spawnTsChild(childScript('lock-writer.ts'), [file]);
      await child.waitFor(/^writing$/);
      // Read while the child rewrites: every read must see a whole file (old or new), never a torn one.
      for (let read = 0; read < 20 + kill * 10; read++) {
        parseLockFile(await readFile(file, 'utf8'), file);
      }
      child.process.kill('SIGKILL');
      expect(await child.exited).toBe('SIGKILL');
      const lock = parseLockFile(await readFile(file, 'utf8'), file);
      expect([1000, 3000]).toContain(Object.keys(lock.articles).length);
    }
  });
});
