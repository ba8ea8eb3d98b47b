// Entry points of the manifest reader: a file by its extension, text already read, or the loader's inline `articles` option.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from './article-spec.js';
import { readCsvManifest } from './csv-manifest.js';
import { readJsonManifest } from './json-manifest.js';
import { inlineDocument, type ManifestDocument } from './manifest-document.js';
import { ManifestError, type ManifestProblem } from './manifest-error.js';
import { resolveManifestDocument } from './resolve-manifest.js';
import { readYamlManifest } from './yaml-manifest.js';

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

function tooLarge(file: string, bytes: number): ManifestError {
  const mib = (bytes / 1024 / 1024).toFixed(1);
  return fileProblem(file, `is ${mib} MiB, over the ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB limit; is it the right file? Split the keywords over several manifests if it is`);
}

// Spreadsheet exports come as UTF-8, UTF-8 with a BOM, or UTF-16 with a BOM (Excel "Unicode text", Google Keyword Planner).
function decode(bytes: Buffer, file: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(bytes);
    const line = lossy.slice(0, lossy.indexOf('\uFFFD')).split('\n').length;
    throw fileProblem(file, 'is not UTF-8 text; save it as UTF-8 (in Excel: "CSV UTF-8")', { line });
  }
}

/**
 * Reads and validates the manifest at `file` (`.yaml`, `.yml`, `.json` or `.csv`). `Manifest.file`
 * is the absolute path. Throws a `ManifestError` (code `invalid_manifest`) listing every problem.
 */
export async function loadManifest(file: string): Promise<Manifest> {
  const absolute = path.resolve(file);
  readerFor(absolute);
  let size: number;
  try {
    const stats = await stat(absolute);
    if (stats.isDirectory()) throw fileProblem(absolute, 'is a directory; point at a .yaml, .yml, .json or .csv file');
    size = stats.size;
  } catch (error) {
    throw error instanceof ManifestError ? error : unreadable(absolute, error);
  }
  if (size > MAX_MANIFEST_BYTES) throw tooLarge(absolute, size);
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    throw unreadable(absolute, error);
  }
  return parseManifest(decode(bytes, absolute), absolute);
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
