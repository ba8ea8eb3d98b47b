// Small files the loader keeps in Astro's cache directory (node_modules/.astro/astro-article-loader/) about what its last
// build checked: the manifest it resolved (manifest-memo.ts) and the lock text it verified (lock-memo.ts). They go when the
// data store goes. Best effort both ways: an unreadable note is a miss, and one that cannot be written is skipped (the next
// build does the work again), never a failed build.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../sync/atomic-file.js';

/** The note `kind` of `collection` in `dir`, e.g. `manifest-articles.bin`. */
export function noteFile(dir: string, kind: string, collection: string, extension: string): string {
  return join(dir, `${kind}-${encodeURIComponent(collection)}.${extension}`);
}

/** The note's content as `decode` reads its bytes, when it is an object; undefined when missing, unreadable or damaged. */
export async function readNote<T>(file: string, decode: (bytes: Buffer) => unknown): Promise<Partial<T> | undefined> {
  try {
    const value = decode(await readFile(file));
    return value !== null && typeof value === 'object' ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the note (atomically); a write that fails is skipped. */
export async function writeNote(file: string, bytes: string | Uint8Array): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, bytes, { durable: false });
  } catch {
    // A read-only or full cache directory: the next build checks again.
  }
}
