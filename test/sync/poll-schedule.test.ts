import { describe, expect, it } from 'vitest';
import { PollSchedule } from '../../src/sync/index.js';

/** A plausible service time (Unix ms), so `updatedAt` reads as a real timestamp; local time is `T0 + t`. */
const T0 = 1_700_000_000_000;

describe('PollSchedule', () => {
  it('should poll a new article first after initialMs', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 10_000, initialMs: 500 });
    schedule.add('a', 1_000);
    expect(schedule.nextDue()).toBe(1_500);
  });

  it('should schedule the next poll near the finish predicted from the pace between two progress levels', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', 0);
    schedule.record('a', 4_000, 0.4);
    // 0.1 per 1 000 ms: 0.5 to go is 5 000 ms; the poll is aimed just after the finish at 10 000.
    const due = schedule.record('a', 5_000, 0.5);
    expect(due).toBeGreaterThanOrEqual(10_000);
    expect(due).toBeLessThan(10_500);
  });

  it('should clamp the gap to [minMs, maxMs]', () => {
    const schedule = new PollSchedule<string>({ minMs: 200, maxMs: 2_000, initialMs: 500 });
    schedule.add('fast', 0);
    schedule.add('slow', 0, { startedAt: -600_000 });
    schedule.takeDue(500);
    expect(schedule.record('fast', 500, 0.999)).toBe(700);
    expect(schedule.record('slow', 500, 0.001)).toBe(2_500);
  });

  it('should grow the gap while an article makes no progress', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 10_000, initialMs: 1_000 });
    schedule.add('queued', 0);
    const first = schedule.record('queued', 1_000, 0) - 1_000;
    const second = schedule.record('queued', 2_500, 0) - 2_500;
    expect(second).toBeGreaterThan(first);
  });

  it('should not let the gap of an article without progress outgrow its age', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 10_000, initialMs: 200 });
    schedule.add('queued', 0);
    expect(schedule.record('queued', 200, 0)).toBe(400);
  });

  it('should hand out every article due within the batch window in one wake-up, and each only once', () => {
    const schedule = new PollSchedule<string>({ minMs: 1_000, maxMs: 10_000, initialMs: 1_000, batchWindowMs: 100 });
    schedule.add('a', 0);
    schedule.add('b', 50);
    schedule.add('c', 500);
    expect(schedule.takeDue(1_000).sort()).toEqual(['a', 'b']);
    expect(schedule.takeDue(1_000)).toEqual([]);
    expect(schedule.nextDue()).toBe(1_500);
  });

  it('should back off after a failed poll', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 10_000, initialMs: 400 });
    schedule.add('a', 0);
    expect(schedule.recordError('a', 400)).toBe(1_200);
  });
});

describe('PollSchedule with queue time', () => {
  it('should poll a fast article seen at 1% after a queue delay again within its age, not at maxMs', () => {
    // The reported case (--poll-interval 200ms against fast timing): created at 0, queued at the
    // first poll, then 0.01 reached when writing started at 250. Measured from the create, that is
    // 99 × 250 ms still to go, so the next poll used to be maxMs (30 s) away.
    const schedule = new PollSchedule<string>({ minMs: 200, initialMs: 200 });
    schedule.add('a', T0);
    schedule.takeDue(T0 + 200);
    schedule.record('a', T0 + 205, 0, T0 + 1);
    schedule.takeDue(T0 + 505);
    const due = schedule.record('a', T0 + 510, 0.01, T0 + 250);
    expect(due - (T0 + 510)).toBeLessThanOrEqual(510);
  });

  it('should never wait longer than the article has taken while it has a single progress level', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0);
    const due = schedule.record('a', T0 + 1_000, 0.05, T0 + 900);
    expect(due).toBe(T0 + 2_000);
  });

  it('should measure a single progress level from when the article was last seen queued', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0);
    schedule.record('a', T0 + 1_000, 0, T0 + 1);
    // Half done 500 ms after it was last seen queued: it finishes at 2 000, not at 3 000 (measured from the create).
    const due = schedule.record('a', T0 + 1_600, 0.5, T0 + 1_500);
    expect(due).toBeGreaterThanOrEqual(T0 + 2_000);
    expect(due).toBeLessThan(T0 + 2_100);
  });

  it('should measure the pace from the first progress level, leaving the queue time out', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0);
    // Queued for 4 000 ms (never seen queued), then 0.01 per 40 ms: 0.98 to go at 4 160 is 3 920 ms.
    schedule.record('a', T0 + 4_100, 0.01, T0 + 4_000);
    const due = schedule.record('a', T0 + 4_200, 0.02, T0 + 4_040);
    expect(due).toBeGreaterThanOrEqual(T0 + 7_960);
    expect(due).toBeLessThan(T0 + 8_300);
  });

  it('should bound a measured pace by three times the article age', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 100 });
    schedule.add('a', T0);
    schedule.record('a', T0 + 100, 0.01, T0 + 50);
    // 0.01 per 50 ms predicts 4 800 ms to go; the age (200 ms) allows 600.
    expect(schedule.record('a', T0 + 200, 0.02, T0 + 100)).toBe(T0 + 800);
  });

  it('should count the age of an article created by an earlier run from its creation', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0 + 100_000, { startedAt: T0, firstPollAt: T0 + 100_000 });
    // Measured from its creation, 0.25 in 100 s is 300 s to go: the gap is maxMs, not a few ms.
    expect(schedule.record('a', T0 + 100_000, 0.25, T0 + 100_000 - 1)).toBe(T0 + 160_000);
  });
});

