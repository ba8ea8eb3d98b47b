// Entry points of the manifest reader: a file by its extension, text already read, or the loader's inline `articles` option.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from './article-spec.js';
import { readCsvManifest } from './csv-manifest.js';
import { readJsonManifest } from './json-manifest.js';
import { decodeManifest } from './manifest-encoding.js';
import { inlineDocument, type ManifestDocument } from './manifest-document.js';
import { ManifestError, type ManifestProblem } from './manifest-error.js';
import { frozenRequests, resolveManifestDocument } from './resolve-manifest.js';
import { readYamlManifest } from './yaml-manifest.js';
import { countParse } from '../lang/parse-counts.js';

/**
 * Which rules resolved a kept manifest, beside the package version the memo's note names: a checkout that changes how the
 * same bytes resolve (2: slugs per script, with former slugs) must not take a note its earlier build kept.
 */
const RESOLUTION = 'resolution 2\0';

/** The largest manifest read: 5 MiB holds tens of thousands of keywords; more is a wrong file, not a manifest. */
export const MAX_MANIFEST_BYTES = 5 * 1024 * 1024;

const READERS: Readonly<Record<string, (text: string, file: string) => ManifestDocument>> = {
  '.yaml': readYamlManifest,
  '.yml': readYamlManifest,
  '.json': readJsonManifest,
  '.csv': readCsvManifest,
};
/** File extensions a manifest may have; the format follows from it. */
export const MANIFEST_EXTENSIONS: readonly string[] = Object.keys(READERS);

const EMPTY_ADVICE: Readonly<Record<string, string>> = {
  '.yaml': 'write `articles:` and below it one keyword per line, like `  - best running shoes`',
  '.yml': 'write `articles:` and below it one keyword per line, like `  - best running shoes`',
  '.json': 'write {"articles": ["best running shoes"]}',
  '.csv': 'write a header row (`keyword`, then any request parameters) and one keyword per row',
};

function fileProblem(file: string, message: string, extra: Partial<ManifestProblem> = {}, cause?: unknown): ManifestError {
  return new ManifestError(file, [{ file, section: 'file', message, ...extra }], cause === undefined ? undefined : { cause });
}

function unreadable(file: string, error: unknown): ManifestError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return fileProblem(file, 'does not exist; create it, or check the path given to the loader', {}, error);
  return fileProblem(file, `cannot be read (${code ?? String(error)}); check that it is a file you may read`, {}, error);
}

function readerFor(file: string) {
  const extension = path.extname(file).toLowerCase();
  const reader = READERS[extension];
  if (reader) return { extension, reader };
  const got = extension === '' ? 'has no file extension' : `has the extension "${extension}"`;
  throw fileProblem(file, `${got}; a manifest is .yaml, .yml, .json or .csv, and the extension says which`);
}

/** `bytes` undefined: reading stopped at the limit, so the real size is unknown (a file still being written). */
function tooLarge(file: string, bytes: number | undefined): ManifestError {
  const size = bytes === undefined ? 'grew while it was read and is' : `is ${(bytes / 1024 / 1024).toFixed(1)} MiB,`;
  return fileProblem(file, `${size} over the ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB limit; is it the right file? Split the keywords over several manifests if it is`);
}

const NOT_A_FILE = 'is not a regular file (a device, a pipe or a socket); point at a .yaml, .yml, .json or .csv file';

// Opening a FIFO for reading blocks until a writer appears; O_NONBLOCK makes open() return at once so fstat can refuse it. (Windows has no such flag, and no FIFOs to open.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const READ_CHUNK = 64 * 1024;

/**
 * Reads from `handle` until its end or until more than `limit` bytes have come, so at most
 * `limit + 1` bytes: stat().size says nothing for devices and goes stale for a file still being written.
 */
