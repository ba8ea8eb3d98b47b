// The lock file text the last pass of this collection checked (its digest), kept in Astro's cache directory beside the data
// store (node_modules/.astro/astro-article-loader/lock-<collection>.json): a warm build whose lock file is unchanged does not
// check its duplicate keys and request hashes again (the largest part left of a 1,000-article warm build's load()). It goes
// when the data store goes; another package version, another lock file or a damaged file vouch for nothing.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lastVerifiedLock, noteVerifiedLock } from '../sync/index.js';
import { writeFileAtomic } from '../sync/atomic-file.js';
import { PACKAGE_VERSION } from './entry-inputs.js';

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
  const file = join(dir, `lock-${encodeURIComponent(collection)}.json`);
  let trusted: string | undefined;
  return {
    async trust() {
      const kept = await readKept(file);
      if (kept?.version !== PACKAGE_VERSION || kept.lockFile !== lockFile || typeof kept.digest !== 'string') return;
      trusted = kept.digest;
      noteVerifiedLock(lockFile, kept.digest);
    },
    async keep() {
      const digest = lastVerifiedLock(lockFile);
      if (digest === undefined || digest === trusted) return;
      const kept: Kept = { version: PACKAGE_VERSION, lockFile, digest };
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomic(file, JSON.stringify(kept), { durable: false });
      trusted = digest;
    },
  };
}

async function readKept(file: string): Promise<Partial<Kept> | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return value !== null && typeof value === 'object' ? (value as Partial<Kept>) : undefined;
  } catch {
    return undefined;
  }
}
