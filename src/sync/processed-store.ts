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
import { gzip } from 'node:zlib';
import { z } from 'zod';
import { isAtomicTempFile, listTree, writeFileAtomic } from './atomic-file.js';
import type { LockFile } from './lock-file.js';
import { inflate, RingReader, ringMemory, type RingRecord } from './record-ring.js';

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
  /** The read-ahead under way: the ring `get` takes records from, and where in a record's value the text it carries apart goes. */
  #ahead: { ring: RingReader; text: readonly string[] } | undefined;

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
    const file = this.file(slug);
    const ahead = this.#ahead;
    const taken = ahead?.ring.take(file);
    const envelope = (taken === undefined ? undefined : envelopeTaken(taken, ahead!.text)) ?? this.#read(file);
    if (envelope === 'missing') return undefined;
    if (envelope === 'damaged') {
      this.#onDamaged?.(file);
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
   * Reads and inflates the records of `slugs` ahead, in that order, on a thread of its own, into a ring of shared memory
   * that `get` takes them from: the loader's thread then makes no system call and inflates nothing for them. For a pass
   * that reads most of its records (a cold data store). A record not yet read when asked for is read by `get` itself, and
   * the thread skips ahead. `done` says how many records the thread put in the ring (undefined when it was stopped first
   * or could not run); `stop` stops it (`get` reads for itself again), and says how many records `get` took from the ring.
   * `text`: the path in a record's value of its one long string (the article's HTML), which the thread takes out of the JSON
   * and the ring carries apart (record-ring.ts, `takeOutText`), so the loader's thread neither parses it nor has its
   * collections copy it.
   */
  readAhead(slugs: readonly string[], options: { text?: readonly string[] } = {}): { done: Promise<number | undefined>; stop: () => number } {
    const files = slugs.map((slug) => this.file(slug));
    const memory = ringMemory(files.length);
    const ahead = { ring: new RingReader(files, memory), text: options.text ?? [] };
    const worker = new Worker(new URL('./read-ahead-worker.js', import.meta.url), { workerData: { files, memory, textMember: options.text?.at(-1) } });
    worker.unref();
    this.#ahead = ahead;
    // Best effort: a thread that cannot start or fails leaves `get` reading for itself.
    const done = new Promise<number | undefined>((resolve) => {
      worker.once('message', (message: { read: number }) => resolve(message.read));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => {
        ahead.ring.threadEnded();
        resolve(undefined);
      });
    });
    const stop = () => {
      if (this.#ahead === ahead) this.#ahead = undefined;
      void worker.terminate();
      return ahead.ring.stop();
    };
    return { done, stop };
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
      return envelopeOf(inflate(bytes));
    } catch {
      return 'damaged';
    }
  }
}

/** A record's envelope from its inflated bytes; damaged when they are not one. */
function envelopeOf(bytes: Buffer): Envelope | 'damaged' {
  try {
    return envelopeFrom(JSON.parse(bytes.toString('utf8')));
  } catch {
    return 'damaged';
  }
}

function envelopeFrom(value: unknown): Envelope | 'damaged' {
  const parsed = envelopeSchema.safeParse(value);
  return parsed.success ? parsed.data : 'damaged';
}

/**
 * A record from the ring: its head's envelope, with the text put back where it was taken out (at `path` in the value);
 * undefined when it cannot be put back there (the loader then reads the file itself).
 */
function envelopeTaken(taken: RingRecord, path: readonly string[]): Envelope | 'damaged' | undefined {
  let value: unknown;
  try {
    value = JSON.parse(taken.head);
  } catch {
    return 'damaged';
  }
  const envelope = envelopeFrom(value);
  if (envelope === 'damaged' || taken.text === undefined) return envelope;
  let holder: unknown = envelope.value;
  for (const name of path.slice(0, -1)) holder = holder !== null && typeof holder === 'object' ? (holder as Record<string, unknown>)[name] : undefined;
  const member = path.at(-1);
  if (member === undefined || holder === null || typeof holder !== 'object' || (holder as Record<string, unknown>)[member] !== '') return undefined;
  (holder as Record<string, unknown>)[member] = taken.text;
  return envelope;
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
