// The review states an article can be in: a list with no imports, so the entry schema can name them without loading the rule.

/**
 * - `approved`: the output the article serves now is the one approved (`approve`); the approval names its hash.
 * - `edited`: the owner's hand edit (`articles.edits/<slug>.html`) is served: its author has read it.
 * - `waiting`: neither; with the gate on, a build leaves it out until it is approved.
 */
export const REVIEW_STATES = ['approved', 'edited', 'waiting'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** What `entry.data.review.state` may say: a review state, or `not-required` when the gate is off. */
export const ENTRY_REVIEW_STATES = [...REVIEW_STATES, 'not-required'] as const;
export type EntryReviewState = (typeof ENTRY_REVIEW_STATES)[number];
