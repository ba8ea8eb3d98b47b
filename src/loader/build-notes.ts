// Small files the loader keeps in Astro's cache directory (node_modules/.astro/astro-article-loader/) about what its last
// build checked: the manifest it resolved (manifest-memo.ts) and the entries' findings (findings-book.ts). They go when the
// data store goes. Best effort both ways: an unreadable note is a miss, and one that cannot be written is skipped (the next
// build does the work again), never a failed build.
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DefaultSerializer } from 'node:v8';
import { writeFileAtomic } from '../sync/atomic-file.js';

/** The note `kind` of `collection` in `dir`, e.g. `manifest-articles.bin`. */
export function noteFile(dir: string, kind: string, collection: string, extension: string): string {
  return join(dir, `${kind}-${encodeURIComponent(collection)}.${extension}`);
}

/**
 * The note's content as `decode` reads its bytes after `head`; undefined when it is missing, unreadable or damaged, or does
 * not start with `head`. A head is the note's first line, naming what it was kept for: only those bytes are read from a
 * note kept for something else (the manifest memo of a 10,000-entry site is 8.6 MB, which took about 150 ms to decode only to
 * find its digest stale).
 */
export async function readNote<T>(file: string, decode: (bytes: Buffer) => unknown, head = ''): Promise<Partial<T> | undefined> {
  try {
    const bytes = await bytesAfter(file, Buffer.from(head));
    const value = bytes === undefined ? undefined : decode(bytes);
    return value !== null && typeof value === 'object' ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** The file's bytes after `expected`, or undefined when it does not start with them; one open, and only those bytes read of a file that does not. */
async function bytesAfter(file: string, expected: Buffer): Promise<Buffer | undefined> {
  const handle = await open(file, 'r');
  try {
    const start = Buffer.alloc(expected.length);
    // From the file's current position (its start), which the read moves on: readFile then reads the rest.
    const { bytesRead } = await handle.read(start, 0, expected.length, null);
    if (bytesRead !== expected.length || !start.equals(expected)) return undefined;
    return await handle.readFile();
  } finally {
    await handle.close();
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

/**
 * `head`, then `value` as `v8.serialize` writes it, in one buffer (what `readNote(file, deserialize, head)` reads back).
 * Written into the serializer's own buffer: joining the two after copied the whole note (16 MB of findings at 10,000
 * articles), and that copy took about 0.2 s of a build's load().
 */
export function serializedNote(head: string, value: unknown): Buffer {
  const serializer = new DefaultSerializer();
  serializer.writeRawBytes(Buffer.from(head));
  serializer.writeHeader();
  serializer.writeValue(value);
  return serializer.releaseBuffer();
}
