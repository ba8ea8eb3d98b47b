// The lock file's journal (`articles.lock.journal`): the entries a create phase changed since its last full write of the lock file, one appended line each, so recording an id costs the size of that entry, not of the whole lock.
import { open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CorruptLockError } from './errors.js';

/**
 * The journal's first line names the lock file text it applies to (its digest, or `none` when there was no lock file):
 * a journal left beside another text (a full write whose removal of the journal a power loss undid, a lock file
 * restored from git) applies to nothing and is ignored, so it can never put back an older state of an entry.
 */
interface JournalHead {
  journal: 1;
  base: string;
}

/** Where the journal of `lockFile` lives: `guides.lock.json` → `guides.lock.journal`, beside it. */
export function journalPath(lockFile: string): string {
  const name = basename(lockFile);
  return join(dirname(lockFile), name.endsWith('.json') ? `${name.slice(0, -'.json'.length)}.journal` : `${name}.journal`);
}

/** The digest a journal names for "no lock file yet". */
export const NO_LOCK_TEXT = 'none';

/**
 * Applies the journal `text` to the parsed lock file `json` (its `articles` and its `spent` tally, changed in place) when
 * it was written on top of the lock text with digest `base`; returns how many lines were applied. Written on another text,
 * it applies nothing, and throws when it records a paid article the lock file lacks (`refuseLostEntries`). A last line without its newline is one whose
 * append was cut off by a kill: nothing relied on it (its caller waited for the append), so it is left out. A complete
 * line that is not a journal line makes the lock file corrupt, as a damaged lock file does.
 */
export function applyJournal(json: { articles?: unknown }, text: string, base: string, lockFile: string): number {
  const lines = text.split('\n');
  lines.pop(); // the text after the last newline: empty, or a line cut off mid-append
  const head = parseLine<JournalHead>(lines[0], 1, lockFile);
  if (head === undefined || head.journal !== 1) return 0;
  if (typeof json.articles !== 'object' || json.articles === null || Array.isArray(json.articles)) return 0;
  const articles = json.articles as Record<string, unknown>;
  const journaled = lines.slice(1).map((text, i) => journalEntry(text, i + 2, lockFile));
  const entries = journaled.filter((line): line is { slug: string; entry: unknown } => 'slug' in line);
  if (head.base !== base) {
    refuseLostEntries(entries, articles, lockFile);
    return 0;
  }
  for (const line of journaled) {
    if (!('slug' in line)) {
      const target = json as { spent?: unknown };
      if (line.spent === null) delete target.spent;
      else target.spent = line.spent;
    } else if (line.entry === null) delete articles[line.slug];
    else articles[line.slug] = line.entry;
  }
  return journaled.length;
}

function journalEntry(text: string, number: number, lockFile: string): { slug: string; entry: unknown } | { spent: unknown } {
  const line = parseLine<{ slug?: unknown; entry?: unknown; spent?: unknown }>(text, number, lockFile);
  if (line !== undefined && 'spent' in line && line.slug === undefined) return { spent: line.spent };
  if (line === undefined || typeof line.slug !== 'string' || !('entry' in line)) throw badLine(lockFile, number);
  return { slug: line.slug, entry: line.entry };
}

/** What a journal line may hold that money depends on: the article's id, or a create's intent. */
interface JournaledEntry {
  status?: unknown;
  hash?: unknown;
  articleId?: unknown;
  previous?: { articleId?: unknown };
}

/**
 * Whether the lock file knows what a journal line records of paid articles: its article id (served or kept as the earlier
 * one), or, for a create whose outcome is unknown, that create or its id. A removal or an older state of an article the
 * lock file has loses nothing.
 */
function knownTo(current: JournaledEntry | undefined, journaled: JournaledEntry | null): boolean {
  if (journaled === null) return true;
  if (typeof journaled.articleId === 'string') return current?.articleId === journaled.articleId || current?.previous?.articleId === journaled.articleId;
  if (journaled.status !== 'unknown') return true;
  return current !== undefined && (current.status === 'unknown' || (current.hash === journaled.hash && typeof current.articleId === 'string'));
}

