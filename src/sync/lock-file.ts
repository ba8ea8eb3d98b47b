// The lock file (articles.lock.json): slug → request hash → article id, status and cached output, versioned and diffable.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-file.js';
import { CorruptLockError, SyncError, UnsupportedLockVersionError } from './errors.js';
import { duplicateKeyProblems, requestHashProblems, type LockIntegrityProblem } from './lock-integrity.js';
import { isVerifiedLock, lockTextDigest, noteVerifiedLock } from './verified-locks.js';
import { noteOwnLockWrite } from './own-lock-writes.js';
import { countParse } from '../lang/parse-counts.js';
import { applyJournal, journalPath, NO_LOCK_TEXT } from './lock-journal.js';

export const LOCK_FILE_NAME = 'articles.lock.json';
export const CACHE_DIR_NAME = 'articles.cache';
export const LOCK_FILE_VERSION = 1;

/**
 * - `pending`: created (the service gave an article id), not finished yet.
 * - `finished`: finished; `output` names its cached output.
 * - `failed`: the service reported the article failed, or no longer knows its id (`not_found`: 404s through the poll loop's backoff).
 *   Never re-created unless the run says `retryFailed`.
 * - `unknown`: a create may have reached the service (and been billed) but no id came back, or the
 *   build stopped during the create call. Never re-created blindly: see `retryUnknown`.
 */
export const LOCK_ENTRY_STATUSES = ['pending', 'finished', 'failed', 'unknown'] as const;
export type LockEntryStatus = (typeof LOCK_ENTRY_STATUSES)[number];

const contentHash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" followed by 64 lowercase hex digits');
const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });
const articleId = z.string().min(1, 'must not be empty');

const lockErrorSchema = z.strictObject({ code: z.string().min(1), message: z.string() });
export type LockEntryError = z.output<typeof lockErrorSchema>;

const wordCount = z.number().int('must be a whole number').min(0, 'must be 0 or more');

/**
 * What the service billed for a finished article, recorded when it finished or was fetched
 * (entries written before these fields existed have none): the visible words of `output.html`,
 * the images it generated, and their word price (`images` × the image model's price).
 */
const billedFields = {
  words: wordCount.optional(),
  images: wordCount.optional(),
  imageWords: wordCount.optional(),
};

/**
 * Written by the offline emulator (placeholder text or the owner's model, never paid for): a sync against the real
 * service creates the article again, serving this one only until the real one is finished.
 */
const emulatorFlag = z.literal(true, 'must be true (or absent)').optional();

const previousSchema = z.strictObject({
  hash: contentHash,
  articleId,
  output: contentHash,
  finishedAt: timestamp.optional(),
  ...billedFields,
  emulator: emulatorFlag,
});
export type PreviousArticle = z.output<typeof previousSchema>;

/**
 * A person's yes to one output (the review gate, see src/review/): the output's hash when it was approved, and when.
 * It approves that output only: a regenerated or refreshed article has another hash and waits for review again.
 */
const approvalSchema = z.strictObject({ output: contentHash, approvedAt: timestamp });
export type LockApproval = z.output<typeof approvalSchema>;

export const lockEntrySchema = z
  .strictObject({
    keyword: z.string(),
    status: z.enum(LOCK_ENTRY_STATUSES),
    hash: contentHash,
    articleId: articleId.optional(),
    /** 1 for the first create of this hash; `retryFailed` increments it. Part of the idempotency key. */
    attempt: z.number().int().min(1).default(1),
    createdAt: timestamp,
    /**
     * When the entry's first article was created, kept when a finished article is created again on purpose
     * (`regenerate`, `sync --refresh`): `createdAt` is the current create's (its polls count from it), this is
     * `entry.data.createdAt`. Absent until the first regenerate or refresh.
     */
    firstCreatedAt: timestamp.optional(),
    updatedAt: timestamp,
    finishedAt: timestamp.optional(),
    output: contentHash.optional(),
    ...billedFields,
    emulator: emulatorFlag,
    error: lockErrorSchema.optional(),
    /** The last finished article of an earlier request: served until the current one finishes. */
    previous: previousSchema.optional(),
    /** The request's non-default parameters (see `explicitParameters`), for `plan` diffs. */
    request: z.record(z.string(), z.unknown()).optional(),
    /** The approval of the review gate (absent: never approved); see `approvalSchema`. */
    approved: approvalSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    if ((entry.status === 'pending' || entry.status === 'finished') && entry.articleId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['articleId'], message: `is required when status is "${entry.status}"` });
    }
    if (entry.status === 'finished' && entry.output === undefined) {
      ctx.addIssue({ code: 'custom', path: ['output'], message: 'is required when status is "finished"' });
    }
  });
