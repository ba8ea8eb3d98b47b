// The review gate in a pass: whether it is on, which articles a build leaves out because nobody approved their output, and the log lines that say so.
import { relative } from 'node:path';
import { plural } from '../lang/count-text.js';
import type { Manifest } from '../manifest/index.js';
import { approvedFallback, entryReviewState, reviewState } from '../review/review-rule.js';
import type { EntryReviewState } from '../review/review-state.js';
import type { LockEntry, SyncResult } from '../sync/index.js';
import type { CollectionScope } from './collection-scope.js';
import type { FindingsBook } from './findings-book.js';
import type { PassContext } from './pass-context.js';

/** Whether the gate was on in each scope's last pass, for the placeholders written between passes. */
const lastRequired = new WeakMap<CollectionScope, boolean>();

/** The articles each scope's last build pass left out waiting for review. */
const lastWaiting = new WeakMap<CollectionScope, readonly string[]>();

/** The manifests the CLI finds without `--manifest`. */
const CONVENTIONAL = new Set(['articles.yaml', 'articles.yml', 'articles.json', 'articles.csv']);

/**
 * Whether the gate is on: the loader option `review` when given (it wins for the build), else the manifest's
 * `review:`, else off. When both are given and differ, the log says once that the CLI reads the manifest's.
 */
export function reviewRequired(scope: CollectionScope, manifest: Manifest): boolean {
  const option = scope.options.review;
  if (option !== undefined && manifest.review !== undefined && option !== manifest.review) scope.log.reviewSettingDiffers(option, manifest.review, manifest.file);
  const required = option ?? manifest.review ?? false;
  lastRequired.set(scope, required);
  return required;
}

/** A placeholder's `entry.data.review.state`: nothing is served yet, so with the gate on it waits. */
export function placeholderReview(scope: CollectionScope): EntryReviewState {
  return lastRequired.get(scope) === true ? 'waiting' : 'not-required';
}

/** What `entry.data.review.state` says for one article of the pass. */
export function entryReview(scope: CollectionScope, pass: PassContext, slug: string, lockEntry: LockEntry | undefined, output: string): EntryReviewState {
  return entryReviewState(reviewRequired(scope, pass.manifest), lockEntry, pass.edits.has(slug), output);
}

/**
 * A build with the gate on: the articles it would serve whose output is neither approved nor hand-edited. They are
 * left out like drafts (synced and paid for, never published unseen); the dev server shows them, marked.
 */
export function waitingForReview(scope: CollectionScope, pass: PassContext, articles: SyncResult['articles']): ReviewHold {
  // Asked in dev too: the placeholders of the pass follow it.
  const required = reviewRequired(scope, pass.manifest);
  const hold: ReviewHold = { leftOut: new Set(), keptApproved: [] };
  if (scope.dev || !required) return hold;
  const served = articles.filter((article) => article.serve !== undefined && !pass.unpublished.has(article.slug));
  for (const article of served.filter((candidate) => reviewState(candidate.entry, pass.edits.has(candidate.slug)) === 'waiting')) {
    // A new output waiting beside an approved earlier one: the build shows the approved one (`readOutput` follows `serve`).
    const fallback = approvedFallback(article.entry);
    if (fallback === undefined) hold.leftOut.add(article.slug);
    else {
      article.serve = fallback;
      hold.keptApproved.push(article.slug);
    }
  }
  return hold;
}

/** What the gate holds back in a build: the articles left out, and those whose approved earlier article is built while the new one waits. */
export interface ReviewHold {
  leftOut: Set<string>;
  keptApproved: string[];
}

/** The log's list of the articles waiting, and the command that approves them. */
export function logWaiting(scope: CollectionScope, pass: PassContext, hold: ReviewHold): void {
  const waiting = hold.leftOut;
  const slugs = [...waiting].sort();
  lastWaiting.set(scope, slugs);
  if (hold.keptApproved.length > 0) {
    const kept = [...hold.keptApproved].sort();
    scope.log.logger.info(
      `${plural(kept.length, 'article has a new version', 'articles have new versions')} waiting for review; the approved ${kept.length === 1 ? 'one stays' : 'ones stay'} on the site until you approve: ${kept.join(', ')}.`,
    );
  }
  if (waiting.size === 0) return;
  const shown = slugs.length > 10 ? `${slugs.slice(0, 10).join(', ')} and ${slugs.length - 10} more` : slugs.join(', ');
  const manifestFlag = projectFlag(scope, pass);
  const command = `npx astro-article-loader approve${manifestFlag} ${slugs.length > 3 ? '<slug…>' : slugs.join(' ')}`;
  scope.log.logger.info(
    `${plural(waiting.size, 'article waits', 'articles wait')} for review and ${waiting.size === 1 ? 'is' : 'are'} left out of the build: ${shown}. ` +
      `Read ${waiting.size === 1 ? 'it' : 'them'} in \`astro dev\` (marked "needs review"), then approve: ${command} ` +
      `(or \`npx astro-article-loader approve${manifestFlag} --all-clean\` for every one with no error finding).`,
  );
}

/** The flag that points the CLI at this collection: none for a conventional manifest at the root, else its manifest (or, inline, its lock file). */
function projectFlag(scope: CollectionScope, pass: PassContext): string {
  if (scope.options.manifest.kind !== 'file') return ` --lock-file ${relative(scope.root, pass.lockFile)}`;
  const file = relative(scope.root, pass.manifest.file);
  return CONVENTIONAL.has(file) ? '' : ` --manifest ${file}`;
}

/**
 * What the build summary says of the gate after a pass (undefined when it is off): the articles left out waiting,
 * and the approved ones built although a check found an error (the owner decided; the summary says so).
 */
export function reviewOutcome(scope: CollectionScope, findings: FindingsBook): { waiting: string[]; approvedWithErrors: string[] } | undefined {
  if (lastRequired.get(scope) !== true) return undefined;
  // The findings from the book the pass kept (findings-book.ts), as the log and the panel read them; the review state from the entry.
  const approvedWithErrors = [...scope.context.store.values()]
    .filter((entry) => {
      const data = entry.data as { review?: { state?: unknown } };
      return data.review?.state === 'approved' && findings.ofEntry(entry).some((finding) => finding.severity === 'error');
    })
    .map((entry) => entry.id)
    .sort();
  return { waiting: [...(lastWaiting.get(scope) ?? [])], approvedWithErrors };
}
