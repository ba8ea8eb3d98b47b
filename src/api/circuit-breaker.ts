// After several attempts in a row time out or cannot connect, the client stops asking: a build must not wait on a silent service.
import type { AttemptFailure } from './attempt-failure.js';

/** Consecutive timeouts or refused connections before the client stops asking. */
export const DEFAULT_UNREACHABLE_AFTER = 3;

/**
 * Counts consecutive attempts that got no answer at all: a timeout, or a connection that could not
 * be made (refused, no such host, connect timeout, TLS failure). Any answer from the service (even
 * a 500 or a 429) resets the count. Once open, it stays open for the client's life: the build serves
 * what the lock file and the cache have instead of waiting on each request in turn.
 */
export class CircuitBreaker {
  readonly threshold: number;
  #consecutive = 0;
  #opened: { detail: string; count: number } | undefined;

  constructor(threshold = DEFAULT_UNREACHABLE_AFTER) {
    this.threshold = threshold;
  }

  /** Why the client stopped asking, once it has. */
  get open(): { detail: string; count: number } | undefined {
    return this.#opened;
  }

  /** Records the outcome of one attempt: `undefined` for an answer that succeeded. */
  record(failure: AttemptFailure | undefined): void {
    if (failure === undefined || failure.kind === 'status' || failure.kind === 'unreadable' || failure.kind === 'schema') {
      this.#consecutive = 0;
      return;
    }
    const noAnswer = failure.kind === 'timeout' || (failure.kind === 'network' && !failure.maybeSent);
    if (!noAnswer) return;
    this.#consecutive += 1;
    if (this.#consecutive >= this.threshold) this.#opened ??= { detail: failure.detail, count: this.#consecutive };
  }
}
