// The poll schedule against the emulator with a queue delay and short writing times, through the real client.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/api/index.js';
import { PollSchedule } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

/** Like the emulator's `fast` preset (queue 50–300 ms, writing 1–3 s), fixed so every article is queued first. */
const QUEUED_FAST = { queueDelayMs: 250, writingMs: 1_200 };
/** `--poll-interval 200ms`: first and shortest gap 200 ms, longest the default 30 s. */
const CLI_200MS = { minMs: 200, initialMs: 200 };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('polling fast articles that were queued first', () => {
  it('should not wait longer than the article has taken while it has only shown the 0.01 of a start', async () => {
    // Writing steps of 1 s: the poll after the queue delay surely sees the 0.01 of a start, which
    // (measured from the create) predicted a finish 99 × 250 ms away, so the gap used to be maxMs.
    h = await startHarness({ timing: { queueDelayMs: 250, writingMs: 12_000 } });
    const schedule = new PollSchedule<string>(CLI_200MS);
    const sentAt = Date.now();
    const articleId = await h.client.createArticle(articleRequestSchema.parse({ targetKeyword: 'siphon coffee maker' }));
    schedule.add(articleId, Date.now(), { startedAt: sentAt });
    const chosen: { age: number; gap: number; progress: number }[] = [];
    // Until the first writing step ends: the article itself need not finish.
    while ((chosen.at(-1)?.progress ?? 0) <= 0.01 && chosen.length < 8) {
      await sleep(Math.max(0, schedule.nextDue()! - Date.now()));
      schedule.takeDue(Date.now());
      const status = await h.client.getArticle(articleId);
      const now = Date.now();
      const gap = schedule.record(articleId, now, status.progress, status.updatedAt) - now;
      chosen.push({ age: now - sentAt, gap, progress: status.progress });
      if (status.progress > 0 && status.progress <= 0.01) expect(gap).toBeLessThanOrEqual(Math.max(CLI_200MS.minMs, now - sentAt));
    }
    expect(chosen.map((c) => c.progress)).toContain(0.01);
  });

  it('should see each article of a queued fast run finished within a few polls', async () => {
    h = await startHarness({ timing: QUEUED_FAST });
    const result = await h.sync(h.specs(['moka pot', 'cold drip tower', 'turkish coffee']), { poll: CLI_200MS });
    expect(result.articles.map((a) => a.outcome)).toEqual(['finished', 'finished', 'finished']);
    const polls = new Map<string, number>();
    for (const request of h.emulator.requests) if (request.route === 'getArticle') polls.set(request.path, (polls.get(request.path) ?? 0) + 1);
    expect(polls.size).toBe(3);
    for (const count of polls.values()) {
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(7);
    }
  });
});
