// The errors the lock file, the output cache and the sync engine throw: each with a stable code and a fix.
import { ArticleLoaderError } from '../errors.js';

export const SYNC_ERROR_CODES = [
  'corrupt_lock',
  'unsupported_lock_version',
  'lock_read_failed',
  'lock_write_failed',
  'lock_busy',
  'lock_compromised',
  'invalid_spec',
  'frozen',
  'over_budget',
  'over_monthly_cap',
  'sync_failed',
  'aborted',
  'output_unavailable',
  'adopt_unknown_slug',
  'adopt_keyword_mismatch',
  'adopt_failed_article',
  'adopt_finished_entry',
] as const;
export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];

/**
 * - `duplicate_key`: a key given twice in one JSON object; `JSON.parse` would silently keep the last
 *   one (a paid article id lost, or another entry's fields used).
 * - `request_hash_mismatch`: an entry's `hash` is not the hash of its recorded `request` (edited by
 *   hand or a bad merge). Never read as "the request changed, create again".
 * - `output_mismatch`: an entry points at a cached output fetched for another article.
 */
export type LockIntegrityCode = 'duplicate_key' | 'request_hash_mismatch' | 'output_mismatch';

/** One reason a lock file that parses cannot be trusted (see lock-integrity.ts). */
export interface LockIntegrityProblem {
  code: LockIntegrityCode;
  /** The lock entry concerned, when there is one. */
  slug?: string;
  /** 1-based line in the lock file, where it is known. */
  line?: number;
  message: string;
}

/** Base of every error the sync layer throws itself (client errors pass through unchanged). */
export class SyncError extends ArticleLoaderError {
  declare readonly code: SyncErrorCode;

