// The client's options and what its onRetry hears: the types the client and its parts (settings, call runner) share.
import type { ArticleOperation } from './attempt-failure.js';
import type { RetryInfo, RetryOptions } from './retry-policy.js';

export interface ArticleRetryInfo extends RetryInfo {
  operation: ArticleOperation;
}

export interface ArticleClientOptions {
  /** Root of the service, e.g. `http://127.0.0.1:4010`; a path prefix is kept (`https://host/v2`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never part of an error, a log line or `onRetry` info. */
  apiKey: string;
  /** Per attempt (connect, send, headers and body). Default 30 000. */
  timeoutMs?: number;
  /** Attempts in flight at once, shared by every call of this client. Default 8. */
  concurrency?: number;
  /** Bounds of the retry loop; see `RetryOptions` for the defaults. */
  retry?: RetryOptions;
  /**
   * The service honours `Idempotency-Key` (our emulator does). Only then, and only for a
   * create given an `idempotencyKey`, are creates retried after they may have reached the
   * service. Default false.
   */
  idempotentCreates?: boolean;
  /** Called before each backoff sleep, so callers can count or summarize retries. Must not throw. */
  onRetry?: (info: ArticleRetryInfo) => void;
  /**
   * After this many attempts in a row time out or cannot connect (refused, no such host, TLS
   * failure), the client stops asking: every later call fails at once with `service_unreachable`.
   * Any answer resets the count. Default 3.
   */
  unreachableAfter?: number;
  /**
   * Called when the service sent the API key back (in any encoding) in an answer that is kept: a
   * status record's HTML, its text or its error. It was replaced by `[redacted]`. Must not throw.
   */
  onSecretEchoed?: (info: { operation: ArticleOperation; where: string }) => void;
}
