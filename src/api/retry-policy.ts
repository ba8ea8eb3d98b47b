// Bounded retries: exponential backoff with full jitter, the server's Retry-After, abortable sleeps.
import { setTimeout as sleep } from 'node:timers/promises';
import { ArticleLoaderError } from '../errors.js';

/*
 * Why a hand-written loop and not p-retry (or async-retry): those choose every delay themselves
 * (factor/randomize, no full jitter) and offer no clean way to make one particular failure wait
 * exactly what the server's Retry-After says, nor to stop at once when that wait is longer than
 * the time left. Those two rules are the point of this module, so the loop is ours and small.
 */

export interface RetryOptions {
  /** Attempts in all, the first included. Default 5; 1 disables retries. */
  maxAttempts?: number;
  /**
   * No new attempt starts, and no sleep ends, later than this many ms after the first attempt
   * started. A running attempt is bounded by the client's `timeoutMs` instead. Default 120 000.
   */
  maxElapsedMs?: number;
  /** Backoff ceiling of the first retry; it doubles per retry. Default 500. */
  baseDelayMs?: number;
  /** Largest backoff ceiling. `Retry-After` may ask for more; it is honoured within maxElapsedMs. Default 20 000. */
  maxDelayMs?: number;
}
export type RetryPolicy = Readonly<Required<RetryOptions>>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  maxElapsedMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
});

/** The policy with defaults applied; throws `invalid_client_options` for a value that cannot work. */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...definedOnly(options) };
  const problems: string[] = [];
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) problems.push('retry.maxAttempts must be a whole number of at least 1');
  for (const key of ['maxElapsedMs', 'baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) problems.push(`retry.${key} must be a finite number of 0 or more`);
  }
  if (problems.length > 0) {
    throw new ArticleLoaderError('invalid_client_options', `Invalid article client options: ${problems.join('; ')}.`);
  }
  return Object.freeze(policy);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * "Full jitter" (uniform between 0 and the exponential ceiling): spreads the retries of many
 * clients that failed together, which plain or "equal" jitter does less well.
 * `retryNumber` is 1 for the first retry.
 */
export function fullJitterDelay(retryNumber: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.floor(random() * ceiling);
}

export type AttemptOutcome<T, F> = { ok: true; value: T } | { ok: false; failure: F };

export interface RetryDecision {
  retry: boolean;
  /** The server's `Retry-After`, when it sent one: waited for exactly, instead of the backoff. */
  retryAfterMs?: number | undefined;
  /** Short text for `onRetry`: what went wrong. */
  reason: string;
}

/** Why the loop stopped without a success. */
export type GiveUpReason = 'not_retryable' | 'max_attempts' | 'max_elapsed' | 'retry_after_beyond_budget' | 'aborted';

export type RetryResult<T, F> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; failure: F; attempts: number; elapsedMs: number; giveUp: GiveUpReason; retryAfterMs: number | undefined };

export interface RetryInfo {
  /** 1-based number of the attempt that just failed; the next one is `attempt + 1`. */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface RetryRun<F> {
  policy: RetryPolicy;
  decide(failure: F): RetryDecision;
  /** Aborting during a sleep ends the loop at once with `giveUp: 'aborted'`. */
  signal?: AbortSignal | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Monotonic clock in ms; injectable for tests. */
  now?: () => number;
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds or a bound is reached. Attempts report failures as values so
 * the caller can build one complete error (with the attempt count) after the loop ends.
 */
export async function runWithRetries<T, F>(
  attempt: (attemptNumber: number) => Promise<AttemptOutcome<T, F>>,
  run: RetryRun<F>,
): Promise<RetryResult<T, F>> {
  const now = run.now ?? (() => performance.now());
  const { policy } = run;
  const started = now();
  for (let attemptNumber = 1; ; attemptNumber++) {
    const outcome = await attempt(attemptNumber);
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: attemptNumber };
    const decision = run.decide(outcome.failure);
    const giveUp = (reason: GiveUpReason): RetryResult<T, F> => ({
      ok: false,
      failure: outcome.failure,
      attempts: attemptNumber,
      elapsedMs: now() - started,
      giveUp: reason,
      retryAfterMs: decision.retryAfterMs,
    });
    if (!decision.retry) return giveUp('not_retryable');
    if (attemptNumber >= policy.maxAttempts) return giveUp('max_attempts');
    const remaining = policy.maxElapsedMs - (now() - started);
    // Waiting less than the server asked would only earn another 429; waiting longer than the
    // budget would hide the problem. Either way, say when to come back instead.
    if (decision.retryAfterMs !== undefined && decision.retryAfterMs > remaining) return giveUp('retry_after_beyond_budget');
    if (remaining <= 0) return giveUp('max_elapsed');
    const delayMs = Math.min(decision.retryAfterMs ?? fullJitterDelay(attemptNumber, policy, run.random), remaining);
    run.onRetry?.({ attempt: attemptNumber, delayMs, reason: decision.reason });
    try {
      await sleep(delayMs, undefined, run.signal ? { signal: run.signal } : {});
    } catch (error) {
      if (run.signal?.aborted) return giveUp('aborted');
      throw error;
    }
  }
}
