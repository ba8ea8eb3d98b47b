// Each finished entry's quality findings, kept beside Astro's store instead of on the entry (the slim entry has only their
// counts): the build log, the build summary, the toolbar panel, the near-duplicate pass and `articleDetails()` read them here.
// A build note (build-notes.ts, node_modules/.astro/astro-article-loader/findings-<collection>.bin) keeps them from one build
// to the next, so an entry the store holds unchanged needs no record read; an entry the note does not know (a note lost,
// damaged or of another version) is written again from its processed record, which holds its own findings.
import { deserialize } from 'node:v8';
import { PACKAGE_VERSION } from '../lang/package-version.js';
import type { Finding } from '../quality/finding.js';
import { noteFile, readNote, serializedNote, writeNote } from './build-notes.js';
import type { CollectionScope } from './collection-scope.js';

/** One entry's findings and the entry they belong to: its own digest (the part before a near-duplicate mark `+…`). */
interface KeptFindings {
  digest: string;
  findings: Finding[];
}

/**
 * The note's first line: another version's note (or another layout's) is a miss, read no further. Layout 2 keeps each entry as
 * one list of text, `[slug, digest, code, severity, message, code, …]`: as objects, 76,000 findings at 10,000 articles took
 * 62-103 ms to write and 121-144 ms to read back, against 40-49 ms, and 28-113 ms with the findings made again.
 */
const HEAD = `astro-article-loader ${PACKAGE_VERSION} findings 2\n`;

export class FindingsBook {
  readonly #file: string;
  readonly #entries: Map<string, KeptFindings>;
  #changed = false;

  constructor(file: string, entries: Map<string, KeptFindings>) {
    this.#file = file;
    this.#entries = entries;
  }

  /** The findings of the entry of `slug` whose own digest is `digest`; undefined when the book has none for that entry. */
  get(slug: string, digest: string | undefined): readonly Finding[] | undefined {
    const kept = this.#entries.get(slug);
    return kept !== undefined && digest !== undefined && kept.digest === digest ? kept.findings : undefined;
  }

  /** An entry written: its own findings (the processed record's) replace whatever was kept for its slug. */
  write(slug: string, digest: string, findings: readonly Finding[]): void {
    this.#entries.set(slug, { digest, findings: [...findings] });
    this.#changed = true;
  }

  /** The entry's near_duplicate findings as the pass decided them, in place of the ones it had. */
  setNearDuplicates(slug: string, nearDuplicates: readonly Finding[]): void {
    const kept = this.#entries.get(slug);
    if (kept === undefined) return;
    kept.findings = [...kept.findings.filter((finding) => finding.code !== 'near_duplicate'), ...nearDuplicates];
    this.#changed = true;
  }

  /** The findings of a store entry, by its id and own digest (none when the book does not know it). */
  ofEntry(entry: { id: string; digest?: string | number | undefined }): readonly Finding[] {
    return this.get(entry.id, ownDigest(entry.digest)) ?? [];
  }

  /** Kept for the next build: only the slugs still in the store, and only when something changed. */
  async save(slugs: Iterable<string>): Promise<void> {
    const present = new Set(slugs);
    for (const slug of [...this.#entries.keys()]) {
      if (present.has(slug)) continue;
      this.#entries.delete(slug);
      this.#changed = true;
    }
    if (!this.#changed) return;
    this.#changed = false;
    const kept: string[][] = [];
    for (const [slug, { digest, findings }] of this.#entries) {
      const flat = [slug, digest];
      for (const finding of findings) flat.push(finding.code, finding.severity, finding.message);
      kept.push(flat);
    }
    await writeNote(this.#file, serializedNote(HEAD, kept));
  }
}

/** A store digest with the near-duplicate mark the pass gave it: the part before `+` is the entry's own. */
export function ownDigest(digest: string | number | undefined): string | undefined {
  return digest === undefined ? undefined : String(digest).split('+')[0];
}

/** One book per collection session, read from its note at the first pass. */
const books = new WeakMap<CollectionScope, Promise<FindingsBook>>();

export function findingsBook(scope: CollectionScope): Promise<FindingsBook> {
  let book = books.get(scope);
  if (book === undefined) {
    book = readFindingsBook(noteFile(scope.astroCacheDir, 'findings', scope.context.collection, 'bin'));
    books.set(scope, book);
  }
  return book;
}

/** The book kept in the note `file`; an empty one when the note is missing, damaged or of another version. */
export async function readFindingsBook(file: string): Promise<FindingsBook> {
  const kept = await readNote<unknown[]>(file, deserialize, HEAD);
  const entries = new Map<string, KeptFindings>();
  // Our own note, but a damaged one must not put wrong findings on a page: an entry not of the kept shape is left out.
  if (Array.isArray(kept)) {
    for (const flat of kept) {
      if (!Array.isArray(flat) || flat.length < 2 || (flat.length - 2) % 3 !== 0 || !flat.every((part) => typeof part === 'string')) continue;
      // Every finding of an entry names the entry (its record's checks and the near-duplicate pass write them so): the slug is kept once.
      const [slug, digest] = flat as string[];
      const findings: Finding[] = [];
      for (let at = 2; at < flat.length; at += 3) findings.push({ slug: slug!, code: flat[at], severity: flat[at + 1], message: flat[at + 2] } as Finding);
      entries.set(slug!, { digest: digest!, findings });
    }
  }
  return new FindingsBook(file, entries);
}
