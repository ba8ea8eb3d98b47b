// Articles the poll loop saw finish or fail, written to the lock file in batches.
import type { BilledWords } from './billed-words.js';
import type { LockEntryError, LockFile } from './lock-file.js';
import type { LockSession } from './lock-session.js';
import type { RunState } from './run-record.js';
import { approvedPrevious } from './lock-entry-records.js';
import { nowIso } from '../lang/now-iso.js';
import { addSettledWords } from './month-spend.js';
import { recordedWords } from './billed-words.js';

/** One article that reached an end state on the service. */
export type Settled =
  | { kind: 'finished'; slug: string; articleId: string; output: string; billed: BilledWords | undefined; fetched: boolean }
  | { kind: 'failed'; slug: string; articleId: string; error: LockEntryError; fetched: boolean };

/**
 * Queues settled articles and writes them under the inter-process lock, one write at a time. A
 * batch is taken when its write starts, not when it was queued: every article that settled while
 * the previous write held the lock joins it, so N articles finishing together cost a few lock
 * cycles and writes instead of N, one after another.
 */
export class SettledWrites {
  readonly #session: LockSession;
  readonly #state: RunState;
  readonly #queue: Settled[] = [];
  #writing: Promise<void> = Promise.resolve();

  constructor(session: LockSession, state: RunState) {
    this.#session = session;
    this.#state = state;
  }

  push(settled: Settled): void {
    this.#queue.push(settled);
  }

  /** Writes what is queued (after any write in flight); resolves when it is durable. */
  flush(): Promise<void> {
    if (this.#queue.length === 0) return this.#writing;
    this.#writing = this.#writing.then(async () => {
      const batch = this.#queue.splice(0);
      if (batch.length === 0) return;
      await this.#session.update(
        (lock) => batch.reduce((changed, settled) => applySettled(lock, settled) || changed, false),
        batch.map((settled) => settled.slug),
      );
      for (const settled of batch) this.#report(settled);
    });
    return this.#writing;
  }

  #report(settled: Settled): void {
    if (settled.kind === 'failed') {
      this.#state.fail(settled.slug, settled.error, settled.articleId);
      return;
    }
    const type = settled.fetched ? 'fetched' : 'finished';
    this.#state.record(settled.slug, type);
    this.#state.emit({ type, slug: settled.slug, articleId: settled.articleId });
  }
}

/** Settles one article in the lock; false when there was nothing to change. */
function applySettled(lock: LockFile, settled: Settled): boolean {
  const entry = lock.articles[settled.slug];
  // Another build may have moved this slug to a new article meanwhile: only settle the one we polled.
  if (entry === undefined || entry.articleId !== settled.articleId) return false;
  if (settled.kind === 'failed') {
    if (entry.status === 'failed') return false;
    lock.articles[settled.slug] = { ...entry, status: 'failed', error: settled.error, updatedAt: nowIso() };
    return true;
  }
  // Recorded once, when first seen finished: a later edit in the writing tool changes the HTML, not the bill.
  const billed = entry.words === undefined ? settled.billed : undefined;
  if (entry.status === 'finished' && entry.output === settled.output && billed === undefined) return false;
  const { previous: _dropped, error: _cleared, ...rest } = entry;
  const kept = approvedPrevious({ ...entry, output: settled.output });
  lock.articles[settled.slug] = { ...rest, ...(kept === undefined ? {} : { previous: kept }), status: 'finished', output: settled.output, finishedAt: entry.finishedAt ?? nowIso(), updatedAt: nowIso(), ...billed };
  addSettledWords(lock, entry, billed === undefined ? undefined : recordedWords(billed));
  return true;
}
