// Approving and unapproving articles: recorded on each slug's lock entry against the output it serves, under the inter-process lock, written atomically.
import { LockSession, readLockState, servedOf, type LockEntry, type LockFile, type ProcessLockOptions } from '../sync/index.js';
import { ReviewError } from './review-error.js';

/** The articles an approval may name, and the lock file it is recorded in. */
export interface ReviewProject {
  lockFile: string;
  /** The manifest's slugs: a slug outside them is refused. Without them, the lock file's slugs are the known ones. */
  slugs?: readonly string[];
  /** The manifest's name, for messages (e.g. "articles.yaml"). */
  manifestName?: string;
}

/** What one slug's approval (or its removal) did. */
export interface ApprovalChange {
  slug: string;
  /** The output approved (or whose approval was removed); null when an unapprove found none. */
  output: string | null;
  /** False when the lock file already said so: nothing was written for it. */
  changed: boolean;
}

export interface ApprovalOptions {
  /** The inter-process lock's waits (default: as a build's). */
  lock?: ProcessLockOptions;
  /** The time recorded (default: now). */
  now?: () => Date;
}

/**
 * Approves the output each slug serves now. All or nothing: an unknown slug, or one with no output yet, is refused
 * with a `ReviewError` naming every such slug, and the lock file is not written at all.
 */
export async function approve(project: ReviewProject, slugs: readonly string[], options: ApprovalOptions = {}): Promise<ApprovalChange[]> {
  const approvedAt = (options.now?.() ?? new Date()).toISOString();
  return changeApprovals(project, slugs, options, (slug, entry) => {
    const output = checkedOutput(entry);
    if (entry.approved?.output === output) return { slug, output, changed: false };
    entry.approved = { output, approvedAt };
    // The approved earlier article a finished entry kept for the site (see sync's `approvedPrevious`) is replaced by this one.
    if (entry.status === 'finished' && entry.output === output) delete entry.previous;
    return { slug, output, changed: true };
  });
}

/** Removes the approval of each slug (its article waits for review again). Refused like `approve`: nothing written. */
export async function unapprove(project: ReviewProject, slugs: readonly string[], options: ApprovalOptions = {}): Promise<ApprovalChange[]> {
  return changeApprovals(project, slugs, options, (slug, entry) => {
    checkedOutput(entry);
    const output = entry.approved?.output ?? null;
    if (entry.approved === undefined) return { slug, output, changed: false };
    delete entry.approved;
    return { slug, output, changed: true };
  });
}

/** The output an entry serves; the caller has checked there is one. */
function checkedOutput(entry: LockEntry): string {
  return servedOf(entry)!.output;
}

/** Checks every slug first, then applies `change` to each entry and writes once, all under the inter-process lock. */
async function changeApprovals(
  project: ReviewProject,
  slugs: readonly string[],
  options: ApprovalOptions,
  change: (slug: string, entry: LockEntry) => ApprovalChange,
): Promise<ApprovalChange[]> {
  const unique = [...new Set(slugs)];
  // An approval names the output an entry serves: refused, as sync and a build refuse, when an entry points at another article's output.
  await readLockState(project.lockFile, { checkOutputs: true });
  const session = new LockSession(project.lockFile, options.lock ?? {});
  let changes: ApprovalChange[] = [];
  await session.update((lock) => {
    refuseUnknown(project, lock, unique);
    changes = unique.map((slug) => change(slug, lock.articles[slug]!));
    // The approval carries its own time; `updatedAt` stays the article's, so approving rewrites nothing else.
    return changes.some((item) => item.changed);
  });
  return changes;
}

/** Slugs not in the manifest (or lock file), then slugs with nothing served yet: one error naming them all. */
function refuseUnknown(project: ReviewProject, lock: LockFile, slugs: readonly string[]): void {
  const known = new Set(project.slugs ?? Object.keys(lock.articles));
  const where = project.manifestName ?? 'the lock file';
  const unknown = slugs.filter((slug) => !known.has(slug));
  if (unknown.length > 0) {
    throw new ReviewError('review_unknown_slug', `${listed(unknown)} ${unknown.length === 1 ? 'is not an article' : 'are not articles'} of ${where}; give slugs as \`astro-article-loader plan\` lists them. Nothing was changed.`, unknown);
  }
  const noOutput = slugs.filter((slug) => servedOf(lock.articles[slug]) === undefined);
  if (noOutput.length > 0) {
    const states = noOutput.map((slug) => `"${slug}" (${lock.articles[slug]?.status ?? 'never created'})`).join(', ');
    throw new ReviewError('review_no_output', `${states}: no finished article to review yet; run a build or sync first. Nothing was changed.`, noOutput);
  }
}

function listed(slugs: readonly string[]): string {
  return slugs.map((slug) => `"${slug}"`).join(', ');
}
