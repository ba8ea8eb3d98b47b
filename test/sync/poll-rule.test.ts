import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_TIMING, OFFLINE_POLL_MS, pollTiming, resolvePollTiming } from '../../src/sync/index.js';

describe('pollTiming (the loader and the CLI poll by one rule)', () => {
  it('should set the first and the shortest gap to a given interval, against any service', () => {
    expect(pollTiming('remote', 20)).toEqual({ initialMs: 20, minMs: 20 });
    expect(pollTiming('emulator', 2_000)).toEqual({ initialMs: 2_000, minMs: 2_000 });
  });

  it('should poll the embedded emulator briskly when no interval is given', () => {
    expect(resolvePollTiming(pollTiming('emulator', undefined))).toMatchObject({ initialMs: OFFLINE_POLL_MS, minMs: OFFLINE_POLL_MS });
  });

  it("should leave a real service to the schedule's defaults: first poll after 5 s, then never more often than every second", () => {
    expect(pollTiming('remote', undefined)).toBeUndefined();
    expect(resolvePollTiming(pollTiming('remote', undefined))).toMatchObject({ initialMs: 5_000, minMs: 1_000, maxMs: 30_000 });
    expect(DEFAULT_POLL_TIMING).toEqual({ initialMs: 5_000, minMs: 1_000, maxMs: 30_000 });
  });
});
