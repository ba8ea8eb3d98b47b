// The review gate: the rule that says whether an article's output has been seen, and approving or unapproving it.
export { approve, unapprove, type ApprovalChange, type ApprovalOptions, type ReviewProject } from './approvals.js';
export { ReviewError, type ReviewErrorCode } from './review-error.js';
export { entryReviewState, reviewState } from './review-rule.js';
export { ENTRY_REVIEW_STATES, REVIEW_STATES, type EntryReviewState, type ReviewState } from './review-state.js';
export { readReviewStates, reviewStates, waitingArticles, type ReviewedArticle, type WaitingArticle } from './waiting-articles.js';
