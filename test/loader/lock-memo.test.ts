// Lock file checks done once: a lock text that passed the integrity checks is not checked again in this process, and the
// loader's memo (Astro's cache directory) vouches for the text its last build checked, for this package version and lock
// file only. A text changed by one byte is checked in full: a tampered hash is still refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/lang/package-version.js';
import { lockMemo } from '../../src/loader/lock-memo.js';
import { CorruptLockError, emptyLockFile, parseLockFile, requestHash, serializeLockFile, type LockFile } from '../../src/sync/index.js';
import { lockTextDigest } from '../../src/sync/verified-locks.js';

let dir: string;
let lockFile: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-lock-memo-'));
  // A lock file path of its own per test: the process's registry is keyed by it.
  lockFile = join(dir, 'articles.lock.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A lock text with one entry whose hash is its request's, and the same text with one hex digit of that hash changed. */
function lockTexts(): { good: string; tampered: string } {
  const request = { targetKeyword: 'pour over coffee', articleType: 'blog_post' };
  const lock: LockFile = emptyLockFile();
  lock.articles['pour-over-coffee'] = { keyword: 'pour over coffee', status: 'pending', hash: requestHash(request), request, articleId: 'a-1', attempt: 1, createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z' };
  const good = serializeLockFile(lock);
  const hash = lock.articles['pour-over-coffee']!.hash;
  return { good, tampered: good.replace(hash, `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`) };
}

describe('lock file checks done once', () => {
  it('should refuse a tampered hash, a text changed after a checked one included', () => {
    const { good, tampered } = lockTexts();
    expect(parseLockFile(good, lockFile).articles['pour-over-coffee']).toBeDefined();
    expect(() => parseLockFile(tampered, lockFile)).toThrow(CorruptLockError);
  });

  it('should keep the digest of the text a pass checked, and vouch for it in the next process of this version only', async () => {
    const { good, tampered } = lockTexts();
    parseLockFile(good, lockFile);
    const cache = join(dir, 'cache');
    await lockMemo(cache, 'articles', lockFile).keep();
    const kept = JSON.parse(await readFile(join(cache, 'lock-articles.json'), 'utf8')) as Record<string, string>;
    expect(kept).toEqual({ version: PACKAGE_VERSION, lockFile, digest: lockTextDigest(good) });
    // What the memo vouches for is not checked again: a memo naming the tampered text (written by hand here) lets it through,
    // which shows the checks were skipped; for another version or another lock file it vouches for nothing.
    const other = join(dir, 'other.lock.json');
    await writeFile(join(cache, 'lock-articles.json'), JSON.stringify({ version: `${PACKAGE_VERSION}-next`, lockFile: other, digest: lockTextDigest(tampered) }));
    await lockMemo(cache, 'articles', other).trust();
    expect(() => parseLockFile(tampered, other)).toThrow(CorruptLockError);
    await writeFile(join(cache, 'lock-articles.json'), JSON.stringify({ version: PACKAGE_VERSION, lockFile: other, digest: lockTextDigest(tampered) }));
    await lockMemo(cache, 'guides', other).trust();
    expect(() => parseLockFile(tampered, other)).toThrow(CorruptLockError);
    await lockMemo(cache, 'articles', other).trust();
    expect(parseLockFile(tampered, other).articles['pour-over-coffee']).toBeDefined();
  });

  it('should vouch for nothing when its file is damaged', async () => {
    const { tampered } = lockTexts();
    await writeFile(join(dir, 'lock-articles.json'), '{"version":');
    await lockMemo(dir, 'articles', lockFile).trust();
    expect(() => parseLockFile(tampered, lockFile)).toThrow(CorruptLockError);
  });
});
