// The inter-process lock on the lock file, so two builds never create the same article; a dead holder's lock is taken over.
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock as acquireFileLock } from 'proper-lockfile';
import { LockBusyError, SyncAbortedError, SyncError } from './errors.js';

export interface ProcessLockOptions {
  /**
   * A lock whose holder has not refreshed it for this long is taken over: its holder died
   * (SIGKILL, power loss). The holder refreshes it every `staleMs / 2`. Default 10,000; min 2,000.
   */
  staleMs?: number;
  /** How long to wait for another build to release the lock before giving up. Default 600,000 (10 min). */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: () => void;
}

/** Handed to the critical section: call `assertHeld()` before a write that relies on the lock. */
export interface HeldLock {
  assertHeld(): void;
}

/**
 * Runs `fn` while holding the lock `<lockFile>.lock` (a directory, created atomically by
 * proper-lockfile). The lock file itself need not exist yet.
 */
export async function withProcessLock<T>(lockFile: string, fn: (held: HeldLock) => Promise<T>, options: ProcessLockOptions = {}): Promise<T> {
  // Callers in this process queue here and are woken the moment the lock is released, instead of
  // polling the lock directory like another process has to.
  const key = resolve(lockFile);
  const before = localQueues.get(key) ?? Promise.resolve();
  let leave!: () => void;
  const turn = new Promise<void>((done) => (leave = done));
  const queued = before.then(() => turn);
  localQueues.set(key, queued);
  try {
    await abortable(before, options.signal);
    return await withFileLock(lockFile, fn, options);
  } finally {
    leave();
    if (localQueues.get(key) === queued) localQueues.delete(key);
  }
}

const localQueues = new Map<string, Promise<void>>();

function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new SyncAbortedError());
  return new Promise<void>((resolvePromise, reject) => {
    const onAbort = (): void => reject(new SyncAbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolvePromise();
      },
      reject,
    );
  });
}

async function withFileLock<T>(lockFile: string, fn: (held: HeldLock) => Promise<T>, options: ProcessLockOptions): Promise<T> {
  const staleMs = Math.max(options.staleMs ?? 10_000, 2_000);
  const timeoutMs = options.timeoutMs ?? 600_000;
  const started = Date.now();
  let compromised: Error | undefined;
  let waited = false;
  let release: () => Promise<void>;
  for (;;) {
    if (options.signal?.aborted === true) throw new SyncAbortedError();
    try {
      release = await acquireFileLock(lockFile, {
        realpath: false,
        stale: staleMs,
        update: staleMs / 2,
        retries: 0,
        // The default throws from a timer, which would crash the build; we fail the next write instead.
        onCompromised: (error) => {
          compromised = error;
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() - started > timeoutMs) throw new LockBusyError(lockFile, Date.now() - started);
      if (!waited) {
        waited = true;
        options.onWait?.();
      }
      try {
        // Jitter, so waiting builds don't retry in lockstep.
        await sleep(50 + Math.floor(Math.random() * 200), undefined, { signal: options.signal });
      } catch {
        throw new SyncAbortedError();
      }
    }
  }
  const held: HeldLock = {
    assertHeld() {
      if (compromised !== undefined) {
        throw new SyncError(
          'lock_compromised',
          `The lock on ${lockFile} was taken over by another build (this process was unresponsive for longer than ${staleMs} ms). ` +
            'Nothing more was written; run the build again.',
          { cause: compromised },
        );
      }
    },
  };
  try {
    return await fn(held);
  } finally {
    if (compromised === undefined) await release().catch(() => undefined);
  }
}
