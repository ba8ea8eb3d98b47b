// Processed articles in the committed cache (articles.cache/processed/<slug>.json.gz): what the pipeline made of each
// article, so a build with a cold Astro data store (CI, a fresh clone) does not run the pipeline again.
//
// One gzip file per article, replaced when its key changes: the directory holds one record per article whatever the
// history, and a one-article change rewrites one file. gzip's CRC catches a damaged file; a record whose key differs
// (another output, other pipeline settings, another link map, another package version) is a miss. The key is made by
// the loader (`loader/processed-entries.ts`); this store only keeps and checks records.
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzipSync, gzip } from 'node:zlib';
import { z } from 'zod';
import { isAtomicTempFile, listTree, writeFileAtomic } from './atomic-file.js';
import type { LockFile } from './lock-file.js';

export const PROCESSED_DIR_NAME = 'processed';
const gzipAsync = promisify(gzip);
/** `<slug>.json.gz`; a slug is one safe path segment (see manifest/slug.ts), and the record names its slug too. */
const FILE_NAME = /^((?:[^./\\][^/\\]*\/)*[^./\\][^/\\]*)\.json\.gz$/u;

/** A record: the slug and output it was made for, its key, and the loader's value. */
const envelopeSchema = z.strictObject({ slug: z.string(), output: z.string(), key: z.string(), value: z.unknown() });
type Envelope = z.infer<typeof envelopeSchema>;

export interface ProcessedProblem {
  /**
   * - `invalid_file`: damaged (gzip CRC, JSON) or not a processed record: the next build processes the article again.
   * - `temp_file`: left over from an interrupted write.
   * - `unreferenced_file`: for a slug that is not in the lock file (`prune` removes it). A warning.
   * - `stale_file`: made from an output the lock file no longer names (the next build replaces it). A warning.
   */
  code: 'invalid_file' | 'temp_file' | 'unreferenced_file' | 'stale_file';
  file: string;
  slug?: string;
  message: string;
  severity: 'error' | 'warning';
}

export class ProcessedStore {
  /** The cache directory (articles.cache/), and the processed directory in it. */
  readonly cacheDir: string;
  readonly dir: string;
  #onDamaged: ((file: string) => void) | undefined;

  constructor(cacheDir: string, options: { onDamaged?: (file: string) => void } = {}) {
    this.cacheDir = cacheDir;
    this.dir = join(cacheDir, PROCESSED_DIR_NAME);
    this.#onDamaged = options.onDamaged;
  }

  file(slug: string): string {
    return join(this.dir, `${slug}.json.gz`);
  }

  /** The value stored for `slug` under `key`; undefined when there is none, it has another key, or the file is damaged. */
  async get(slug: string, key: string): Promise<unknown> {
    const envelope = this.#read(this.file(slug));
    if (envelope === 'missing') return undefined;
    if (envelope === 'damaged') {
      this.#onDamaged?.(this.file(slug));
      return undefined;
    }
    return envelope.slug === slug && envelope.key === key ? envelope.value : undefined;
  }

  /** The record of `slug` whatever its key, with the output it was made from and its key (`check` reads what the last build made); undefined when there is none or it is damaged. */
  async latest(slug: string): Promise<{ output: string; key: string; value: unknown } | undefined> {
    return this.latestNow(slug);
  }

  /** `latest`, read synchronously: `check` reads a record again inside the near-duplicate pass rather than hold every article's HTML. */
  latestNow(slug: string): { output: string; key: string; value: unknown } | undefined {
    const envelope = this.#read(this.file(slug));
    return typeof envelope === 'object' && envelope.slug === slug ? { output: envelope.output, key: envelope.key, value: envelope.value } : undefined;
  }

  /** Replaces the record of `slug` (atomically: a reader sees the old record or the new one). */
  async set(slug: string, record: { output: string; key: string; value: unknown }): Promise<void> {
    const bytes = await gzipAsync(recordJson({ slug, output: record.output, key: record.key, value: record.value }), { level: 6 });
    // A translation's record is nested: `processed/de/pour-over-kaffee.json.gz`.
    await mkdir(dirname(this.file(slug)), { recursive: true });
    await writeFileAtomic(this.file(slug), bytes, { durable: false });
  }

  /**
   * Reads the records of `slugs` ahead, on a thread of its own, into the operating system's page cache only: the reads
   * of `get` stay on the loader's thread (thread-pool reads cost it more than they saved), and find the files there
   * instead of waiting on the disk. For a pass that reads most of its records (a cold data store). `done` says how many
   * files it read (undefined when it was stopped first or could not run); `stop` stops it.
   */
  readAhead(slugs: readonly string[]): { done: Promise<number | undefined>; stop: () => void } {
    const worker = new Worker(new URL('./read-ahead-worker.js', import.meta.url), { workerData: { files: slugs.map((slug) => this.file(slug)) } });
    worker.unref();
    // Best effort: a thread that cannot start or fails leaves the reads as they were.
    const done = new Promise<number | undefined>((resolve) => {
      worker.once('message', (message: { read: number }) => resolve(message.read));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    });
    return { done, stop: () => void worker.terminate() };
  }

