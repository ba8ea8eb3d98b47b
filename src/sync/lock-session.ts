// Every change a sync makes to the lock file: read-merge-write under the inter-process lock, written atomically.
import { SyncError } from './errors.js';
import { readLockFile, serializeLockFile, type LockFile } from './lock-file.js';
import { writeFileAtomic } from './atomic-file.js';
import { noteOwnLockWrite } from './own-lock-writes.js';
import { withProcessLock, type HeldLock, type ProcessLockOptions } from './process-lock.js';

/** Changes `lock` in place; returns whether anything changed (nothing is written otherwise). */
export type LockMutation = (lock: LockFile) => boolean;

/**
 * While `exclusive` runs (the plan + create phase), this process holds the lock for its whole
 * duration: mutations apply to the in-memory copy and concurrent writes coalesce into one. At any
 * other time each `update` takes the lock, re-reads the file (another build may have written it),
 * applies the mutation and writes, so no build ever overwrites another's article ids.
 */
export class LockSession {
  readonly file: string;
  readonly #lockOptions: ProcessLockOptions;
  #exclusive: { lock: LockFile; held: HeldLock } | undefined;
  #latest: LockFile | undefined;
  #requested = 0;
  #written = 0;
  #inflight: Promise<void> | undefined;
  #writes = 0;

  constructor(file: string, lockOptions: ProcessLockOptions) {
    this.file = file;
    this.#lockOptions = lockOptions;
  }

  /** Lock file writes made through this session. */
  get writes(): number {
    return this.#writes;
  }

  /** The last state this session read or wrote. */
  get latest(): LockFile | undefined {
    return this.#exclusive?.lock ?? this.#latest;
  }

  /** Reads the file without the inter-process lock (writes are atomic, so it is a consistent snapshot). */
  async snapshot(): Promise<LockFile> {
    this.#latest = await readLockFile(this.file);
    return this.#latest;
  }

  /** Runs `fn` holding the inter-process lock, with the freshly read lock file. */
  async exclusive<T>(fn: (lock: LockFile) => Promise<T>): Promise<T> {
    return withProcessLock(
      this.file,
      async (held) => {
        const lock = await readLockFile(this.file);
        this.#exclusive = { lock, held };
        try {
          return await fn(lock);
        } finally {
          // Whatever was changed in memory reaches the disk before the lock is released, including
          // changes made while an earlier write was in flight.
          try {
            while (this.#inflight !== undefined || this.#written < this.#requested) {
              if (this.#inflight !== undefined) await this.#inflight;
              else await this.#flush();
            }
          } finally {
            this.#latest = lock;
            this.#exclusive = undefined;
          }
        }
      },
      this.#lockOptions,
    );
  }

  /**
   * Exclusive phase only: applies a mutation in memory without waiting; the next `flush` (or the
   * end of the phase) writes it, together with whatever else was staged meanwhile.
   */
  stage(mutate: LockMutation): void {
    if (this.#exclusive === undefined) throw new Error('LockSession.stage outside the exclusive phase');
    if (mutate(this.#exclusive.lock)) this.#requested += 1;
  }

  /** Makes everything staged durable (exclusive phase; a no-op otherwise). */
  async flush(): Promise<void> {
    if (this.#exclusive !== undefined && (this.#written < this.#requested || this.#inflight !== undefined)) await this.#flush();
  }

  /** Applies a mutation and makes it durable before resolving. */
  async update(mutate: LockMutation): Promise<void> {
    if (this.#exclusive !== undefined) {
      if (mutate(this.#exclusive.lock)) await this.#flush();
      return;
    }
    await withProcessLock(
      this.file,
      async (held) => {
        const lock = await readLockFile(this.file);
        if (mutate(lock)) await this.#write(lock, held);
        this.#latest = lock;
      },
      this.#lockOptions,
    );
  }

  /** Writes the in-memory copy of the exclusive phase; concurrent callers share one write. */
  async #flush(): Promise<void> {
    const exclusive = this.#exclusive;
    if (exclusive === undefined) return;
    const want = ++this.#requested;
    while (this.#written < want) {
      if (this.#inflight === undefined) {
        const covering = this.#requested;
        this.#inflight = this.#write(exclusive.lock, exclusive.held)
          .then(() => {
            this.#written = Math.max(this.#written, covering);
          })
          .finally(() => {
            this.#inflight = undefined;
          });
      }
      await this.#inflight;
    }
  }

  async #write(lock: LockFile, held: HeldLock): Promise<void> {
    held.assertHeld();
    // Serialized before the first await, so the bytes are one consistent state.
    const text = serializeLockFile(lock);
    noteOwnLockWrite(this.file, text);
    try {
      await writeFileAtomic(this.file, text);
      this.#writes += 1;
    } catch (error) {
      throw new SyncError(
        'lock_write_failed',
        `Could not write the lock file ${this.file}: ${(error as Error).message}. The previous version is intact; ` +
          'fix the cause (disk full, permissions) and run the build again.',
        { cause: error },
      );
    }
  }
}
