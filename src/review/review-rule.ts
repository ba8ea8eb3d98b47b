// The review gate's rule: whether a person has seen the output an article serves, from its lock entry and its hand edit.
import { servedOf, type LockEntry } from '../sync/index.js';
import type { EntryReviewState, ReviewState } from './review-state.js';

/**
 * The review state of an article: `edited` when a hand edit is served, `approved` when the approval recorded on its
 * lock entry names the output it serves (its own, or the earlier one while a new request is written), else
 * `waiting`. A regenerated or refreshed article serves another output, so its old approval no longer counts.
 */
export function reviewState(entry: LockEntry | undefined, edited: boolean): ReviewState {
  if (edited) return 'edited';
  const served = servedOf(entry);
  return served !== undefined && entry?.approved?.output === served.output ? 'approved' : 'waiting';
}

/** The state an entry's data carries: the review state with the gate on, `not-required` with it off. */
export function entryReviewState(required: boolean, entry: LockEntry | undefined, edited: boolean): EntryReviewState {
  return required ? reviewState(entry, edited) : 'not-required';
}
