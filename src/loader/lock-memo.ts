// The lock file text the last pass of this collection checked (its digest), kept in the committed cache (the keyed store
// articles.cache/lock-checks/, one small file per collection, replaced when the lock text changes): a build whose lock file
// is the one checked last does not check its duplicate keys and request hashes again. That is a warm build, and a cold one
// too (CI, a fresh clone) when the commit did not change the lock file: about 0.25 s of a 10,000-article cold-store load()
// (0.40 s to 0.15 s in a CPU profile, docs/builds.md). A
// text changed by one byte (an edit, a merge) has another digest and is checked in full; another package version, or a
// damaged file (the keyed store checks its own hash), vouches for nothing.
import { lastVerifiedLock, noteVerifiedLock, type KeyedStore } from '../sync/index.js';
import { PACKAGE_VERSION } from '../lang/package-version.js';

/** The committed cache's subdirectory (a keyed store: `verify` checks it, `prune` keeps it). */
export const LOCK_CHECKS_STORE = 'lock-checks';

interface Kept {
  version: string;
  digest: string;
}

export interface LockMemo {
  /** Vouches for the text the last pass checked, before this pass reads the lock file. */
  trust(): Promise<void>;
  /** Keeps the text this pass checked last, when it is another. */
  keep(): Promise<void>;
}

/** The memo of `collection`'s lock file `lockFile`, in `store` (the cache's `lock-checks/`). */
export function lockMemo(store: KeyedStore, collection: string, lockFile: string): LockMemo {
  let trusted: string | undefined;
  return {
    async trust() {
      const kept = (await store.get(collection)) as Partial<Kept> | undefined;
      if (kept?.version !== PACKAGE_VERSION || typeof kept.digest !== 'string') return;
      trusted = kept.digest;
      noteVerifiedLock(lockFile, kept.digest);
    },
    async keep() {
      const digest = lastVerifiedLock(lockFile);
      if (digest === undefined || digest === trusted) return;
      try {
        await store.set(collection, { version: PACKAGE_VERSION, digest } satisfies Kept);
        trusted = digest;
      } catch {
        // A read-only cache directory: the next build checks again.
      }
    },
  };
}