/**
 * A journal written on another lock text: harmless when the lock file already says everything it says (a full write
 * whose removal of the journal a power loss undid). Otherwise the lock file was replaced under an interrupted run (a
 * `git pull`, a checkout): the journal holds articles it lacks, possibly paid for, and dropping it would pay for them
 * again, so the run stops and names them.
 */
function refuseLostEntries(entries: readonly { slug: string; entry: unknown }[], articles: Record<string, unknown>, lockFile: string): void {
  const last = new Map(entries.map(({ slug, entry }) => [slug, entry as JournaledEntry | null]));
  const lost = [...last].filter(([slug, entry]) => !knownTo(articles[slug] as JournaledEntry | undefined, entry));
  if (lost.length === 0) return;
  const named = lost.slice(0, 5).map(([slug, entry]) => {
    const id = (entry as { articleId?: unknown } | null)?.articleId;
    return typeof id === 'string' ? `${JSON.stringify(slug)} (article ${id})` : JSON.stringify(slug);
  });
  throw new CorruptLockError(
    lockFile,
    `its journal ${basename(journalPath(lockFile))}, left by an interrupted sync, was written on another version of the lock file ` +
      `(was it replaced by git since?) and records ${lost.length} article(s) the lock file lacks: ${named.join(', ')}${lost.length > 5 ? ', …' : ''}. ` +
      'Put back the lock file the sync was run on (git stash or checkout) and run sync once to fold the journal in, or adopt each article by id; ' +
      'delete the journal only once nothing in it was paid for',
  );
}

function parseLine<T>(line: string | undefined, number: number, lockFile: string): T | undefined {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as T;
  } catch {
    throw badLine(lockFile, number);
  }
}

function badLine(lockFile: string, number: number): CorruptLockError {
  return new CorruptLockError(
    lockFile,
    `its journal ${basename(journalPath(lockFile))} has a damaged line ${number}. Move the journal away to read the lock file as it was ` +
      'at its last full write (articles recorded since then are in the journal: keep it, and adopt them by id if needed)',
  );
}

/** A journal line of the month-by-month `spent` tally as it is now (`undefined`: none), which the monthly cap reads. */
export function spentLine(spent: unknown): string {
  return `${JSON.stringify({ spent: spent ?? null })}\n`;
}

/** One journal line: the entry as it is now (`undefined`: removed), keys in the lock file's order. */
export function journalLine(slug: string, entry: unknown): string {
  return `${JSON.stringify({ slug, entry: entry ?? null })}\n`;
}

/**
 * Appends lines to a new journal, each append durable (fdatasync) before it resolves. Used only by a process holding the
 * inter-process lock, from the create phase's first journal write to the full write that folds the journal in.
 */
export class JournalWriter {
  readonly file: string;
  #handle: FileHandle | undefined;
  #bytes = 0;

  private constructor(file: string, handle: FileHandle) {
    this.file = file;
    this.#handle = handle;
  }

  /** Starts a journal on top of the lock text with digest `base`, replacing any other journal of `lockFile`. */
  static async start(lockFile: string, base: string): Promise<JournalWriter> {
    const file = journalPath(lockFile);
    const handle = await open(file, 'w', 0o644);
    const writer = new JournalWriter(file, handle);
    await writer.append(`${JSON.stringify({ journal: 1, base } satisfies JournalHead)}\n`);
    // The journal's name in its directory must survive a power loss too, like the lock file's rename.
    const dir = await open(dirname(file), 'r').catch(() => undefined);
    await dir?.sync().catch(() => undefined);
    await dir?.close();
    return writer;
  }

  /** Bytes appended so far. */
  get bytes(): number {
    return this.#bytes;
  }

  async append(text: string): Promise<void> {
    if (this.#handle === undefined) throw new Error('JournalWriter.append after close');
    const bytes = Buffer.from(text);
    await this.#handle.write(bytes, 0, bytes.length, null);
    await this.#handle.datasync();
    this.#bytes += bytes.length;
  }

  async close(): Promise<void> {
    await this.#handle?.close();
    this.#handle = undefined;
  }
}

/** Removes the journal of `lockFile`, once a full write holds everything it said. */
export async function removeJournal(lockFile: string): Promise<void> {
  await rm(journalPath(lockFile), { force: true });
}
