// The lock file's journal: a create phase appends each changed entry instead of rewriting the lock file, every reader replays it, and the session folds it in.
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalPath, LockSession, readLockFile, serializeLockFile, writeLockFile, type LockEntry, type LockFile } from '../../src/sync/index.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-journal-'));
  file = join(dir, 'articles.lock.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entry(i: number, status: LockEntry['status'] = 'pending'): LockEntry {
  return {
    keyword: `archived article ${i}`,
    status,
    hash: `sha256:${'f'.repeat(64)}`,
    articleId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    attempt: 1,
    createdAt: '2026-06-01T00:00:00.000Z',
    updatedAt: '2026-06-01T00:00:00.000Z',
    ...(status === 'finished' ? { output: `sha256:${'e'.repeat(64)}`, finishedAt: '2026-06-01T00:00:00.000Z' } : {}),
  };
}

function slug(i: number): string {
  return `article-${String(i).padStart(5, '0')}`;
}

/** A lock file of `count` finished entries, written as a full write does. */
async function seed(count: number): Promise<LockFile> {
  const lock: LockFile = { version: 1, articles: {} };
  for (let i = 0; i < count; i++) lock.articles[slug(i)] = entry(i, 'finished');
  await writeLockFile(file, lock);
  return lock;
}

describe('lock file journal', () => {
  it('should record each flushed change of the exclusive phase in the journal, leave the lock file itself alone, and fold it in on close', async () => {
    await seed(50);
    const before = await stat(file);
    const session = new LockSession(file, {});
    await session.exclusive(async () => {
      for (let i = 50; i < 250; i++) {
        session.stage((lock) => ((lock.articles[slug(i)] = entry(i)), true), [slug(i)]);
        await session.flush();
        // Durable as soon as the flush resolves: any reader sees the new id.
        if (i % 50 === 0) expect((await readLockFile(file)).articles[slug(i)]?.articleId).toBe(entry(i).articleId);
      }
    });
    expect((await stat(file)).ino).toBe(before.ino);
    expect(existsSync(journalPath(file))).toBe(true);
    expect(Object.keys((await readLockFile(file)).articles)).toHaveLength(250);

    await session.close();
    expect(existsSync(journalPath(file))).toBe(false);
    const text = await readFile(file, 'utf8');
    const lock = await readLockFile(file);
    expect(Object.keys(lock.articles)).toHaveLength(250);
    // One document again, in the lock file's own layout: a diff shows the 200 new entries and nothing else.
    expect(text).toBe(serializeLockFile(lock));
  });

  it('should keep every journaled id when the session never closes (a killed sync), and fold it in at the next write', async () => {
    await seed(10);
    const killed = new LockSession(file, {});
    await killed.exclusive(async () => {
      killed.stage((lock) => ((lock.articles[slug(10)] = entry(10)), true), [slug(10)]);
      await killed.flush();
    });
    const next = new LockSession(file, {});
    await next.update((lock) => ((lock.articles[slug(11)] = entry(11)), true));
    expect(existsSync(journalPath(file))).toBe(false);
    const lock = JSON.parse(await readFile(file, 'utf8')) as LockFile;
    expect(lock.articles[slug(10)]?.articleId).toBe(entry(10).articleId);
    expect(lock.articles[slug(11)]?.articleId).toBe(entry(11).articleId);
  });

  it('should ignore a journal written on top of another lock file text, so it never puts back an older entry', async () => {
    await seed(5);
    const session = new LockSession(file, {});
    await session.exclusive(async () => {
      session.stage((lock) => ((lock.articles[slug(0)] = entry(0, 'pending')), true), [slug(0)]);
      await session.flush();
    });
    expect((await readLockFile(file)).articles[slug(0)]?.status).toBe('pending');
    // The lock file replaced (here with one more entry) by a full write whose removal of the journal did not survive (a power loss), or restored from git.
    const restored = await seed(6);
    expect(existsSync(journalPath(file))).toBe(true);
    expect(await readLockFile(file)).toEqual(restored);
  });

  it('should stop, naming each article, when the lock file was replaced under a journal that records ids it lacks (a git pull after a killed sync)', async () => {
    const committed = await readFile((await seed(3), file), 'utf8');
    const killed = new LockSession(file, {});
    await killed.exclusive(async () => {
      killed.stage((lock) => ((lock.articles[slug(3)] = entry(3)), true), [slug(3)]);
      await killed.flush();
    });
    // `git checkout articles.lock.json`, or a pull: the lock file is another text, the journal alone knows article 3.
    await writeLockFile(file, { version: 1, articles: { ...JSON.parse(committed).articles, [slug(4)]: entry(4, 'finished') } });
    const error = await readLockFile(file).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'corrupt_lock' });
    expect((error as Error).message).toContain(`"${slug(3)}" (article ${entry(3).articleId})`);
    expect((error as Error).message).toContain('Put back the lock file the sync was run on');
    expect(existsSync(journalPath(file))).toBe(true);
  });

  it("should journal the month's spent tally with the entries, so a killed sync never forgets what it counted against the monthly cap", async () => {
    await seed(2);
    const killed = new LockSession(file, {});
    await killed.exclusive(async () => {
      killed.stage((lock) => {
        lock.articles[slug(2)] = entry(2, 'unknown');
        lock.spent = { '2026-11': { articles: 1, words: 0 } };
        return true;
      }, [slug(2)]);
      await killed.flush();
    });
    expect(existsSync(journalPath(file))).toBe(true);
    const read = await readLockFile(file);
    expect(read.spent).toEqual({ '2026-11': { articles: 1, words: 0 } });
    expect(read.articles[slug(2)]?.status).toBe('unknown');
  });

  it('should write the whole lock file every time, and no journal, for a run that commits the lock file after each write', async () => {
    await seed(3);
    const session = new LockSession(file, {}, { wholeWrites: true });
    await session.exclusive(async () => {
      session.stage((lock) => ((lock.articles[slug(3)] = entry(3)), true), [slug(3)]);
      await session.flush();
      expect(existsSync(journalPath(file))).toBe(false);
      expect((JSON.parse(await readFile(file, 'utf8')) as LockFile).articles[slug(3)]?.articleId).toBe(entry(3).articleId);
    });
  });

  it('should leave out a last line cut off mid-append, and refuse a damaged complete line as corrupt_lock', async () => {
    await seed(3);
    const session = new LockSession(file, {});
    await session.exclusive(async () => {
      session.stage((lock) => ((lock.articles[slug(3)] = entry(3)), true), [slug(3)]);
      await session.flush();
    });
    await appendFile(journalPath(file), '{"slug":"article-00004","entry":{"keyw');
    expect(Object.keys((await readLockFile(file)).articles)).toEqual([slug(0), slug(1), slug(2), slug(3)]);
    await appendFile(journalPath(file), '\n');
    await expect(readLockFile(file)).rejects.toMatchObject({ code: 'corrupt_lock' });
  });

  it('should fold the journal into the lock file once it is as large as the lock file, so the bytes written stay linear', async () => {
    await seed(10);
    const session = new LockSession(file, {});
    const inodes = new Set<bigint>();
    await session.exclusive(async () => {
      // About 2.4 MB of journal lines in batches of 200: past the 1 MB floor, so at least one fold.
      for (let batch = 0; batch < 30; batch++) {
        for (let i = 0; i < 200; i++) {
          const n = 10 + batch * 200 + i;
          session.stage((lock) => ((lock.articles[slug(n)] = entry(n)), true), [slug(n)]);
        }
        await session.flush();
        inodes.add((await stat(file, { bigint: true })).ino);
      }
    });
    expect(inodes.size).toBeGreaterThan(1);
    expect(inodes.size).toBeLessThan(6);
    await session.close();
    expect(Object.keys((await readLockFile(file)).articles)).toHaveLength(6010);
  });
});