  constructor(code: SyncErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** The lock file is not JSON, does not have the lock file's shape, or fails an integrity check. It is never overwritten. */
export class CorruptLockError extends SyncError {
  declare readonly code: 'corrupt_lock';
  readonly file: string;
  /** Integrity problems (duplicate keys, hashes, outputs), each naming its slug; empty when the file does not parse. */
  readonly problems: readonly LockIntegrityProblem[];

  /** `problem`: why the file does not parse, or the integrity problems of a file that does. */
  constructor(file: string, problem: string | readonly LockIntegrityProblem[], options?: { cause?: unknown }) {
    super('corrupt_lock', typeof problem === 'string' ? unreadableMessage(file, problem) : untrustedMessage(file, problem), options);
    this.file = file;
    this.problems = typeof problem === 'string' ? [] : problem;
  }
}

function unreadableMessage(file: string, problem: string): string {
  return (
    `The lock file ${file} is corrupt: ${problem}. It was left untouched. ` +
    'Restore it from version control (git checkout -- <file>), or resolve the merge conflict in it; ' +
    'deleting it makes the next build create (and pay for) every article again.'
  );
}

/** The file parses but cannot be trusted: nothing is created or rewritten until a person looks. */
function untrustedMessage(file: string, problems: readonly LockIntegrityProblem[]): string {
  const listed = problems.slice(0, 20).map((p) => `\n  - ${p.code}: ${p.message}`);
  if (problems.length > 20) listed.push(`\n  - … and ${problems.length - 20} more`);
  return (
    `The lock file ${file} cannot be trusted (${problems.length === 1 ? '1 integrity problem' : `${problems.length} integrity problems`}):${listed.join('')}\n` +
    `Nothing was created and the file was left untouched. See what changed with \`git diff -- ${file}\` and restore it with ` +
    `\`git checkout -- ${file}\`, or mend the entries named above by hand; \`astro-article-loader verify\` lists every problem. ` +
    'Deleting an entry (or the file) makes the next build pay for its article again.'
  );
}

/** The lock file was written by a newer (or unknown) version of this package. */
export class UnsupportedLockVersionError extends SyncError {
  declare readonly code: 'unsupported_lock_version';
  readonly file: string;
  readonly version: unknown;

  constructor(file: string, version: unknown, supported: number) {
    super(
      'unsupported_lock_version',
      // A number as written (JSON.stringify would turn 1e999, read as Infinity, into "null").
      `The lock file ${file} has version ${typeof version === 'number' ? String(version) : JSON.stringify(version)}, but this version of astro-article-loader ` +
        `reads version ${supported} only. It was left untouched. Upgrade astro-article-loader to the version that wrote it.`,
    );
    this.file = file;
    this.version = version;
  }
}

/** Another build held the lock file for longer than we were willing to wait. */
export class LockBusyError extends SyncError {
  declare readonly code: 'lock_busy';
  constructor(file: string, waitedMs: number) {
    super(
      'lock_busy',
      `Another build has held the lock on ${file} for ${Math.round(waitedMs / 1000)} s. ` +
        `Wait for it to finish, or, if no other build is running, remove the directory ${file}.lock.`,
    );
  }
}

/** Some specs cannot be synced (bad slug, duplicate slug, invalid request). */
export class InvalidSpecError extends SyncError {
  declare readonly code: 'invalid_spec';
  readonly problems: string[];

  constructor(problems: string[]) {
    super('invalid_spec', `Cannot sync these articles:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Frozen mode (CI) found articles that would have to be created. Nothing was created. */
export class FrozenLockError extends SyncError {
  declare readonly code: 'frozen';
  readonly slugs: string[];

  constructor(lockFile: string, creates: { slug: string; reason: string }[]) {
    const listed = creates.slice(0, 50).map((c) => `  - ${c.slug} (${c.reason})`);
    if (creates.length > 50) listed.push(`  - … and ${creates.length - 50} more`);
    super(
      'frozen',
      `Frozen mode: ${creates.length} article(s) would be created, but a frozen build never creates articles. ` +
        `Nothing was created.\n${listed.join('\n')}\n` +
        `Run a build without frozen mode (or \`astro-article-loader sync\`) where spending is allowed, then commit ` +
        `${lockFile} and the cache directory next to it. (Frozen mode is on when CI is set; the loader ` +
        'option `frozen: false` or the CLI flag `--no-frozen` turns it off.)',
    );
    this.slugs = creates.map((c) => c.slug);
  }
}

/** More articles would be created than the budget allows. Nothing was created. */
export class OverBudgetError extends SyncError {
  declare readonly code: 'over_budget';
  readonly count: number;
  readonly budget: number;
  readonly slugs: string[];

  constructor(creates: { slug: string; reason: string }[], budget: number, estimatedWords: number) {
    const listed = creates.slice(0, 20).map((c) => `  - ${c.slug} (${c.reason})`);
    if (creates.length > 20) listed.push(`  - … and ${creates.length - 20} more`);
    super(
      'over_budget',
      `This build would create ${creates.length} new article(s) (about ${estimatedWords} words), ` +
        `over the budget of ${budget} per run. Nothing was created.\n${listed.join('\n')}\n` +
        `If this is intended, raise the budget: the loader option \`budget: ${creates.length}\` or the CLI flag ` +
        `\`--budget ${creates.length}\`. If not, check the manifest's defaults: a change there changes every article.`,
    );
    this.count = creates.length;
    this.budget = budget;
    this.slugs = creates.map((c) => c.slug);
  }
}

/** More paid creates than the manifest's monthly cap (`budget.perMonth`) leaves this month, counted in the lock file's `spent`. */
export class OverMonthlyCapError extends SyncError {
  declare readonly code: 'over_monthly_cap';
  readonly count: number;
  readonly perMonth: number;
  readonly spent: number;
  readonly slugs: string[];

  constructor(creates: { slug: string; reason: string }[], perMonth: number, spent: number, month: string) {
    const listed = creates.slice(0, 20).map((c) => `  - ${c.slug} (${c.reason})`);
    if (creates.length > 20) listed.push(`  - … and ${creates.length - 20} more`);
    const left = Math.max(0, perMonth - spent);
    super(
      'over_monthly_cap',
      `This run would create ${creates.length} new article(s), but the manifest's monthly cap (budget.perMonth: ${perMonth}) leaves ` +
        `${left} for ${month}: ${spent} ${spent === 1 ? 'was' : 'were'} created this month already (the lock file's "spent"). Nothing was created.\n` +
        `${listed.join('\n')}\n` +
        `Wait for next month, raise budget.perMonth in the manifest, or create fewer at a time (\`regenerate <slug>\`, or \`autopilot\`, which takes what fits).`,
    );
    this.count = creates.length;
    this.perMonth = perMonth;
    this.spent = spent;
    this.slugs = creates.map((c) => c.slug);
  }
}

/** The run was stopped by its AbortSignal. The lock file is consistent and keeps every article id. */
export class SyncAbortedError extends SyncError {
  declare readonly code: 'aborted';
  constructor() {
    super('aborted', 'The sync was stopped. The lock file is consistent and keeps the id of every article created so far; run it again to resume.');
  }
}

export type AdoptErrorCode = 'adopt_unknown_slug' | 'adopt_keyword_mismatch' | 'adopt_failed_article' | 'adopt_finished_entry';

/** `adopt` was refused: the slug, the article or the entry is not one an id can be attached to. The lock file is untouched. */
export class AdoptError extends SyncError {
  declare readonly code: AdoptErrorCode;

  constructor(code: AdoptErrorCode, message: string) {
    super(code, message);
  }
}