export type LockEntry = z.output<typeof lockEntrySchema>;

const monthSpendSchema = z.strictObject({ articles: wordCount, words: wordCount });
/** One month of the `spent` tally: the articles whose create was recorded, and the words billed for those that finished. */
export type MonthSpend = z.output<typeof monthSpendSchema>;

export const lockFileSchema = z.strictObject({
  version: z.literal(LOCK_FILE_VERSION),
  articles: z.record(z.string(), lockEntrySchema),
  /** The date each scheduled entry was given, by slug (see `sync/recorded-dates.ts`); absent when the site has no schedule. */
  schedule: z.record(z.string(), timestamp).optional(),
  /** What was created each calendar month (UTC), for the monthly cap (see `sync/month-spend.ts`); absent until a paid create. */
  spent: z
    .record(z.string(), monthSpendSchema)
    .superRefine((spent, ctx) => {
      for (const month of Object.keys(spent)) {
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) ctx.addIssue({ code: 'custom', path: [month], message: 'is not a month written YYYY-MM (e.g. "2026-11")' });
      }
    })
    .optional(),
});
export type LockFile = z.output<typeof lockFileSchema>;

export function emptyLockFile(): LockFile {
  return { version: LOCK_FILE_VERSION, articles: {} };
}

/**
 * Where the lock file and the cache live for a `lockFile` option (or `--lock-file`): a `.json`
 * path, or the directory holding `articles.lock.json`. The cache sits beside the lock file, named
 * after it: `guides.lock.json` → `guides.cache/`, `articles.lock.json` (or any other name) →
 * `articles.cache/`. A lock file named otherwise before caches were named after it kept its cache
 * in `articles.cache/`: that one is still used while `guides.cache/` does not exist and no
 * `articles.lock.json` beside it owns `articles.cache/`.
 */
export function resolveLockPaths(lockFileOrDir: string): { lockFile: string; cacheDir: string } {
  const absolute = resolve(lockFileOrDir);
  const lockFile = absolute.endsWith('.json') ? absolute : join(absolute, LOCK_FILE_NAME);
  const dir = dirname(lockFile);
  const stem = /^(.+)\.lock\.json$/.exec(basename(lockFile))?.[1];
  if (stem === undefined || `${stem}.lock.json` === LOCK_FILE_NAME) return { lockFile, cacheDir: join(dir, CACHE_DIR_NAME) };
  const named = join(dir, `${stem}.cache`);
  const legacy = !existsSync(named) && existsSync(join(dir, CACHE_DIR_NAME)) && !existsSync(join(dir, LOCK_FILE_NAME));
  return { lockFile, cacheDir: legacy ? join(dir, CACHE_DIR_NAME) : named };
}

/**
 * The lock file and cache of a manifest when no lock file is given: named after it and beside it,
 * `guides.yaml` → `guides.lock.json` and `guides.cache/`, so two collections with two manifests in
 * one folder never share them. `articles.yaml` keeps `articles.lock.json` and `articles.cache/`,
 * and so does a single manifest of another name whose site already has `articles.lock.json`.
 */
export function lockPathsForManifest(manifestFile: string): { lockFile: string; cacheDir: string } {
  const absolute = resolve(manifestFile);
  const dir = dirname(absolute);
  const named = join(dir, `${basename(absolute, extname(absolute))}.lock.json`);
  // A site whose manifest is not articles.* kept its lock file as articles.lock.json before lock files were named after
  // their manifest: it keeps it (never a new, empty lock file that would pay for every article again), unless an
  // articles.* manifest beside it owns that file.
  const legacy = join(dir, LOCK_FILE_NAME);
  const ownedByArticlesManifest = LEGACY_MANIFEST_NAMES.some((name) => existsSync(join(dir, name)));
  if (named !== legacy && !existsSync(named) && existsSync(legacy) && !ownedByArticlesManifest) return resolveLockPaths(legacy);
  return resolveLockPaths(named);
}

