// The committed output cache (articles.cache/): finished outputs stored by content hash, plus a keyed store for link results.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { isAtomicTempFile, listDir, readIfPresent, writeFileAtomic } from './atomic-file.js';
import { CorruptLockError, type LockIntegrityProblem } from './errors.js';
import type { LockFile } from './lock-file.js';
import { outputOwnerProblem, type OutputOwner } from './lock-integrity.js';
import { PROCESSED_DIR_NAME, ProcessedStore, type ProcessedProblem } from './processed-store.js';

export const OUTPUTS_DIR_NAME = 'outputs';
export const LINKS_DIR_NAME = 'links';
/** The generated cover cards (PNG files, named by their inputs; written by src/cover/), not keyed records. */
export const COVERS_DIR_NAME = 'covers';

/**
 * What the service returned for a finished article; `updatedAt` is the service's Unix time in ms.
 * `articleId` and `targetKeyword` say which article it was fetched for, so a lock entry pointing at
 * another article's output is caught (outputs cached before they were recorded have neither).
 */
export interface CachedOutput extends OutputOwner {
  html: string;
  polishedHtml: string | null;
  updatedAt: number;
}

const cachedOutputSchema = z.strictObject({
  html: z.string(),
  polishedHtml: z.string().nullable(),
  updatedAt: z.number(),
  articleId: z.string().optional(),
  targetKeyword: z.string().optional(),
});

const linkRecordSchema = z.strictObject({ sha256: z.string(), value: z.unknown() });

/**
 * A keyed record's text: `{"sha256":"<hex of the value's JSON>","value":<the value's JSON>}` and a newline, what
 * `JSON.stringify({ sha256, value })` writes, made from the value's JSON as it was hashed rather than stringified again.
 */
function keyedText(json: string): string {
  return `{"sha256":"${sha256Hex(json)}","value":${json}}\n`;
}

/** A keyed record's parts, when its text is laid out as `keyedText` writes it; undefined otherwise (it is then read as any JSON). */
const KEYED_LAYOUT = /^\{"sha256":"([0-9a-f]{64})","value":/;
function keyedValueText(text: string): { sha256: string; value: string } | undefined {
  const head = KEYED_LAYOUT.exec(text);
  if (head === null || !text.endsWith('}\n')) return undefined;
  return { sha256: head[1]!, value: text.slice(head[0].length, -2) };
}

/** Something the cache noticed and worked around (a corrupt file); never fatal. */
export interface CacheWarning {
  code: 'corrupt_cache_file';
  file: string;
  message: string;
}

export interface CacheProblem {
  /**
   * - `missing_output`: a finished entry's output is not in the cache (a build fetches it with one GET).
   * - `missing_previous_output`: the earlier article served while a new one is written is missing.
   * - `hash_mismatch`: a file's content does not match its name (edited, or a bad merge).
   * - `invalid_file`: a file is not a cache record.
   * - `temp_file`: a leftover of a write that was interrupted (safe to delete).
   * - `output_mismatch`: an entry points at an output fetched for another article.
   * - `unreferenced_file`: an output no entry refers to (harmless; `prune` removes it). A warning.
   */
  code: 'missing_output' | 'missing_previous_output' | 'hash_mismatch' | 'invalid_file' | 'temp_file' | 'output_mismatch' | 'unreferenced_file' | ProcessedProblem['code'];
  file: string;
  slug?: string;
  message: string;
  /** `warning`s don't make `verify` fail. */
  severity: 'error' | 'warning';
}

function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hexOf(outputHash: string): string | undefined {
  const match = /^sha256:([0-9a-f]{64})$/.exec(outputHash);
  return match?.[1];
}

/** The exact bytes stored for an output: fixed key order, so equal outputs get equal hashes. */
export function serializeOutput(output: CachedOutput): string {
  const { html, polishedHtml, updatedAt, articleId, targetKeyword } = output;
  // The owner first: `owner()` reads it from the head of the file without reading the article.
  return `${JSON.stringify({ articleId, targetKeyword, html, polishedHtml, updatedAt })}\n`;
}

/** The owner at the head of a cached output's bytes: `{"articleId":"…","targetKeyword":"…",`. */
const OWNER_HEAD = /^\{"articleId":("(?:[^"\\]|\\.)*"),"targetKeyword":("(?:[^"\\]|\\.)*"),/;
/** Enough bytes for an id and any keyword a manifest accepts. */
const OWNER_HEAD_BYTES = 4096;

/**
 * A small persistent key → JSON value store in the cache (internal-link results, image file names),
 * one file per key, checksummed. `T` is not checked at runtime: store one kind of value per name.
 */
export interface KeyedStore<T = unknown> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T): Promise<void>;
  /** Every sound value in the store (a damaged file is warned about and left out); for stores of a few files. */
  values(): Promise<T[]>;
}

