// How many lock file writes the sync makes when many articles finish together.
import { afterEach, describe, expect, it } from 'vitest';
import { readLockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('lock file writes', () => {
  it('should record many articles that finish together in far fewer lock writes than articles', async () => {
    h = await startHarness();
    const keywords = Array.from({ length: 40 }, (_, i) => `espresso topic ${i}`);
    const specs = h.specs(keywords);
    // Created without waiting: the next run polls all 40 at once, after its (empty) create phase,
    // so every finished article goes through the process-lock path of the lock session.
    await h.sync(specs, { wait: false, budget: 40 });
    const result = await h.sync(specs, { budget: 40 });
    expect(result.totals.finished).toBe(40);
    expect(result.totals.lockWrites).toBeGreaterThan(0);
    expect(result.totals.lockWrites).toBeLessThanOrEqual(10);
    const lock = await readLockFile(h.lockFile);
    expect(Object.values(lock.articles).every((entry) => entry.status === 'finished')).toBe(true);
  });
});
