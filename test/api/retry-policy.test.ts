// The retry building blocks on their own: Retry-After parsing, full-jitter delays, policy bounds, the loop's stop reasons.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/api/retry-after.js';
import { type AttemptOutcome, DEFAULT_RETRY_POLICY, fullJitterDelay, resolveRetryPolicy, runWithRetries } from '../../src/api/retry-policy.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('should read delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
  });

  it('should read an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:01:30 GMT', now)).toBe(90_000);
  });

  it('should read a date in the past as zero', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('should take the first of repeated headers', () => {
    expect(parseRetryAfter(['3', '60'], now)).toBe(3000);
  });

  it.each([undefined, '', '  ', 'soon', '-5', '1e3', 'Thu, 99 Foo 2026'])('should ignore the unreadable value %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('fullJitterDelay', () => {
  const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });

  it('should stay below a ceiling that doubles per retry', () => {
    const almostOne = () => 0.999_999;
    expect([1, 2, 3, 4].map((retry) => fullJitterDelay(retry, policy, almostOne))).toEqual([99, 199, 399, 799]);
  });

  it('should cap the ceiling at maxDelayMs', () => {
    expect(fullJitterDelay(10, policy, () => 0.999_999)).toBe(999);
  });

  it('should reach down to zero', () => {
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
  });
});

describe('resolveRetryPolicy', () => {
  it('should apply the defaults to options left out or undefined', () => {
    expect(resolveRetryPolicy({ maxAttempts: 2, baseDelayMs: undefined })).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 2 });
  });

  it.each([{ maxAttempts: 0 }, { maxAttempts: 1.5 }, { maxElapsedMs: -1 }, { baseDelayMs: Number.NaN }, { maxDelayMs: Infinity }])(
    'should refuse %j',
    (options) => {
      expect(() => resolveRetryPolicy(options)).toThrow(expect.objectContaining({ code: 'invalid_client_options' }));
    },
  );
});

describe('runWithRetries', () => {
  const policy = resolveRetryPolicy({ maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 });
  const failing = async (): Promise<AttemptOutcome<string, string>> => ({ ok: false, failure: 'boom' });

  it('should return the first success with the attempt count', async () => {
    let calls = 0;
    const result = await runWithRetries(async () => (++calls < 2 ? { ok: false, failure: 'boom' } : { ok: true, value: 'done' }), {
      policy,
      decide: () => ({ retry: true, reason: 'boom' }),
    });

    expect(result).toEqual({ ok: true, value: 'done', attempts: 2 });
  });

  it('should stop at once on a failure that must not be retried', async () => {
    const result = await runWithRetries(failing, { policy, decide: () => ({ retry: false, reason: 'boom' }) });

    expect(result).toMatchObject({ ok: false, failure: 'boom', attempts: 1, giveUp: 'not_retryable' });
  });

  it('should stop after maxAttempts', async () => {
    const result = await runWithRetries(failing, { policy, decide: () => ({ retry: true, reason: 'boom' }) });

    expect(result).toMatchObject({ ok: false, attempts: 3, giveUp: 'max_attempts' });
  });

  it('should stop when the time budget is spent, by the clock it is given', async () => {
    let clock = 0;
    const result = await runWithRetries(
      async () => {
        clock += 400;
        return { ok: false, failure: 'slow' };
      },
      { policy: resolveRetryPolicy({ maxAttempts: 100, maxElapsedMs: 1000, baseDelayMs: 0 }), decide: () => ({ retry: true, reason: 'slow' }), now: () => clock },
    );

    expect(result).toMatchObject({ ok: false, attempts: 3, giveUp: 'max_elapsed' });
  });

  it('should stop at once when Retry-After exceeds what is left of the budget', async () => {
    const result = await runWithRetries(failing, {
      policy: resolveRetryPolicy({ maxElapsedMs: 10_000 }),
      decide: () => ({ retry: true, retryAfterMs: 60_000, reason: '429' }),
    });

    expect(result).toMatchObject({ ok: false, attempts: 1, giveUp: 'retry_after_beyond_budget', retryAfterMs: 60_000 });
  });

  it('should wait the Retry-After instead of the backoff', async () => {
    const delays: number[] = [];
    await runWithRetries(failing, {
      policy: resolveRetryPolicy({ maxAttempts: 2, baseDelayMs: 10_000, maxDelayMs: 10_000 }),
      decide: () => ({ retry: true, retryAfterMs: 2, reason: '429' }),
      onRetry: (info) => delays.push(info.delayMs),
    });

    expect(delays).toEqual([2]);
  });

  it('should end a sleep with giveUp aborted when the signal fires', async () => {
    const controller = new AbortController();
    const result = await runWithRetries(failing, {
      policy: resolveRetryPolicy({ baseDelayMs: 60_000, maxDelayMs: 60_000 }),
      decide: () => ({ retry: true, reason: 'boom' }),
      signal: controller.signal,
      random: () => 0.5,
      onRetry: () => controller.abort(),
    });

    expect(result).toMatchObject({ ok: false, attempts: 1, giveUp: 'aborted' });
  });
});
