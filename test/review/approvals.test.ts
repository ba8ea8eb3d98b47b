// The review room on its own: the rule, and approve/unapprove writing the lock file once, or not at all when refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approve, ReviewError, reviewState, unapprove, waitingArticles } from '../../src/review/index.js';
import { approvedFallback } from '../../src/review/review-rule.js';
import { approvalProblems, previousOf } from '../../src/sync/lock-entry-records.js';
import { serializeLockFile, type LockEntry, type LockFile } from '../../src/sync/index.js';

const hash = (c: string) => `sha256:${c.repeat(64)}`;
const finished = (output: string, extra: Partial<LockEntry> = {}): LockEntry => ({
  keyword: 'k', status: 'finished', hash: hash('1'), articleId: 'art_1', attempt: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', output, ...extra,
});

let dir: string;
let lockFile: string;
const lock: LockFile = {
  version: 1,
  articles: {
    done: finished(hash('a')),
    // A new request being written: the earlier article is served.
    rewriting: { ...finished(hash('b')), status: 'pending', output: undefined, previous: { hash: hash('2'), articleId: 'art_0', output: hash('c') } },
    pending: { ...finished(hash('d')), status: 'pending', output: undefined },
  },
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aal-review-'));
  lockFile = path.join(dir, 'articles.lock.json');
  await writeFile(lockFile, serializeLockFile(lock));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('reviewState', () => {
  it('should say approved only for the output the article serves, edited for a hand edit, else waiting', () => {
    expect(reviewState(finished(hash('a')), false)).toBe('waiting');
    expect(reviewState(finished(hash('a'), { approved: { output: hash('a'), approvedAt: '2026-01-02T00:00:00.000Z' } }), false)).toBe('approved');
    expect(reviewState(finished(hash('e'), { approved: { output: hash('a'), approvedAt: '2026-01-02T00:00:00.000Z' } }), false)).toBe('waiting');
    expect(reviewState(finished(hash('e')), true)).toBe('edited');
    expect(reviewState(lock.articles.rewriting!, false)).toBe('waiting');
    expect(reviewState({ ...lock.articles.rewriting!, approved: { output: hash('c'), approvedAt: '2026-01-02T00:00:00.000Z' } }, false)).toBe('approved');
  });

  it('should keep the approved earlier article of a rewritten entry for the site, and warn of an approval that names nothing kept', () => {
    const approved = { output: hash('c'), approvedAt: '2026-01-02T00:00:00.000Z' };
    const kept = finished(hash('e'), { approved, previous: { hash: hash('2'), articleId: 'art_0', output: hash('c') } });
    expect(reviewState(kept, false)).toBe('waiting');
    expect(approvedFallback(kept)).toEqual({ output: hash('c'), articleId: 'art_0', hash: hash('2'), current: false, emulator: false });
    // Rewritten again before the new one was approved: the approved one stays the earlier article.
    expect(previousOf(kept)?.output).toBe(hash('c'));
    const stale = finished(hash('e'), { approved });
    expect(approvedFallback(stale)).toBeUndefined();
    expect(approvalProblems({ version: 1, articles: { kept, stale } } as unknown as LockFile).map((problem) => [problem.slug, problem.code])).toEqual([['stale', 'stale_approval']]);
  });
});

describe('approve and unapprove', () => {
  it('should record the served output, and remove it again', async () => {
    const changes = await approve({ lockFile }, ['done', 'rewriting'], { now: () => new Date('2026-02-03T04:05:06.000Z') });
    expect(changes).toEqual([{ slug: 'done', output: hash('a'), changed: true }, { slug: 'rewriting', output: hash('c'), changed: true }]);
    const written = JSON.parse(await readFile(lockFile, 'utf8'));
    expect(written.articles.done.approved).toEqual({ output: hash('a'), approvedAt: '2026-02-03T04:05:06.000Z' });
    expect(await waitingArticles({ lockFile })).toEqual([]);
    expect(await unapprove({ lockFile }, ['done'])).toEqual([{ slug: 'done', output: hash('a'), changed: true }]);
    expect(JSON.parse(await readFile(lockFile, 'utf8')).articles.done.approved).toBeUndefined();
    expect((await waitingArticles({ lockFile })).map((article) => [article.slug, article.title])).toEqual([['done', 'k']]);
  });

  it('should refuse every unknown slug or one with nothing served, writing nothing', async () => {
    const before = await readFile(lockFile);
    await expect(approve({ lockFile, slugs: ['done', 'pending'] }, ['done', 'nope', 'other'])).rejects.toMatchObject({ code: 'review_unknown_slug', slugs: ['nope', 'other'] });
    await expect(approve({ lockFile }, ['done', 'pending'])).rejects.toBeInstanceOf(ReviewError);
    await expect(unapprove({ lockFile }, ['pending'])).rejects.toMatchObject({ code: 'review_no_output', slugs: ['pending'] });
    expect(await readFile(lockFile)).toEqual(before);
  });
});
