// Lock file texts known to pass the integrity checks (duplicate keys, request hashes): each read of a lock file checks its
// text once per process, and a caller may vouch for a text checked by an earlier process of the same version (the loader
// keeps the one its last build checked, loader/lock-memo.ts). The checks are a function of the text alone, so the same
// text passes them again; a text changed by one byte is checked in full.
import { digestRegistry, textDigest } from './digest-registry.js';

const verified = digestRegistry('verified-locks', 4);

export { textDigest as lockTextDigest };

/** Whether the lock text with this digest passed the integrity checks as the lock file `file`. */
export function isVerifiedLock(file: string, digest: string): boolean {
  return verified.has(file, digest);
}

/** Records that the lock text with this digest passed the integrity checks as `file` (or was vouched for). */
export function noteVerifiedLock(file: string, digest: string): void {
  verified.add(file, digest);
}

/** The digest of the last text of `file` that passed the checks in this process, if any. */
export function lastVerifiedLock(file: string): string | undefined {
  return verified.list(file).at(-1);
}