export class OutputCache {
  readonly dir: string;
  readonly outputsDir: string;
  readonly linksDir: string;
  /** The internal-links service's results: key them by what determines the answer (content + domain id). */
  readonly links: KeyedStore;
  /** What the pipeline made of each article (see `processed-store.ts`). */
  readonly processed: ProcessedStore;
  #onWarning: ((warning: CacheWarning) => void) | undefined;
  readonly #warned = new Set<string>();
  readonly #intactHashes = new Set<string>();

  constructor(dir: string, options: { onWarning?: (warning: CacheWarning) => void } = {}) {
    this.dir = dir;
    this.outputsDir = join(dir, OUTPUTS_DIR_NAME);
    this.linksDir = join(dir, LINKS_DIR_NAME);
    this.#onWarning = options.onWarning;
    this.links = this.keyedStore(LINKS_DIR_NAME);
    this.processed = new ProcessedStore(dir, { onDamaged: (file) => this.#warn(file, 'it is damaged; the article is processed again') });
  }

  /** A keyed store in the subdirectory `name` of the cache (lowercase letters, digits, dashes; not `outputs`). */
  keyedStore<T = unknown>(name: string): KeyedStore<T> {
    if (!/^[a-z][a-z0-9-]{0,63}$/.test(name) || name === OUTPUTS_DIR_NAME || name === PROCESSED_DIR_NAME) throw new TypeError(`not a keyed store name: ${name}`);
    const dir = join(this.dir, name);
    return {
      get: (key) => this.#getKeyed(dir, key) as Promise<T | undefined>,
      set: (key, value) => this.#setKeyed(dir, key, value),
      values: async () => {
        const names = (await listDir(dir)).filter((name) => /^[0-9a-f]{64}\.json$/.test(name));
        const values = await Promise.all(names.map((name) => this.#readKeyed(join(dir, name))));
        return values.filter((value) => value !== undefined) as T[];
      },
    };
  }

  /** The file an output hash (`sha256:<hex>`) is stored in. */
  outputFile(outputHash: string): string {
    const hex = hexOf(outputHash);
    if (hex === undefined) throw new TypeError(`not an output hash: ${outputHash}`);
    return join(this.outputsDir, `${hex}.json`);
  }

  /** Stores an output and returns its hash. Storing the same output twice is a no-op rewrite of the same bytes. */
  async put(output: CachedOutput): Promise<string> {
    const bytes = serializeOutput(output);
    const hash = `sha256:${sha256Hex(bytes)}`;
    await mkdir(this.outputsDir, { recursive: true });
    // No fsync: a file damaged by a power loss fails its hash check on read and is fetched again.
    await writeFileAtomic(this.outputFile(hash), bytes, { durable: false });
    return hash;
  }

  /**
   * Reads an output and checks its bytes against its hash. A missing file is `undefined`; a
   * corrupt one is also `undefined`, with a warning, so the caller fetches it again.
   */
  async read(outputHash: string): Promise<CachedOutput | undefined> {
    const bytes = await this.#checkedBytes(outputHash);
    if (bytes === undefined) return undefined;
    const parsed = cachedOutputSchema.safeParse(safeJson(bytes.toString('utf8')));
    if (!parsed.success) {
      this.#warn(this.outputFile(outputHash), 'it is not a cached article output; it will be fetched again');
      return undefined;
    }
    return parsed.data;
  }

  /**
   * Who an output was fetched for, read from the head of its file (cheap for 10,000 articles), or
   * undefined when the file is missing or was cached before owners were recorded. Its content is
   * not checked against its hash here: `read` and `verify` do that.
   */
  async owner(outputHash: string): Promise<OutputOwner | undefined> {
    let handle;
    try {
      handle = await open(this.outputFile(outputHash), 'r');
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(OWNER_HEAD_BYTES), 0, OWNER_HEAD_BYTES, 0);
      const head = OWNER_HEAD.exec(buffer.subarray(0, bytesRead).toString('utf8'));
      return head === null ? undefined : { articleId: JSON.parse(head[1]!) as string, targetKeyword: JSON.parse(head[2]!) as string };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    } finally {
      await handle?.close();
    }
  }

  /**
   * Every entry of `lock` whose output (or earlier article's output) was fetched for another
   * article: `output_mismatch` problems, from the heads of the files. `plan` and `sync` check this
   * before anything else; a build checks each output it reads.
   */
  async ownerProblems(lock: LockFile): Promise<LockIntegrityProblem[]> {
    const problems: LockIntegrityProblem[] = [];
    for (const [slug, entry] of Object.entries(lock.articles)) {
      const outputs = [
        ...(entry.status === 'finished' && entry.output !== undefined && entry.articleId !== undefined ? [{ output: entry.output, articleId: entry.articleId, keyword: entry.keyword }] : []),
        ...(entry.previous === undefined ? [] : [{ output: entry.previous.output, articleId: entry.previous.articleId, keyword: undefined }]),
      ];
      for (const { output, articleId, keyword } of outputs) {
        const owner = await this.owner(output);
        const problem = owner === undefined ? undefined : outputOwnerProblem(slug, { articleId, keyword }, owner);
        if (problem !== undefined) problems.push(problem);
      }
    }
    return problems;
  }

  /**
   * Reads the output a lock entry points at (see `read`), and stops with `corrupt_lock` when it was
   * fetched for another article than the entry's: serving it would put the wrong article on the site.
   */
  async readFor(outputHash: string, owner: { lockFile: string; slug: string; articleId: string; keyword?: string | undefined }): Promise<CachedOutput | undefined> {
    const output = await this.read(outputHash);
    const mismatch = output === undefined ? undefined : outputOwnerProblem(owner.slug, owner, output);
    if (mismatch !== undefined) throw new CorruptLockError(owner.lockFile, [mismatch]);
    return output;
  }

  /**
   * The output hashes present in the cache. By default from file names only (cheap for 10,000
   * articles); `verify: true` also reads each file and leaves out those whose content is damaged.
   */
  async index(options: { verify?: boolean } = {}): Promise<Set<string>> {
    const present = new Set<string>();
    for (const name of await listDir(this.outputsDir)) {
      const match = /^([0-9a-f]{64})\.json$/.exec(name);
      if (match === null) continue;
      const hash = `sha256:${match[1]}`;
      if (options.verify === true && !(await this.#intact(hash))) continue;
      present.add(hash);
    }
    return present;
  }

  /** Output files no lock entry (current or previous) refers to, plus leftovers of interrupted writes. */
  async unreferenced(lock: LockFile): Promise<string[]> {
    const referenced = referencedOutputs(lock);
    const files: string[] = [];
    for (const name of await listDir(this.outputsDir)) {
      const match = /^([0-9a-f]{64})\.json$/.exec(name);
      if (isAtomicTempFile(name) || (match !== null && !referenced.has(`sha256:${match[1]}`))) files.push(join(this.outputsDir, name));
    }
    for (const dir of await this.#keyedDirs()) for (const name of await listDir(dir)) if (isAtomicTempFile(name)) files.push(join(dir, name));
    files.push(...(await this.processed.unreferenced(lock)));
    return files.sort();
  }

  /** Deletes `unreferenced(lock)` (unless `dryRun`) and returns the files. Keyed stores (link results) are kept; processed articles of slugs not in the lock go. */
  async prune(lock: LockFile, options: { dryRun?: boolean } = {}): Promise<string[]> {
    const files = await this.unreferenced(lock);
    if (options.dryRun !== true) for (const file of files) await rm(file, { force: true });
    return files;
  }

  /**
   * Checks the lock against the cache: every finished entry has its output, fetched for its own
   * article; every file's content matches its hash; nothing is left unreferenced. Reads one file at
   * a time, so memory stays flat for large caches.
   */
  async verify(lock: LockFile): Promise<CacheProblem[]> {
    const { problems, owners } = await this.#verifyOutputs();
    problems.push(...(await this.#verifyKeyedStores()));
    problems.push(...(await this.processed.verify(lock)));
    const referenced = referencedOutputs(lock);
    for (const [slug, entry] of Object.entries(lock.articles)) problems.push(...this.#entryProblems(slug, entry, owners));
    for (const [hash] of owners) {
      if (referenced.has(hash)) continue;
      const file = this.outputFile(hash);
      problems.push({ code: 'unreferenced_file', file, severity: 'warning', message: `${file} is not used by any entry; \`astro-article-loader prune\` removes it` });
    }
    return problems;
  }

  /** Every output file checked against its name and the record shape; the owners of the sound ones. */
  async #verifyOutputs(): Promise<{ problems: CacheProblem[]; owners: Map<string, OutputOwner> }> {
    const problems: CacheProblem[] = [];
    const owners = new Map<string, OutputOwner>();
    for (const name of await listDir(this.outputsDir)) {
      const file = join(this.outputsDir, name);
      if (isAtomicTempFile(name)) {
        problems.push(tempFileProblem(file));
        continue;
      }
      const match = /^([0-9a-f]{64})\.json$/.exec(name);
      if (match === null) {
        problems.push({ code: 'invalid_file', file, severity: 'error', message: `${file} is not named <sha256>.json; remove it` });
        continue;
      }
      const bytes = await readFile(file);
      if (sha256Hex(bytes) !== match[1]) {
        problems.push({ code: 'hash_mismatch', file, severity: 'error', message: `${file}: content does not match its hash; restore it from version control or delete it (the next build fetches it again)` });
        continue;
      }
      const record = cachedOutputSchema.safeParse(safeJson(bytes.toString('utf8')));
      if (!record.success) {
        problems.push({ code: 'invalid_file', file, severity: 'error', message: `${file} is not a cached article output; delete it (the next build fetches it again)` });
        continue;
      }
      owners.set(`sha256:${match[1]}`, { articleId: record.data.articleId, targetKeyword: record.data.targetKeyword });
    }
    return { problems, owners };
  }

  async #verifyKeyedStores(): Promise<CacheProblem[]> {
    const problems: CacheProblem[] = [];
    for (const dir of await this.#keyedDirs()) {
      for (const name of await listDir(dir)) {
        const file = join(dir, name);
        if (isAtomicTempFile(basename(file))) {
          problems.push(tempFileProblem(file));
          continue;
        }
        const record = linkRecordSchema.safeParse(safeJson(await readFile(file, 'utf8')));
        if (!record.success) problems.push({ code: 'invalid_file', file, severity: 'error', message: `${file} is not a keyed cache record; delete it` });
        else if (sha256Hex(JSON.stringify(record.data.value) ?? '') !== record.data.sha256) {
          problems.push({ code: 'hash_mismatch', file, severity: 'error', message: `${file}: content does not match its checksum; delete it (it is computed again)` });
        }
      }
    }
    return problems;
  }

  #entryProblems(slug: string, entry: LockFile['articles'][string], owners: ReadonlyMap<string, OutputOwner>): CacheProblem[] {
    const problems: CacheProblem[] = [];
    const check = (output: string, articleId: string | undefined, keyword: string | undefined, missing: CacheProblem['code'], missingMessage: (file: string) => string): void => {
      const file = this.outputFile(output);
      const owner = owners.get(output);
      if (owner === undefined) problems.push({ code: missing, file, slug, severity: 'error', message: missingMessage(file) });
      else if (articleId !== undefined) {
        const mismatch = outputOwnerProblem(slug, { articleId, keyword }, owner);
        if (mismatch !== undefined) problems.push({ code: 'output_mismatch', file, slug, severity: 'error', message: `${mismatch.message}; restore the lock file from version control` });
      }
    };
    if (entry.status === 'finished' && entry.output !== undefined) {
      check(entry.output, entry.articleId, entry.keyword, 'missing_output', (file) => `"${slug}" is finished but its output ${file} is missing or damaged; commit the ${basename(this.dir)} directory (a build fetches it again with one request)`);
    }
    if (entry.previous !== undefined) {
      check(entry.previous.output, entry.previous.articleId, undefined, 'missing_previous_output', (file) => `"${slug}": the earlier article served until the new one finishes, ${file}, is missing or damaged`);
    }
    return problems;
  }

  async #keyedDirs(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.isDirectory() && entry.name !== OUTPUTS_DIR_NAME && entry.name !== PROCESSED_DIR_NAME && entry.name !== COVERS_DIR_NAME)
      .map((entry) => join(this.dir, entry.name))
      .sort();
  }

  async #getKeyed(dir: string, key: string): Promise<unknown> {
    return this.#readKeyed(join(dir, `${sha256Hex(key)}.json`));
  }

  async #readKeyed(file: string): Promise<unknown> {
    const text = await readIfPresent(file, 'utf8');
    if (text === undefined) return undefined;
    const written = keyedValueText(text);
    // As `keyedText` wrote it: the value's text is checked as it is, not parsed and written again to be hashed (a
    // 10,000-article near-duplicate memo is 3 MB).
    const value = written !== undefined && sha256Hex(written.value) === written.sha256 ? safeJson(written.value) : undefined;
    if (value !== undefined) return value;
    const record = linkRecordSchema.safeParse(safeJson(text));
    if (!record.success || sha256Hex(JSON.stringify(record.data.value) ?? '') !== record.data.sha256) {
      this.#warn(file, 'it is damaged; the value will be computed again');
      return undefined;
    }
    return record.data.value;
  }

  async #setKeyed(dir: string, key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError('a keyed store value must be a JSON value');
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, `${sha256Hex(key)}.json`), keyedText(json), { durable: false });
  }

