// Every change a sync makes to the lock file: read-merge-write under the inter-process lock, written atomically, or appended to its journal.
import { stat } from 'node:fs/promises';
import { SyncError } from './errors.js';
import { orderedEntry, readLockFile, readLockFileState, serializeLockFile, type LockFile } from './lock-file.js';
import { writeFileAtomic } from './atomic-file.js';
import { JournalWriter, journalLine, journalPath, removeJournal, spentLine } from './lock-journal.js';
import { noteOwnLockWrite } from './own-lock-writes.js';
import { lockTextDigest } from './verified-locks.js';
import { withProcessLock, type HeldLock, type ProcessLockOptions } from './process-lock.js';

/** Changes `lock` in place; returns whether anything changed (nothing is written otherwise). */
export type LockMutation = (lock: LockFile) => boolean;

/**
 * A journal smaller than this is never folded in before the session closes; above it, once it is as large as the lock
 * file. Each fold writes the whole lock file, and the journal grew by as much since the last: the bytes written stay
 * linear in the articles recorded (docs/lock-file-and-cache.md, "Writes at scale").
 */
const JOURNAL_FOLD_MIN_BYTES = 1 << 20;

/** How long `close` waits for another build's lock before it leaves the journal as it is. */
const CLOSE_WAIT_MS = 5_000;

/**
 * The lock file as this session last read or wrote it, kept while the files on disk are still those (`stamp`): the next
 * change under the inter-process lock applies to it without reading and checking the whole file again.
 */
interface Own {
  lock: LockFile;
  /** Digest of the lock file's text on disk (`none`: no file); a journal is started on top of it. */
  base: string;
  lockBytes: number;
  /** The lock file's identity on disk (inode, size, times); `undefined` when there is none. */
  stamp: string | undefined;
  /** Slugs changed since the last write, journaled by the next one. */
  dirty: Set<string>;
  /** A change that named no slugs, or a journal this session did not write: the next write is a full one. */
  full: boolean;
  journal: JournalWriter | undefined;
  /** The `spent` tally as the lock file on disk and its journal hold it (JSON), so a changed tally is journaled too. */
  spent: string;
}

/**
 * While `exclusive` runs (the plan + create phase), this process holds the lock for its whole
 * duration: mutations apply to the in-memory copy and concurrent writes coalesce into one. At any
 * other time each `update` takes the lock, re-reads the file when another process wrote it since
 * this session did, applies the mutation and writes, so no build ever overwrites another's article ids.
 * A mutation that names its slugs is appended to the journal (lock-journal.ts); `close` folds it in.
 */
export class LockSession {
  readonly file: string;
  readonly #lockOptions: ProcessLockOptions;
  #exclusive: { own: Own; held: HeldLock } | undefined;
  #own: Own | undefined;
  #latest: LockFile | undefined;
  #requested = 0;
  #written = 0;
  #inflight: Promise<void> | undefined;
  #writes = 0;
  readonly #wholeWrites: boolean;

  /**
   * `wholeWrites`: every write is the whole lock file, never the journal. For a run that commits the lock file after each
   * write (autopilot's checkpoints): a commit of the lock file alone then holds every id, and a merge that changes the
   * lock file can never strand a journal.
   */
  constructor(file: string, lockOptions: ProcessLockOptions, options: { wholeWrites?: boolean } = {}) {
    this.file = file;
    this.#lockOptions = lockOptions;
    this.#wholeWrites = options.wholeWrites === true;
  }

  /** Lock file writes (whole or journaled) made through this session. */
  get writes(): number {
    return this.#writes;
  }