/** The manifests whose lock file is `articles.lock.json` by their own name. */
const LEGACY_MANIFEST_NAMES = ['articles.yaml', 'articles.yml', 'articles.json', 'articles.csv'];

/**
 * Reads and validates the lock file; a missing file is an empty lock. A file that is not a valid
 * lock, or fails an integrity check, throws CorruptLockError / UnsupportedLockVersionError and is
 * left as it is.
 */
export async function readLockFile(file: string): Promise<LockFile> {
  return (await readLockFileState(file)).lock;
}

/** A lock file as read: its state, the digest of its text on disk (`none` when absent) and whether a journal lay beside it. */
export interface LockFileState {
  lock: LockFile;
  digest: string;
  /** Bytes of the lock file's text (0 when absent). */
  bytes: number;
  journal: boolean;
}

/** Like readLockFile, with what a writer needs to journal on top of it (see lock-journal.ts). */
export async function readLockFileState(file: string): Promise<LockFileState> {
  const [text, journal] = await Promise.all([readLockText(file), readJournalText(file)]);
  const { lock, problems, digest } = inspectLockText(text, file, journal);
  if (problems.length > 0) throw new CorruptLockError(file, problems);
  return { lock, digest, bytes: text === undefined ? 0 : Buffer.byteLength(text), journal: journal !== undefined };
}

/** The slugs the lock file records (none when there is no lock file): what `withRecordedSlugs` of the manifest room keeps. */
export async function recordedSlugs(file: string): Promise<ReadonlySet<string>> {
  return new Set(Object.keys((await readLockFile(file)).articles));
}

/** Like readLockFile, but integrity problems are returned rather than thrown (for `verify`). */
export async function inspectLockFile(file: string): Promise<{ lock: LockFile; problems: LockIntegrityProblem[] }> {
  const [text, journal] = await Promise.all([readLockText(file), readJournalText(file)]);
  return inspectLockText(text, file, journal);
}

/** The lock file's text; `undefined` (an empty lock) when there is none. */
async function readLockText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory, not a file' : (error as Error).message;
    throw new SyncError(
      'lock_read_failed',
      `Could not read the lock file ${file}: ${reason}. It was left untouched. Make it a readable regular file ` +
        '(restore it from version control, fix its permissions, or move away whatever is at that path) and run the build again.',
      { cause: error },
    );
  }
}

