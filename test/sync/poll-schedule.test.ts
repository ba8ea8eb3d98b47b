import { describe, expect, it } from 'vitest';
import { PollSchedule } from '../../src/sync/index.js';

describe('PollSchedule', () => {
  it('should poll a new article first after initialMs', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 10_000, initialMs: 500 });
    schedule.add('a', 1_000);
    expect(schedule.nextDue()).toBe(1_500);
  });

  it('should schedule the next poll near the predicted finish from the progress rate', () => {
    const schedule = new PollSchedule<string>({ minMs: 100, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', 0);
    schedule.takeDue(1_000);
    // 25% in 1 s: 3 s to go; the poll is aimed just after that.
    const due = schedule.record('a', 1_000, 0.25);
    expect(due).toBeGreaterThanOrEqual(4_000);
    expect(due).toBeLessThan(4_500);
  });

  it('should clamp the gap to [minMs, maxMs]', () => {
    const schedule = new PollSchedule<string>({ minMs: 200, maxMs: 2_000, initialMs: 500 });
    schedule.add('fast', 0);
    schedule.add('slow', 0);
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

describe('PollSchedule with service timestamps', () => {
  it('should predict the finish from when a progress level was reached, not when it was seen', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', 0, { startedAt: 0 });
    schedule.takeDue(1_000);
    // Seen at 1 000, reached at 500: a quarter per 500 ms, so it finishes at 2 000, not 4 000.
    const due = schedule.record('a', 1_000, 0.25, 500);
    expect(due).toBeGreaterThanOrEqual(2_000);
    expect(due).toBeLessThan(2_200);
  });

  it('should use the rate between two reached levels', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', 0, { startedAt: 0 });
    // Queued for 1 000 ms: the rate from creation would be too slow; the levels give the true pace.
    schedule.record('a', 1_500, 0.1, 1_400);
    const due = schedule.record('a', 2_500, 0.3, 2_400);
    // 0.2 per 1 000 ms from 2 400: 0.7 to go → 3 500 ms → about 5 900.
    expect(due).toBeGreaterThanOrEqual(5_900);
    expect(due).toBeLessThan(6_300);
  });

  it('should shift predictions by how far the service clock is proven ahead', () => {
    const schedule = new PollSchedule<string>({ minMs: 10, maxMs: 60_000, initialMs: 1_000 });
    schedule.add('a', 0, { startedAt: 0 });
    // The service says 10 500 at our 1 000: its clock is at least 9 500 ahead.
    const due = schedule.record('a', 1_000, 0.5, 10_500);
    expect(due).toBeGreaterThanOrEqual(2_000);
    expect(due).toBeLessThan(2_200);
  });
});
