// Lock file checks done once: a lock text that passed the integrity checks is not checked again in this process, and the
// loader's memo (the committed cache's lock-checks/, so a cold build of an unchanged lock file skips them too) vouches for
// the text its last build checked, for this package version and collection only. A text changed by one byte is checked in
// full: a tampered hash is still refused.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/lang/package-version.js';
import { LOCK_CHECKS_STORE, lockMemo } from '../../src/loader/lock-memo.js';
import { CorruptLockError, emptyLockFile, OutputCache, parseLockFile, requestHash, serializeLockFile, type KeyedStore, type LockFile } from '../../src/sync/index.js';
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

  it('should keep the digest of the text a pass checked, in the committed cache, and vouch for it in the next process of this version only', async () => {
    const { good, tampered } = lockTexts();
    parseLockFile(good, lockFile);
    const store = checks();
    await lockMemo(store, 'articles', lockFile).keep();
    const file = join(dir, 'articles.cache', LOCK_CHECKS_STORE, `${createHash('sha256').update('articles').digest('hex')}.json`);
    const kept = JSON.parse(await readFile(file, 'utf8')) as { value: unknown };
    expect(kept.value).toEqual({ version: PACKAGE_VERSION, digest: lockTextDigest(good) });
    // What the memo vouches for is not checked again: a memo naming the tampered text (written by hand here) lets it through,
    // which shows the checks were skipped; for another version or another collection it vouches for nothing.
    const other = join(dir, 'other.lock.json');
    await store.set('articles', { version: `${PACKAGE_VERSION}-next`, digest: lockTextDigest(tampered) });
    await lockMemo(store, 'articles', other).trust();
    expect(() => parseLockFile(tampered, other)).toThrow(CorruptLockError);
    await store.set('articles', { version: PACKAGE_VERSION, digest: lockTextDigest(tampered) });
    await lockMemo(store, 'guides', other).trust();
    expect(() => parseLockFile(tampered, other)).toThrow(CorruptLockError);
    await lockMemo(store, 'articles', other).trust();
    expect(parseLockFile(tampered, other).articles['pour-over-coffee']).toBeDefined();
  });

  it('should vouch for nothing when its file is damaged, and write it again once the text is checked', async () => {
    const { good, tampered } = lockTexts();
    const store = checks();
    await store.set('articles', { version: PACKAGE_VERSION, digest: lockTextDigest(tampered) });
    const file = join(dir, 'articles.cache', LOCK_CHECKS_STORE, `${createHash('sha256').update('articles').digest('hex')}.json`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"version"', '"versiom"'));
    const memo = lockMemo(store, 'articles', lockFile);
    await memo.trust();
    expect(() => parseLockFile(tampered, lockFile)).toThrow(CorruptLockError);
    parseLockFile(good, lockFile);
    await memo.keep();
    expect(await store.get('articles')).toEqual({ version: PACKAGE_VERSION, digest: lockTextDigest(good) });
  });
});

function checks(): KeyedStore {
  return new OutputCache(join(dir, 'articles.cache')).keyedStore(LOCK_CHECKS_STORE);
}
