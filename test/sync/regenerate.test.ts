// Regenerating a finished article on purpose: one new, paid article; the current one served until it is finished; the attempt counted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSync, readLockFile } from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('regenerate', () => {
  it('should create one new article per named slug, serve the earlier one while it is written, and count the attempt', async () => {
    const specs = h.specs(['trail shoes', 'hiking boots']);
    await h.sync(specs, { poll: FAST_POLL });
    const before = await readLockFile(h.lockFile);
    const firstId = before.articles['trail-shoes']!.articleId!;
    expect(h.emulator.ledger.creations).toHaveLength(2);

    // Without waiting: the new article is pending, and the finished one is still what the slug serves.
    const queued = await h.sync(specs, { poll: FAST_POLL, regenerate: ['trail-shoes'], wait: false, onFailure: 'skip' });
    const pending = queued.articles.find((a) => a.slug === 'trail-shoes')!;
    expect(pending.reason).toEqual({ kind: 'regenerate' });
    expect(pending.serve).toMatchObject({ articleId: firstId, current: false });
    expect(queued.articles.find((a) => a.slug === 'hiking-boots')!.outcome).toBe('reused');
    expect(h.emulator.ledger.creations).toHaveLength(3);

    const done = await h.sync(specs, { poll: FAST_POLL });
    const after = await readLockFile(h.lockFile);
    const entry = after.articles['trail-shoes']!;
    expect(entry.articleId).not.toBe(firstId);
    expect(entry.attempt).toBe(before.articles['trail-shoes']!.attempt + 1);
    expect(entry.hash).toBe(before.articles['trail-shoes']!.hash);
    expect(done.articles.find((a) => a.slug === 'trail-shoes')!.serve).toMatchObject({ articleId: entry.articleId, current: true });
    expect(h.emulator.ledger.creations).toHaveLength(3);
  });

  it('should plan a regenerate only for finished articles, leaving the others to their own rules', async () => {
    const specs = h.specs(['trail shoes']);
    await h.sync(specs, { poll: FAST_POLL });
    const lock = await readLockFile(h.lockFile);
    const cache = new Set(Object.values(lock.articles).map((e) => e.output!));
    expect(planSync(specs, lock, cache, { regenerate: ['trail-shoes'] }).creates.map((c) => [c.slug, c.reason?.kind, c.attempt])).toEqual([['trail-shoes', 'regenerate', 2]]);
    expect(planSync(specs, lock, cache, { regenerate: ['other'] }).creates).toEqual([]);
  });
});