describe('PollSchedule with service timestamps', () => {
  it('should predict the finish from when a progress level was reached, not when it was seen', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0, { startedAt: T0 - 1_000 });
    schedule.takeDue(T0 + 1_000);
    // Seen at 1 000, reached at 0 (1 000 ms after the create): a quarter per 1 000 ms, so it
    // finishes at 3 000; measured to when it was seen, it would be 7 000.
    const due = schedule.record('a', T0 + 1_000, 0.25, T0);
    expect(due).toBeGreaterThanOrEqual(T0 + 3_000);
    expect(due).toBeLessThan(T0 + 3_200);
  });

  it('should use the rate between two reached levels', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0, { startedAt: T0 });
    // Queued for 1 000 ms: the rate from creation would be too slow; the levels give the true pace.
    schedule.record('a', T0 + 1_500, 0.1, T0 + 1_400);
    const due = schedule.record('a', T0 + 2_500, 0.3, T0 + 2_400);
    // 0.2 per 1 000 ms from 2 400: 0.7 to go → 3 500 ms → about 5 900.
    expect(due).toBeGreaterThanOrEqual(T0 + 5_900);
    expect(due).toBeLessThan(T0 + 6_300);
  });

  it('should shift predictions by how far the service clock is proven ahead', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', T0, { startedAt: T0 - 1_500 });
    // The service says 10 500 at our 1 000: its clock is at least 9 500 ahead. 60% done 2 500 ms
    // after the create (on its clock), so about 1 667 ms to go: about 2 700 on ours, not 18 500.
    const due = schedule.record('a', T0 + 1_000, 0.6, T0 + 10_500);
    expect(due).toBeGreaterThanOrEqual(T0 + 2_667);
    expect(due).toBeLessThan(T0 + 2_900);
  });

  describe('the horizon (the latest predicted finish)', () => {
    /** `slow` predicted to finish at T0 + 20 000 (0.25 per 5 000 ms between two levels), polled at T0 + 5 000. */
    const withSlow = (): PollSchedule<string> => {
      const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 60_000, initialMs: 1_000 });
      schedule.add('slow', T0);
      schedule.takeDue(T0 + 1_000);
      schedule.record('slow', T0 + 1_000, 0.05, T0 + 1_000);
      schedule.takeDue(T0 + 5_000);
      schedule.record('slow', T0 + 5_000, 0.25, T0 + 5_000);
      return schedule;
    };

    it('should set the horizon to the latest predicted finish', () => {
      const schedule = withSlow();
      expect(schedule.horizon).toBeGreaterThanOrEqual(T0 + 19_000);
      expect(schedule.horizon).toBeLessThanOrEqual(T0 + 21_000);
    });

    it('should poll a new article first at the horizon rather than after initialMs', () => {
      const schedule = withSlow();
      schedule.add('new', T0 + 5_000);
      schedule.takeDue(T0 + 5_000);
      expect(schedule.nextDue()).toBe(schedule.horizon);
    });

    it('should poll a new article first no later than maxMs after it was added', () => {
      const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 3_000, initialMs: 1_000 });
      schedule.add('slow', T0);
      schedule.takeDue(T0 + 1_000);
      schedule.record('slow', T0 + 1_000, 0.01, T0 + 1_000);
      schedule.add('new', T0 + 1_000);
      schedule.takeDue(T0 + 2_000); // `slow` (its age cap): the horizon is about T0 + 100 000
      expect(schedule.nextDue()).toBe(T0 + 4_000);
    });

    it('should poll an article predicted to finish before the horizon at the horizon, not at its own finish', () => {
      const schedule = withSlow();
      schedule.add('quick', T0 + 5_000);
      schedule.takeDue(T0 + 20_000);
      // Half done in 1 000 ms of writing: its own finish would be about T0 + 7 000.
      const due = schedule.record('quick', T0 + 6_000, 0.5, T0 + 6_000);
      expect(due).toBe(schedule.horizon);
    });

    it('should never poll an article before its own predicted finish, even when the horizon is earlier', () => {
      const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 60_000, initialMs: 1_000 });
      schedule.add('a', T0);
      schedule.add('b', T0);
      schedule.takeDue(T0 + 1_000);
      schedule.record('a', T0 + 1_000, 0.5, T0 + 1_000); // a: finish about T0 + 2 000
      const due = schedule.record('b', T0 + 1_000, 0.1, T0 + 1_000); // b: finish about T0 + 10 000, the horizon
      expect(due).toBeLessThanOrEqual(T0 + 2_000); // b keeps its age cap (1× its age of 1 000 ms)
      expect(schedule.horizon).toBeGreaterThanOrEqual(T0 + 9_000);
    });

    it('should pull the articles waiting for the horizon in when the horizon article turns out faster', () => {
      const schedule = withSlow();
      schedule.add('quick', T0 + 5_000);
      schedule.takeDue(T0 + 20_000);
      schedule.record('quick', T0 + 6_000, 0.5, T0 + 6_000);
      schedule.takeDue(T0 + 20_000); // only `slow` is due by then (`quick` waits for the horizon too)
      // Now 0.9 at T0 + 8 000: about T0 + 9 000, not T0 + 20 000.
      schedule.record('slow', T0 + 8_000, 0.9, T0 + 8_000);
      expect(schedule.horizon).toBeLessThan(T0 + 10_000);
      expect(schedule.nextDue()).toBeLessThan(T0 + 10_000);
    });

    it('should move the articles waiting for the horizon to their own finish once the horizon article is done', () => {
      const schedule = withSlow();
      schedule.add('quick', T0 + 5_000);
      schedule.takeDue(T0 + 20_000);
      schedule.record('quick', T0 + 6_000, 0.5, T0 + 6_000);
      schedule.remove('slow');
      expect(schedule.horizon).toBeLessThan(T0 + 8_000);
      expect(schedule.nextDue()).toBeLessThan(T0 + 8_000);
    });
  });
});
