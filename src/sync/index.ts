// Sync: the canonical request, the lock file, the output cache, the planner and the create-and-poll engine.
export { billedWords, recordedWords, type BilledWords } from './billed-words.js';
export { billedByService, type WrittenBy } from '../contract/emulator-billing.js';
export {
  canonicalRequest, diffRequests, explicitParameters, NON_CONTENT_PARAMETERS, requestHash,
  type CanonicalRequest, type CanonicalValue, type RequestChange
} from './canonical-request.js';
export {
  CACHE_DIR_NAME, emptyLockFile, LOCK_ENTRY_STATUSES, LOCK_FILE_NAME, LOCK_FILE_VERSION, lockFileSchema,
  inspectLockFile, lockPathsForManifest, parseLockFile, readLockFile, recordedSlugs, resolveLockPaths, serializeLockFile, writeLockFile,
  type LockApproval, type LockEntry, type LockEntryError, type LockEntryStatus, type LockFile, type MonthSpend, type PreviousArticle
} from './lock-file.js';
export {
  OutputCache, referencedOutputs, serializeOutput, type CachedOutput, type CacheProblem, type CacheWarning,
  type KeyedStore
} from './output-cache.js';
export { ProcessedStore, type ProcessedProblem } from './processed-store.js';
export { servedOf } from './served-output.js';
export { withProcessLock, type HeldLock, type ProcessLockOptions } from './process-lock.js';
export { LockSession, type LockMutation } from './lock-session.js';
export { journalPath } from './lock-journal.js';
export { isOwnLockWrite } from './own-lock-writes.js';
export { lastVerifiedLock, noteVerifiedLock } from './verified-locks.js';
export { recordDates, recordedDates, type RecordedDates } from './recorded-dates.js';
export {
  describeCreateReason, planSync, type CacheIndex, type CreateReason, type PlanAction, type PlannedArticle,
  type PlanOptions, type SyncPlan, type SyncService, type SyncSpec
} from './plan.js';
export { estimateWords, WORD_ESTIMATE_TABLE, type WordEstimate } from './word-estimate.js';
export {
  blockedCreates, DEFAULT_BUDGET, DEFAULT_CREATE_CONCURRENCY, DEFAULT_RUN_TIMEOUT_MS, FATAL_CODES, frozenByDefault,
  monthlyCap, monthlyRoom, OFFLINE_POLL_MS, overBudget, pollTiming, UNREACHABLE_CODE, type MonthlyCap, type SpendingRules
} from './run-rules.js';
export { countsAsSpend, monthOf, spentIn } from './month-spend.js';
export { DEFAULT_POLL_TIMING, PollSchedule, resolvePollTiming, type PollTiming, type ResolvedPollTiming } from './poll-schedule.js';
export {
  idempotencyKeyFor, SyncFailedError, syncArticles, type ServedArticle, type SyncArticleResult,
  type SyncClient, type SyncEvent, type SyncOptions, type SyncOutcome, type SyncResult, type SyncTotals
} from './engine.js';
export {
  pruneArticles, readLockState, verifyArticles, type LockState, type PruneResult, type VerifyProblem
} from './maintenance.js';
export {
  adoptCommand, retryUnknownCommand, unknownCreatesExplanation, unknownCreatesLines, type UnknownCreate
} from './unknown-creates.js';
export { notReadyAdvice, notReadyLines, notReadyMessage, type NotReadyArticle } from './not-ready.js';
export { editFile, editHash, editIsBehind, editProblems, editsDirFor, listEdits, readEdit, writeEdit, type EditProblem, type HandEdit } from './edits.js';
export { adoptArticle, isArticleId, type AdoptOptions, type AdoptResult } from './adopt.js';
export { startEdit, type StartEditOptions, type StartedEdit } from './start-edit.js';
export { checkRegenerable, regenerationPlan } from './regeneration.js';
export { approvedPrevious, firstCreatedAt } from './lock-entry-records.js';
export {
  articleAge, dueArticles, editedPastDue, formatAge, refreshesWithinBudget, servedSince,
  type ArticleAge, type RefreshSpec, type RefreshState
} from './refresh-due.js';
export type { OutputOwner } from './lock-integrity.js';
// Every error class and code of sync, and the lock integrity problem types.
export * from './errors.js';
export { ProgressBoard, type ArticleProgress, type ProgressPhase } from './progress-board.js';