  /**
   * Whether the file of `hash` holds bytes of that hash, with a warning when it does not. Checked once per cache:
   * a run plans outside the inter-process lock and again under it, and the bytes put under a hash are an output.
   */
  async #intact(hash: string): Promise<boolean> {
    if (this.#intactHashes.has(hash)) return true;
    if ((await this.#checkedBytes(hash)) === undefined) return false;
    this.#intactHashes.add(hash);
    return true;
  }

  /** The bytes stored under `hash` when they are of that hash; a missing file is undefined, a damaged one too, with a warning. */
  async #checkedBytes(hash: string): Promise<Buffer | undefined> {
    const file = this.outputFile(hash);
    const bytes = await readIfPresent(file);
    if (bytes === undefined || `sha256:${sha256Hex(bytes)}` === hash) return bytes;
    this.#warn(file, 'its content does not match its hash (edited by hand or damaged); it will be fetched again');
    return undefined;
  }

  /** Once a file: a run may read the same damaged file more than once (the plan outside the lock, then under it). */
  #warn(file: string, problem: string): void {
    if (this.#warned.has(file)) return;
    this.#warned.add(file);
    this.#onWarning?.({ code: 'corrupt_cache_file', file, message: `The cache file ${file} was ignored: ${problem}.` });
  }
}

/** Every output hash the lock refers to: current outputs and the previous ones still being served. */
export function referencedOutputs(lock: LockFile): Set<string> {
  const referenced = new Set<string>();
  for (const entry of Object.values(lock.articles)) {
    if (entry.output !== undefined) referenced.add(entry.output);
    if (entry.previous !== undefined) referenced.add(entry.previous.output);
  }
  return referenced;
}

function tempFileProblem(file: string): CacheProblem {
  return { code: 'temp_file', file, severity: 'error', message: `${file} is left over from an interrupted write; delete it (prune does)` };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