export async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= limit) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, limit + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/**
 * Where a caller keeps the manifests it resolved between runs (the loader keeps the last one beside Astro's data store:
 * loader/manifest-memo.ts), under the digest of the file's path and bytes: the same digest, the same manifest.
 */
export interface ManifestMemo {
  get(digest: string): Promise<Manifest | undefined>;
  set(digest: string, manifest: Manifest): Promise<void>;
}

/**
 * Reads and validates the manifest at `file` (`.yaml`, `.yml`, `.json` or `.csv`). `Manifest.file`
 * is the absolute path. Throws a `ManifestError` (code `invalid_manifest`) listing every problem.
 * With a `memo`, a file whose path and bytes are those of a manifest the memo kept is not parsed again
 * (only a valid manifest is kept, so a file with a problem is always read and reported).
 */
export async function loadManifest(file: string, memo?: ManifestMemo): Promise<Manifest> {
  const absolute = path.resolve(file);
  readerFor(absolute);
  const bytes = await readManifestBytes(absolute);
  const digest = memo === undefined ? undefined : createHash('sha256').update(RESOLUTION).update(absolute).update('\0').update(bytes).digest('hex');
  const kept = digest === undefined ? undefined : await memo!.get(digest);
  if (kept !== undefined) return frozenRequests(kept);
  const decoded = decodeManifest(bytes, absolute);
  if ('problem' in decoded) throw fileProblem(absolute, decoded.problem.message, decoded.problem.line === undefined ? {} : { line: decoded.problem.line });
  const manifest = parseManifest(decoded.text, absolute);
  countParse('manifest', absolute);
  if (digest !== undefined) await memo!.set(digest, manifest);
  return manifest;
}

/** The manifest's bytes, refused when it is not a regular file or is over the limit. */
async function readManifestBytes(file: string): Promise<Buffer> {
  let handle: FileHandle | undefined;
  try {
    // stat() first: it names a directory or a device without opening it (opening a socket fails with a bare ENXIO).
    refuseUnlessRegular(file, await stat(file));
    handle = await open(file, OPEN_FLAGS);
    // Again on what was opened: the path may have been replaced in between.
    const stats = await handle.stat();
    refuseUnlessRegular(file, stats);
    if (stats.size > MAX_MANIFEST_BYTES) throw tooLarge(file, stats.size);
    const bytes = await readAtMost(handle, MAX_MANIFEST_BYTES);
    if (bytes.length > MAX_MANIFEST_BYTES) throw tooLarge(file, undefined);
    return bytes;
  } catch (error) {
    throw error instanceof ManifestError ? error : unreadable(file, error);
  } finally {
    await handle?.close();
  }
}

function refuseUnlessRegular(file: string, stats: { isFile(): boolean; isDirectory(): boolean }): void {
  if (stats.isDirectory()) throw fileProblem(file, 'is a directory; point at a .yaml, .yml, .json or .csv file');
  if (!stats.isFile()) throw fileProblem(file, NOT_A_FILE);
}

/**
 * Validates manifest text; `file` names it in messages and chooses the format by its extension.
 * A leading BOM and CRLF line endings are accepted.
 */
export function parseManifest(text: string, file: string): Manifest {
  const { extension, reader } = readerFor(file);
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > MAX_MANIFEST_BYTES) throw tooLarge(file, bytes);
  if (source.trim() === '') throw fileProblem(file, `is empty; ${EMPTY_ADVICE[extension]}`);
  if (source.includes('\0')) throw fileProblem(file, 'contains NUL bytes, so it is not a text file; is it the right file?');
  return resolveManifestDocument(reader(source, file), file);
}

/**
 * Validates the loader's inline manifest, `{ defaults?, articles }`, given in code instead of a
 * file. `origin` names it in messages where a file name would go, e.g.
 * "astro content config (articles option)".
 */
export function resolveInlineManifest(input: { defaults?: object; articles: unknown[] }, origin: string): Manifest {
  return resolveManifestDocument(inlineDocument(input), origin);
}
