// Records kept in a lock entry: its billing figures, the earlier finished article it may carry, its first creation date and its approval.
import type { BilledWords } from './billed-words.js';
import type { LockEntry, LockFile, PreviousArticle } from './lock-file.js';
import { servedOf } from './served-output.js';

/** The billing record of an entry or a previous article, as far as it was recorded. */
export function billedOf(record: Partial<BilledWords>): Partial<BilledWords> {
  return {
    ...(record.words === undefined ? {} : { words: record.words }),
    ...(record.images === undefined ? {} : { images: record.images }),
    ...(record.imageWords === undefined ? {} : { imageWords: record.imageWords }),
  };
}

/**
 * The earlier article a finished entry keeps because its approval names it: with the review gate on, the approved
 * article stays on the site while the new one (a regenerate, a refresh) waits for review. Dropped on approval.
 */
export function approvedPrevious(entry: LockEntry | undefined): PreviousArticle | undefined {
  const previous = entry?.previous;
  return previous !== undefined && entry?.approved !== undefined && entry.approved.output === previous.output && entry.approved.output !== entry.output ? previous : undefined;
}

export function previousOf(entry: LockEntry | undefined): PreviousArticle | undefined {
  if (entry === undefined) return undefined;
  // Rewritten again before the new article was approved: the approved one is still what the site shows.
  return approvedPrevious(entry) ?? finishedArticleOf(entry) ?? entry.previous;
}

/** The entry's own article as a previous article, when it is finished. */
export function finishedArticleOf(entry: LockEntry): PreviousArticle | undefined {
  if (entry.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) return undefined;
  return {
    hash: entry.hash,
    articleId: entry.articleId,
    output: entry.output,
    ...(entry.finishedAt === undefined ? {} : { finishedAt: entry.finishedAt }),
    ...billedOf(entry),
    ...(entry.emulator === true ? { emulator: true as const } : {}),
  };
}

/**
 * `entry.data.createdAt` of the article `servedArticleId`: the entry's first article's creation, kept across regenerate
 * and refresh; without that record, the entry's `createdAt` when the entry is that article's, else null.
 */
export function firstCreatedAt(entry: LockEntry | undefined, servedArticleId: string): string | null {
  if (entry === undefined) return null;
  if (entry.firstCreatedAt !== undefined) return entry.firstCreatedAt;
  return entry.articleId === servedArticleId ? entry.createdAt : null;
}

/**
 * The approval a rewritten entry keeps: it names the output it approved, so while the earlier article is served
 * (a regenerate being written, a restore) it still approves that one, and never the new output.
 */
export function approvalOf(entry: LockEntry | undefined): Pick<LockEntry, 'approved'> {
  return entry?.approved === undefined ? {} : { approved: entry.approved };
}

/** What `verify` says of an approval whose output the entry no longer serves (regenerated, or fetched again changed). */
export interface ApprovalProblem {
  code: 'stale_approval';
  severity: 'warning';
  slug: string;
  message: string;
}

/**
 * Approvals of outputs that no longer exist in the lock file. A warning, not an error: the gate compares hashes, so
 * such an approval approves nothing (the article waits for review); nothing is lost, paid or published unseen.
 */
export function approvalProblems(lock: LockFile): ApprovalProblem[] {
  return Object.entries(lock.articles).flatMap(([slug, entry]) => {
    const approved = entry.approved;
    if (approved === undefined || approved.output === servedOf(entry)?.output || approvedPrevious(entry) !== undefined) return [];
    return [{
      code: 'stale_approval' as const,
      severity: 'warning' as const,
      slug,
      message: `the approval of "${slug}" (${approved.approvedAt}) is for output ${approved.output.slice(0, 19)}…, which the lock file no longer serves (regenerated, or fetched again changed); the article waits for review: read it, then \`astro-article-loader approve ${slug}\` (or \`unapprove ${slug}\` to clear this)`,
    }];
  });
}
