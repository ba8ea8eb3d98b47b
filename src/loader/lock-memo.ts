// The lock file text the last pass of this collection checked (its digest), kept as a build note (build-notes.ts) in
// node_modules/.astro/astro-article-loader/lock-<collection>.json: a warm build whose lock file is unchanged does not check
// its duplicate keys and request hashes again (the largest part left of a 1,000-article warm build's load()). Another
// package version, another lock file or a damaged note vouch for nothing.
import { lastVerifiedLock, noteVerifiedLock } from '../sync/index.js';
import { noteFile, readNote, writeNote } from './build-notes.js';
import { PACKAGE_VERSION } from '../lang/package-version.js';

interface Kept {
  version: string;
  lockFile: string;
  digest: string;
}

export interface LockMemo {
  /** Vouches for the text the last pass checked, before this pass reads the lock file. */
  trust(): Promise<void>;
  /** Keeps the text this pass checked last, when it is another. */
  keep(): Promise<void>;
}

/** The memo of `collection`'s lock file `lockFile`, in `dir` (the loader's directory in Astro's cache). */
export function lockMemo(dir: string, collection: string, lockFile: string): LockMemo {
  const file = noteFile(dir, 'lock', collection, 'json');
  let trusted: string | undefined;
  return {
    async trust() {
      const kept = await readNote<Kept>(file, (bytes) => JSON.parse(bytes.toString('utf8')));
      if (kept?.version !== PACKAGE_VERSION || kept.lockFile !== lockFile || typeof kept.digest !== 'string') return;
      trusted = kept.digest;
      noteVerifiedLock(lockFile, kept.digest);
    },
    async keep() {
      const digest = lastVerifiedLock(lockFile);
      if (digest === undefined || digest === trusted) return;
      await writeNote(file, JSON.stringify({ version: PACKAGE_VERSION, lockFile, digest } satisfies Kept));
      trusted = digest;
    },
  };
}
