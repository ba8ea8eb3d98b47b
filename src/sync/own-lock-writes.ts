// The lock file texts this process wrote, so the dev watch can tell another process's write (a CLI `approve` during a pass) from its own.
import { createHash } from 'node:crypto';

/** Enough for every write a watch event can still be about: the event is read after the write, so it sees one of the latest. */
const KEEP = 32;
const KEY = Symbol.for('astro-article-loader.own-lock-writes');

/** Per lock file, digests of the latest texts written by this process (one registry per process, whichever copy of the module). */
function registry(): Map<string, string[]> {
  const holder = globalThis as { [KEY]?: Map<string, string[]> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** Called before a lock file write, so a watch event that reads the new text already knows it. */
export function noteOwnLockWrite(file: string, text: string): void {
  const written = registry().get(file) ?? [];
  written.push(digest(text));
  if (written.length > KEEP) written.splice(0, written.length - KEEP);
  registry().set(file, written);
}

/** True when `text` is one this process wrote to `file` lately. */
export function isOwnLockWrite(file: string, text: string): boolean {
  return registry().get(file)?.includes(digest(text)) === true;
}
