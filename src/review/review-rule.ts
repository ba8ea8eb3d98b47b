// The review gate's rule: whether a person has seen the output an article serves, from its lock entry and its hand edit.
import { approvedPrevious, servedOf, type LockEntry, type ServedArticle } from '../sync/index.js';
import type { EntryReviewState, ReviewState } from './review-state.js';

/**
 * The review state of an article: `edited` when a hand edit is served, `approved` when the approval recorded on its
 * lock entry names the output it serves (its own, or the earlier one while a new request is written), else
 * `waiting`. A regenerated or refreshed article serves another output, so its old approval no longer counts.
 */
export function reviewState(entry: LockEntry | undefined, edited: boolean, output: string | undefined = servedOf(entry)?.output): ReviewState {
  if (edited) return 'edited';
  return output !== undefined && entry?.approved?.output === output ? 'approved' : 'waiting';
}

/** The state an entry's data carries for the output it shows: the review state with the gate on, `not-required` with it off. */
export function entryReviewState(required: boolean, entry: LockEntry | undefined, edited: boolean, output?: string): EntryReviewState {
  return required ? reviewState(entry, edited, output ?? servedOf(entry)?.output) : 'not-required';
}

/**
 * What a build publishes, with the gate on, for an article whose new output waits: the approved earlier article its
 * lock entry keeps (a regenerate or refresh of an approved article), else nothing — it is left out.
 */
export function approvedFallback(entry: LockEntry | undefined): ServedArticle | undefined {
  const kept = approvedPrevious(entry);
  return kept === undefined ? undefined : { output: kept.output, articleId: kept.articleId, hash: kept.hash, current: false, emulator: kept.emulator === true };
}