  /** Records for slugs the lock file does not have, and leftovers of interrupted writes. */
  async unreferenced(lock: LockFile): Promise<string[]> {
    const files: string[] = [];
    for (const name of await listTree(this.dir)) {
      const slug = FILE_NAME.exec(name)?.[1];
      if (isAtomicTempFile(basename(name)) || (slug !== undefined && lock.articles[slug] === undefined)) files.push(join(this.dir, name));
    }
    return files;
  }

  async prune(lock: LockFile, options: { dryRun?: boolean } = {}): Promise<string[]> {
    const files = await this.unreferenced(lock);
    if (options.dryRun !== true) for (const file of files) await rm(file, { force: true });
    return files;
  }

  /** Every record read and checked against the lock file: damaged, leftover, unreferenced or stale. */
  async verify(lock: LockFile): Promise<ProcessedProblem[]> {
    const problems: ProcessedProblem[] = [];
    for (const name of await listTree(this.dir)) {
      const file = join(this.dir, name);
      if (isAtomicTempFile(basename(name))) {
        problems.push({ code: 'temp_file', file, severity: 'error', message: `${file} is left over from an interrupted write; delete it (prune does)` });
        continue;
      }
      const slug = FILE_NAME.exec(name)?.[1];
      const envelope = slug === undefined ? 'damaged' : this.#read(file);
      if (envelope === 'missing') continue;
      if (envelope === 'damaged' || envelope.slug !== slug) {
        problems.push({ code: 'invalid_file', file, severity: 'error', message: `${file} is damaged or not a processed article; delete it (the next build processes the article again)` });
        continue;
      }
      const entry = lock.articles[slug];
      if (entry === undefined) {
        problems.push({ code: 'unreferenced_file', file, slug, severity: 'warning', message: `${file} is for "${slug}", which is not in the lock file; \`astro-article-loader prune\` removes it` });
      } else if (envelope.output !== entry.output && envelope.output !== entry.previous?.output) {
        problems.push({ code: 'stale_file', file, slug, severity: 'warning', message: `${file} was made from an earlier output of "${slug}"; the next build processes the article again and replaces it` });
      }
    }
    return problems;
  }

  /**
   * Synchronous on purpose: a record is a few kilobytes, and reading and inflating 1,000 of them in
   * one go takes half the time of the thread-pool round trips (measured: 0.2 s vs 0.4-0.5 s).
   */
  #read(file: string): Envelope | 'missing' | 'damaged' {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    try {
      const parsed = envelopeSchema.safeParse(JSON.parse(inflate(bytes).toString('utf8')));
      return parsed.success ? parsed.data : 'damaged';
    } catch {
      return 'damaged';
    }
  }
}

/** Text that is not ASCII. */
const NOT_ASCII = /[^\x00-\x7f]/g;

/**
 * The record's JSON, its few non-ASCII characters (a dash, an ellipsis in an English article) written as `\uXXXX`. One such
 * character made the whole text a two-byte string when read, twice the memory: 10,000 English records read in 1.03 s and
 * 530 MB of garbage against 1.20-1.35 s and 712 MB. Escaped, a character takes 6 bytes of a one-byte string in place of 2
 * for every character of a two-byte one: so a text with more than one in eight not ASCII (Japanese, Arabic) is written as it is.
 */
function recordJson(envelope: Envelope): string {
  const json = JSON.stringify(envelope);
  const others = json.match(NOT_ASCII)?.length ?? 0;
  if (others === 0 || others > json.length / 8) return json;
  return json.replace(NOT_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Above this, a record's recorded size is not believed (a damaged file): it is inflated in the usual chunks. */
const MAX_ONE_CHUNK = 64 * 1024 * 1024;

/**
 * A gzip file inflated into one buffer of the size its trailer records (its last four bytes, modulo 2^32), rather than in
 * 16 KiB chunks joined after: a record is 15–25 KB, so most took two chunks and a copy (10,000 records read in 0.74–0.76 s
 * against 0.79–0.84 s).
 */
function inflate(bytes: Buffer): Buffer {
  const size = bytes.length >= 18 ? bytes.readUInt32LE(bytes.length - 4) : 0;
  return size > 0 && size < MAX_ONE_CHUNK ? gunzipSync(bytes, { chunkSize: size + 64 }) : gunzipSync(bytes);
}