  /** The last state this session read or wrote. */
  get latest(): LockFile | undefined {
    return this.#exclusive?.own.lock ?? this.#latest;
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
        const own = await this.#load();
        this.#exclusive = { own, held };
        try {
          return await fn(own.lock);
        } finally {
          // Whatever was changed in memory reaches the disk before the lock is released, including
          // changes made while an earlier write was in flight.
          try {
            while (this.#inflight !== undefined || this.#written < this.#requested) {
              if (this.#inflight !== undefined) await this.#inflight;
              else await this.#flush();
            }
          } finally {
            this.#latest = own.lock;
            this.#exclusive = undefined;
          }
        }
      },
      this.#lockOptions,
    );
  }

  /**
   * Exclusive phase only: applies a mutation in memory without waiting; the next `flush` (or the
   * end of the phase) writes it, together with whatever else was staged meanwhile. `slugs` names the
   * entries it changes (they are journaled); without it the next write is a full one.
   */
  stage(mutate: LockMutation, slugs?: readonly string[]): void {
    if (this.#exclusive === undefined) throw new Error('LockSession.stage outside the exclusive phase');
    if (mutate(this.#exclusive.own.lock)) {
      this.#requested += 1;
      markDirty(this.#exclusive.own, slugs);
    }
  }

  /** Makes everything staged durable (exclusive phase; a no-op otherwise). */
  async flush(): Promise<void> {
    if (this.#exclusive !== undefined && (this.#written < this.#requested || this.#inflight !== undefined)) await this.#flush();
  }

  /** Applies a mutation and makes it durable before resolving; `slugs` as for `stage`. */
  async update(mutate: LockMutation, slugs?: readonly string[]): Promise<void> {
    const exclusive = this.#exclusive;
    if (exclusive !== undefined) {
      if (mutate(exclusive.own.lock)) {
        markDirty(exclusive.own, slugs);
        await this.#flush();
      }
      return;
    }
    await withProcessLock(
      this.file,
      async (held) => {
        const own = await this.#load();
        if (mutate(own.lock)) markDirty(own, slugs);
        if (own.full || own.dirty.size > 0) await this.#writeOwn(own, held);
        this.#latest = own.lock;
      },
      this.#lockOptions,
    );
  }

  /**
   * Folds this session's journal into the lock file, so the file is one document again (a no-op when it journaled
   * nothing). Also after Ctrl-C, so a stopped sync leaves one lock file to commit: the abort signal does not stop this
   * wait for the lock, which is short (another build holding the lock longer leaves the journal, read with the lock file).
   */
  async close(): Promise<void> {
    if (this.#own?.journal === undefined) return;
    const { signal: _ignored, ...options } = this.#lockOptions;
    await withProcessLock(
      this.file,
      async (held) => {
        const own = await this.#load();
        if (own.full || own.journal !== undefined) await this.#writeFull(own, held);
        this.#latest = own.lock;
      },
      { ...options, timeoutMs: Math.min(options.timeoutMs ?? CLOSE_WAIT_MS, CLOSE_WAIT_MS) },
    );
  }

  /** The lock file as this session left it when no other process wrote it since; else read (and checked) again. */
  async #load(): Promise<Own> {
    const kept = this.#own;
    if (kept !== undefined) {
      const [stamp, journal] = await Promise.all([stampOf(this.file), stat(journalPath(this.file)).catch(() => undefined)]);
      if (stamp === kept.stamp && (kept.journal === undefined ? journal === undefined : journal?.size === kept.journal.bytes)) return kept;
      await kept.journal?.close();
    }
    const [read, stamp] = await Promise.all([readLockFileState(this.file), stampOf(this.file)]);
    this.#own = { lock: read.lock, base: read.digest, lockBytes: read.bytes, stamp, dirty: new Set(), full: read.journal, journal: undefined, spent: spentText(read.lock) };
    return this.#own;
  }

  /** Writes the in-memory copy of the exclusive phase; concurrent callers share one write. */
  async #flush(): Promise<void> {
    const exclusive = this.#exclusive;
    if (exclusive === undefined) return;
    const want = ++this.#requested;
    while (this.#written < want) {
      if (this.#inflight === undefined) {
        const covering = this.#requested;
        this.#inflight = this.#writeOwn(exclusive.own, exclusive.held)
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

  /**
   * One write: the changed entries appended to the journal, or the whole lock file when a change named no slugs or the
   * journal has grown as large as the lock file (the journal is folded in and removed).
   */
  async #writeOwn(own: Own, held: HeldLock): Promise<void> {
    const fold = own.journal !== undefined && own.journal.bytes >= Math.max(JOURNAL_FOLD_MIN_BYTES, own.lockBytes);
    if (own.full || fold || this.#wholeWrites) return this.#writeFull(own, held);
    if (own.dirty.size === 0) return;
    held.assertHeld();
    // Serialized before the first await, so the lines are one consistent state.
    const slugs = [...own.dirty];
    own.dirty.clear();
    const spent = spentText(own.lock);
    const text = slugs.map((slug) => journalLine(slug, entryOf(own.lock, slug))).join('') + (spent === own.spent ? '' : spentLine(own.lock.spent));
    try {
      own.journal ??= await JournalWriter.start(this.file, own.base);
      await own.journal.append(text);
      own.spent = spent;
      this.#writes += 1;
    } catch (error) {
      for (const slug of slugs) own.dirty.add(slug);
      throw writeFailed(this.file, error);
    }
  }

  /** Writes the whole lock file, then removes the journal (everything it said is in the text now). */
  async #writeFull(own: Own, held: HeldLock): Promise<void> {
    held.assertHeld();
    // Serialized before the first await, so the bytes are one consistent state.
    const text = serializeLockFile(own.lock);
    const dirty = [...own.dirty];
    own.dirty.clear();
    own.full = false;
    noteOwnLockWrite(this.file, text);
    try {
      await writeFileAtomic(this.file, text);
      await own.journal?.close();
      own.journal = undefined;
      await removeJournal(this.file);
      own.stamp = await stampOf(this.file);
      this.#writes += 1;
    } catch (error) {
      own.full = true;
      for (const slug of dirty) own.dirty.add(slug);
      throw writeFailed(this.file, error);
    }
    own.base = lockTextDigest(text);
    own.lockBytes = Buffer.byteLength(text);
    own.spent = spentText(own.lock);
  }
}

function spentText(lock: LockFile): string {
  return JSON.stringify(lock.spent ?? null);
}

function markDirty(own: Own, slugs: readonly string[] | undefined): void {
  if (slugs === undefined) own.full = true;
  else for (const slug of slugs) own.dirty.add(slug);
}

function entryOf(lock: LockFile, slug: string): Record<string, unknown> | undefined {
  const entry = lock.articles[slug];
  return entry === undefined ? undefined : orderedEntry(entry);
}

/** The lock file's identity on disk: every atomic write renames a new file over it, so its inode and times change. */
async function stampOf(file: string): Promise<string | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function writeFailed(file: string, error: unknown): SyncError {
  return new SyncError(
    'lock_write_failed',
    `Could not write the lock file ${file}: ${(error as Error).message}. The previous version is intact; ` +
      'fix the cause (disk full, permissions) and run the build again.',
    { cause: error },
  );
}
