// A request changed back and forth on a site with the review gate, where the approved article stays while a newer one
// waits for review: each article is bought once. Restoring the earlier article keeps the newer one (finished) as the
// earlier one in turn, so changing the request back to it restores it too, instead of buying it again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whyOf } from '../../src/cli/plan-report.js';
import { planSync, readLockFile, writeLockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('a request changed back and forth', () => {
  it('should buy each request once, restoring whichever article the request is back to', async () => {
    const short = h.specs(['cold brew at home'], { articleLength: 'short' });
    const long = h.specs(['cold brew at home'], { articleLength: 'long' });
    const a = (await h.sync(short)).articles[0]!.entry!.articleId;
    // Approved, as `approve` records it: with the gate, A stays on the site while B waits for review.
    const lock = await readLockFile(h.lockFile);
    const entry = lock.articles['cold-brew-at-home']!;
    entry.approved = { output: entry.output!, approvedAt: '2026-11-27T10:00:00.000Z' };
    await writeLockFile(h.lockFile, lock);
    const b = (await h.sync(long)).articles[0]!.entry!.articleId;
    expect(h.emulator.ledger.creations).toHaveLength(2);
    for (const [specs, id, other] of [[short, a, b], [long, b, a], [short, a, b]] as const) {
      const result = await h.sync(specs);
      expect(result.articles[0]).toMatchObject({ action: 'restore', outcome: 'restored', entry: { articleId: id, status: 'finished', previous: { articleId: other } } });
    }
    expect(h.emulator.ledger.creations).toHaveLength(2);
    expect((await readLockFile(h.lockFile)).articles['cold-brew-at-home']).toMatchObject({ articleId: a, approved: { output: entry.output } });
  });

  it('should say in the plan that going back drops the newer article still being written, which was paid for', async () => {
    const short = h.specs(['cold brew at home'], { articleLength: 'short' });
    await h.sync(short);
    const b = (await h.sync(h.specs(['cold brew at home'], { articleLength: 'long' }), { wait: false })).articles[0]!.entry!.articleId;
    const [planned] = planSync(short, await readLockFile(h.lockFile), new Set(Object.values((await readLockFile(h.lockFile)).articles).flatMap((e) => [e.output, e.previous?.output]).filter((o): o is string => o !== undefined))).articles;
    expect(planned!.action).toBe('restore');
    expect(whyOf(planned!)).toBe(`the request is back to that of the earlier finished article: served again, no create; article ${b}, still being written for the other request (paid), is dropped`);
  });
});
