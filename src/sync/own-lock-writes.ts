// The lock file texts this process wrote, so the dev watch can tell another process's write (a CLI `approve` during a pass) from its own.
import { digestRegistry, textDigest } from './digest-registry.js';

/** Enough for every write a watch event can still be about: the event is read after the write, so it sees one of the latest. */
const written = digestRegistry('own-lock-writes', 32);

/** Called before a lock file write, so a watch event that reads the new text already knows it. */
export function noteOwnLockWrite(file: string, text: string): void {
  written.add(file, textDigest(text));
}

/** True when `text` is one this process wrote to `file` lately. */
export function isOwnLockWrite(file: string, text: string): boolean {
  return written.has(file, textDigest(text));
}
