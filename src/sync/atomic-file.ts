// The money room's files on disk: crash-safe replacement (a reader sees the old bytes or the new bytes, never a torn file), and reads where a missing file is no error.
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';

/**
 * Writes `data` to `file` atomically: a temp file in the same directory (so the rename stays on
 * one file system), fsync, rename over the target, then fsync the directory so the rename itself
 * survives a power loss. `durable: false` skips both fsyncs: still atomic for a killed process
 * (the page cache outlives it), for files whose damage after a power loss is detected on read.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  const durable = options.durable !== false;
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o644);
  try {
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (durable) await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) and file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

/** Leftover temp files of `writeFileAtomic` (from a process killed mid-write) in `dir` for `name`. */
export function isAtomicTempFile(fileName: string): boolean {
  return fileName.startsWith('.') && fileName.endsWith('.tmp');
}

/** The names in a cache directory, sorted; none when it does not exist yet. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * The files under `dir`, as paths relative to it with `/` between folders, sorted; none when it does not exist.
 * A translation's id is nested (`de/pour-over-kaffee`), and so are its files (`articles.edits/de/pour-over-kaffee.html`).
 */
export async function listTree(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** A file's bytes (or text, with an encoding); `undefined` when there is no such file. Other errors are thrown. */
export async function readIfPresent(file: string): Promise<Buffer | undefined>;
export async function readIfPresent(file: string, encoding: 'utf8'): Promise<string | undefined>;
export async function readIfPresent(file: string, encoding?: 'utf8'): Promise<Buffer | string | undefined> {
  try {
    return encoding === undefined ? await readFile(file) : await readFile(file, encoding);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
