// What one run shares between its steps: the one record of each article's outcome, why the run stopped, and its events.
import type { LockEntryError } from './lock-file.js';
import type { SyncEvent, SyncOutcome } from './result-shape.js';

export interface RecordedOutcome {
  outcome: SyncOutcome;
  error?: LockEntryError;
}

/** The error of something thrown, as a lock entry keeps it. */
export function entryErrorOf(error: unknown): LockEntryError {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'error', message: error.message };
  }
  return { code: 'error', message: String(error) };
}

/**
 * The state every step of a run reads and writes: each article's outcome as it is decided (one
 * record, read to build the result), the error that stops the run (`fatal`), whether the service
 * stopped answering (`unreachable`), and the events.
 */
export class RunState {
  readonly #outcomes = new Map<string, RecordedOutcome>();
  readonly #onEvent: ((event: SyncEvent) => void) | undefined;
  readonly #signal: AbortSignal | undefined;
  /** An error no article would escape (a rejected key, no credits): creates stop and the run throws it. */
  fatal: unknown;
  /** The client stopped asking the service: nothing more is sent this run. */
  unreachable: LockEntryError | undefined;
  /** Slugs this run created: only these are billed to it. */
  readonly created = new Set<string>();
  /** Estimated words of the articles created. */
  createdWords = 0;

  constructor(onEvent: ((event: SyncEvent) => void) | undefined, signal: AbortSignal | undefined) {
    this.#onEvent = onEvent;
    this.#signal = signal;
  }

  /** A function, not a narrowed property: the signal changes between awaits. */
  aborted(): boolean {
    return this.#signal?.aborted === true;
  }

  /** Nothing more should be started: aborted, a fatal error, or an unreachable service. */
  stopped(): boolean {
    return this.aborted() || this.fatal !== undefined || this.unreachable !== undefined;
  }

  emit(event: SyncEvent): void {
    try {
      this.#onEvent?.(event);
    } catch {
      // A listener's bug must not leave the lock file half-updated.
    }
  }

  record(slug: string, outcome: SyncOutcome, error?: LockEntryError): void {
    this.#outcomes.set(slug, error === undefined ? { outcome } : { outcome, error });
  }

  fail(slug: string, error: LockEntryError, articleId?: string): void {
    this.record(slug, 'failed', error);
    this.emit({ type: 'failed', slug, ...(articleId === undefined ? {} : { articleId }), error });
  }

  outcome(slug: string): RecordedOutcome | undefined {
    return this.#outcomes.get(slug);
  }
}
