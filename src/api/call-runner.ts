// Running one call to its end: each attempt within the shared concurrency limit and past the circuit breaker, the retry loop, the final error.
import pLimit, { type LimitFunction } from 'p-limit';
import { type AttemptFailure, createMayHaveHappened, type FailureContext, failureToError, isTransient } from './attempt-failure.js';
import type { CallDefinition } from './call-definition.js';
import { CircuitBreaker } from './circuit-breaker.js';
import type { ArticleRetryInfo } from './client-options.js';
import type { ResolvedSettings } from './client-settings.js';
import type { HttpExchange } from './http-exchange.js';
import { type AttemptOutcome, type RetryDecision, type RetryResult, runWithRetries } from './retry-policy.js';

/** The calls of one client: they share its concurrency limit, its circuit breaker and its counters. */
export interface CallRunner {
  /** Attempts `call` until it succeeds or the retry policy gives up; then throws the error for the last failure. */
  run<T>(call: CallDefinition<T>, signal: AbortSignal | undefined): Promise<T>;
  readonly stats: ArticleClientStats;
  /** Later attempts fail with `closed`; in-flight ones finish, then the connections close. */
  close(): Promise<void>;
}

/** A client's counters, kept by its runner; `ArticleClient.stats`. */
export interface ArticleClientStats {
  /** HTTP attempts sent, retries included. */
  readonly requests: number;
  /** Retries scheduled (backoff sleeps started). */
  readonly retries: number;
}

type FailedRun<T> = Extract<RetryResult<T, AttemptFailure>, { ok: false }>;

/** What the attempts of one client share. */
interface Shared {
  exchange: HttpExchange;
  breaker: CircuitBreaker;
  /** A slot is held for one attempt, never across a backoff sleep. */
  limit: LimitFunction;
  counters: { requests: number; retries: number };
  closed: boolean;
}

/** The runner of one client's calls; `onRetry` is told of each retry before its backoff sleep. */
export function createCallRunner(settings: ResolvedSettings, exchange: HttpExchange, onRetry: (info: ArticleRetryInfo) => void): CallRunner {
  const shared: Shared = {
    exchange,
    breaker: new CircuitBreaker(settings.unreachableAfter),
    limit: pLimit(settings.concurrency),
    counters: { requests: 0, retries: 0 },
    closed: false,
  };
  const { breaker, counters } = shared;

  async function run<T>(call: CallDefinition<T>, signal: AbortSignal | undefined): Promise<T> {
    const idempotentCreate = call.operation === 'createArticle' && settings.idempotentCreates && call.idempotencyKey !== undefined;
    const result = await runWithRetries(() => attemptOnce(shared, call, signal), {
      policy: settings.policy,
      signal,
      decide: (failure) => retryDecision(call, failure, idempotentCreate, breaker),
      onRetry: (info) => {
        counters.retries += 1;
        onRetry({ operation: call.operation, ...info });
      },
    });
    if (result.ok) return result.value;
    const context = failureContext(call, settings, idempotentCreate, result);
    throw failureToError(finalFailure(call, result, breaker, context), context);
  }

  return {
    run,
    stats: {
      get requests() {
        return counters.requests;
      },
      get retries() {
        return counters.retries;
      },
    },
    async close() {
      if (shared.closed) return;
      shared.closed = true;
      await exchange.close();
    },
  };
}

/** One attempt, once a slot is free: not sent when the caller aborted, the client was closed or the breaker is open. */
async function attemptOnce<T>(shared: Shared, call: CallDefinition<T>, signal: AbortSignal | undefined): Promise<AttemptOutcome<T, AttemptFailure>> {
  const notSent: AttemptOutcome<T, AttemptFailure> = { ok: false, failure: { kind: 'aborted', detail: 'aborted by the caller', maybeSent: false } };
  if (signal?.aborted) return notSent;
  let started = false;
  const queued = shared.limit(async () => {
    started = true;
    if (signal?.aborted) return notSent;
    if (shared.closed) return { ok: false, failure: { kind: 'closed', detail: 'the article client was closed' } } as const;
    const open = shared.breaker.open;
    if (open !== undefined) return { ok: false, failure: { kind: 'unreachable', ...open } } as const;
    shared.counters.requests += 1;
    const outcome = await shared.exchange.send(call, signal);
    shared.breaker.record(outcome.ok ? undefined : outcome.failure);
    return outcome;
  });
  if (!signal) return queued;
  // Waiting for a slot ends at once on abort; a started attempt ends through its own signal.
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (!started) resolve(notSent);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    queued.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Whether to try `call` again after `failure`: never once the breaker is open, a create only when it cannot have been acted on. */
function retryDecision(call: CallDefinition<unknown>, failure: AttemptFailure, idempotentCreate: boolean, breaker: CircuitBreaker): RetryDecision {
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (breaker.open !== undefined) return { retry: false, reason: failure.detail };
  if (call.operation === 'createArticle' && !idempotentCreate) {
    // Repeat a create only when the service cannot have acted on it.
    const safe = (failure.kind === 'status' && failure.status === 429) || (failure.kind === 'network' && !createMayHaveHappened(failure));
    return { retry: safe, retryAfterMs, reason: failure.detail };
  }
  return { retry: isTransient(failure), retryAfterMs, reason: failure.detail };
}

function failureContext<T>(call: CallDefinition<T>, settings: ResolvedSettings, idempotentCreate: boolean, result: FailedRun<T>): FailureContext {
  return {
    operation: call.operation,
    subject: call.subject,
    endpoint: `${call.method} ${call.path}`,
    origin: settings.origin,
    attempts: result.attempts,
    elapsedMs: result.elapsedMs,
    giveUp: result.giveUp,
    policy: settings.policy,
    keyword: call.keyword,
    idempotentCreate,
  };
}

/** The failure the caller hears of: the last attempt's, unless the wait for a retry was aborted or the breaker opened. */
function finalFailure<T>(call: CallDefinition<T>, result: FailedRun<T>, breaker: CircuitBreaker, context: FailureContext): AttemptFailure {
  if (result.giveUp === 'aborted') {
    return { kind: 'aborted', detail: `aborted by the caller while waiting to retry after: ${result.failure.detail}`, maybeSent: false };
  }
  const open = breaker.open;
  // The call that opened the breaker says so too, unless it was a create that may have been billed.
  const unreachable = open !== undefined && !(call.operation === 'createArticle' && createMayHaveHappened(result.failure));
  return unreachable ? { kind: 'unreachable', ...open, cause: failureToError(result.failure, context) } : result.failure;
}