/** The journal's text, when a create phase left one (see lock-journal.ts). */
async function readJournalText(file: string): Promise<string | undefined> {
  try {
    return await readFile(journalPath(file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Parses lock file text (`undefined`: no file), with the journal's text when there is one; `file` is only used in error messages. */
export function parseLockFile(text: string | undefined, file: string, journal?: string): LockFile {
  const { lock, problems } = inspectLockText(text, file, journal);
  if (problems.length > 0) throw new CorruptLockError(file, problems);
  return lock;
}

function inspectLockText(text: string | undefined, file: string, journal?: string): { lock: LockFile; problems: LockIntegrityProblem[]; digest: string } {
  const base = text === undefined ? NO_LOCK_TEXT : lockTextDigest(text);
  const json = text === undefined ? emptyLockFile() : lockJson(text, file);
  if (text !== undefined) countParse('lock', resolve(file));
  // A text that passed the checks before (in this process, or vouched for) passes them again: they read nothing else.
  const digest = journal === undefined ? base : lockTextDigest(`${base}\u0000${journal}`);
  const known = isVerifiedLock(file, digest);
  // Duplicate keys are a property of the lock file's own text, so they are counted before the journal adds entries.
  const duplicates = known || text === undefined ? [] : duplicateKeyProblems(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, json);
  if (journal !== undefined) applyJournal(json as { articles?: unknown }, journal, base, file);
  // A text this version checked before is taken as the schema gave it then: checking 10,000 entries again (and copying each)
  // cost 60-100 ms of a cold-store load(). The schema's only change to a sound lock is `attempt`'s default (`checkedLock`).
  const parsed = known ? { success: true as const, data: checkedLock(json) } : lockFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map(lockIssueText);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    if (duplicates.length > 0) throw new CorruptLockError(file, duplicates);
    throw new CorruptLockError(file, `${problems.join('; ')}${more}`);
  }
  const problems = known ? [] : [...duplicates, ...requestHashProblems(parsed.data.articles)];
  if (problems.length === 0) noteVerifiedLock(file, digest);
  return { lock: parsed.data, problems, digest: base };
}

/** A lock whose text passed the schema before, as the schema gives it: each entry's `attempt` defaults to 1 (a test holds the two equal). */
function checkedLock(json: unknown): LockFile {
  const lock = json as LockFile;
  for (const entry of Object.values(lock.articles) as Partial<LockEntry>[]) entry.attempt ??= 1;
  return lock;
}

/** The lock file text as JSON, after the checks that come before its shape. */
function lockJson(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^(<{7}|={7}|>{7})( |$)/m.test(body)) throw new CorruptLockError(file, 'it contains merge-conflict markers (<<<<<<<, =======, >>>>>>>)');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new CorruptLockError(file, `it is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new CorruptLockError(file, 'it is not a JSON object');
  const version = (json as { version?: unknown }).version;
  if (version === undefined) throw new CorruptLockError(file, 'it has no "version"');
  if (version !== LOCK_FILE_VERSION) throw new UnsupportedLockVersionError(file, version, LOCK_FILE_VERSION);
  return json;
}

/**
 * A schema issue as a person reads it: the entry by its slug, quoted (`articles["best-trail-shoes"].keyword`, whatever
 * characters the slug holds), and "is missing" for a field that is not there, rather than the schema's own words.
 */
function lockIssueText(issue: { path: readonly PropertyKey[]; code: string; message: string }): string {
  const [first, slug, ...rest] = issue.path.map(String);
  const where = first === undefined ? '(root)' : first === 'articles' && slug !== undefined ? [`articles[${JSON.stringify(slug)}]`, ...rest].join('.') : issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
  return `${where} ${missing ? 'is missing' : issue.message}`;
}

const ENTRY_KEY_ORDER = [
  'keyword',
  'status',
  'hash',
  'articleId',
  'attempt',
  'createdAt',
  'firstCreatedAt',
  'updatedAt',
  'finishedAt',
  'output',
  'words',
  'images',
  'imageWords',
  'emulator',
  'error',
  'previous',
  'request',
  'approved',
] as const satisfies readonly (keyof LockEntry)[];

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The lock file's text: slugs sorted, each entry's keys in one fixed order, 2-space JSON and a
 * trailing newline, so the same state always gives the same bytes and a diff shows only changes.
 */
export function serializeLockFile(lock: LockFile): string {
  const articles: Record<string, Record<string, unknown>> = {};
  for (const slug of Object.keys(lock.articles).sort(byCodeUnit)) articles[slug] = orderedEntry(lock.articles[slug]!);
  // Only a site with a schedule has the member, so every other lock file keeps its bytes.
  const schedule = lock.schedule === undefined || Object.keys(lock.schedule).length === 0 ? undefined : sortedKeys(lock.schedule);
  const text = JSON.stringify({ version: lock.version, articles, ...(schedule === undefined ? {} : { schedule }) }, null, 2);
  // Only a lock file something was paid for through it has the tally: every other keeps its bytes.
  if (lock.spent === undefined || Object.keys(lock.spent).length === 0) return `${text}\n`;
  return `${text.slice(0, -2)},\n  "spent": ${spentText(lock.spent)}\n}\n`;
}

/** The tally as the lock file writes it: months in order, one line each, so a diff shows one changed line per month. */
function spentText(spent: Readonly<Record<string, MonthSpend>>): string {
  const months = Object.keys(spent).sort();
  const lines = months.map((month) => `    ${JSON.stringify(month)}: { "articles": ${spent[month]!.articles}, "words": ${spent[month]!.words} }`);
  return `{\n${lines.join(',\n')}\n  }`;
}

/** One entry with its keys in the lock file's order (the journal writes entries this way too). */
export function orderedEntry(entry: LockEntry): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of ENTRY_KEY_ORDER) {
    const value = entry[key];
    if (value === undefined) continue;
    ordered[key] = key === 'previous' || key === 'error' || key === 'request' || key === 'approved' ? sortedKeys(value) : value;
  }
  return ordered;
}

/** Writes the lock file atomically (temp file, fsync, rename, fsync of the directory). */
export async function writeLockFile(file: string, lock: LockFile): Promise<void> {
  const text = serializeLockFile(lock);
  noteOwnLockWrite(file, text);
  await writeFileAtomic(file, text);
}
