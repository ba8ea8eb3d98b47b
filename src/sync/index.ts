// Sync: the canonical request, the lock file, the output cache, the planner and the create-and-poll engine.
export { billedWords, recordedWords } from './billed-words.js';
export type { BilledWords } from './billed-words.js';
export { canonicalRequest, diffRequests, explicitParameters, NON_CONTENT_PARAMETERS, requestHash } from './canonical-request.js';
export type { CanonicalRequest, CanonicalValue, RequestChange } from './canonical-request.js';
export {
  CACHE_DIR_NAME,
  emptyLockFile,
  LOCK_ENTRY_STATUSES,
  LOCK_FILE_NAME,
  LOCK_FILE_VERSION,
  lockFileSchema,
  inspectLockFile,
  parseLockFile,
  readLockFile,
  resolveLockPaths,
  serializeLockFile,
  writeLockFile,
} from './lock-file.js';
export type { LockEntry, LockEntryError, LockEntryStatus, LockFile, PreviousArticle } from './lock-file.js';
export { OutputCache, referencedOutputs, serializeOutput } from './output-cache.js';
export type { CachedOutput, CacheProblem, CacheWarning, KeyedStore } from './output-cache.js';
export { withProcessLock } from './process-lock.js';
export type { HeldLock, ProcessLockOptions } from './process-lock.js';
export { describeCreateReason, planSync } from './plan.js';
export type { CacheIndex, CreateReason, PlanAction, PlannedArticle, PlanOptions, SyncPlan, SyncService, SyncSpec } from './plan.js';
export { estimateWords, WORD_ESTIMATE_TABLE } from './word-estimate.js';
export type { WordEstimate } from './word-estimate.js';
export { blockedCreates, DEFAULT_BUDGET, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, FATAL_CODES, frozenByDefault, overBudget, UNREACHABLE_CODE } from './run-rules.js';
export type { SpendingRules } from './run-rules.js';
export { PollSchedule, resolvePollTiming } from './poll-schedule.js';
export type { PollTiming, ResolvedPollTiming } from './poll-schedule.js';
export { idempotencyKeyFor, SyncFailedError, syncArticles } from './engine.js';
export type { ServedArticle, SyncArticleResult, SyncClient, SyncEvent, SyncOptions, SyncOutcome, SyncResult, SyncTotals } from './engine.js';
export { pruneArticles, readLockState, verifyArticles } from './maintenance.js';
export type { LockState, PruneResult, VerifyProblem } from './maintenance.js';
export { adoptCommand, retryUnknownCommand, unknownCreatesExplanation, unknownCreatesLines } from './unknown-creates.js';
export type { UnknownCreate } from './unknown-creates.js';
export { adoptArticle } from './adopt.js';
export type { AdoptOptions, AdoptResult } from './adopt.js';
export type { LockIntegrityCode, LockIntegrityProblem, OutputOwner } from './lock-integrity.js';
export {
  AdoptError,
  CorruptLockError,
  FrozenLockError,
  InvalidSpecError,
  LockBusyError,
  OverBudgetError,
  SYNC_ERROR_CODES,
  SyncAbortedError,
  SyncError,
  UnsupportedLockVersionError,
} from './errors.js';
export type { AdoptErrorCode, SyncErrorCode } from './errors.js';
export { ProgressBoard } from './progress-board.js';
export type { ArticleProgress, ProgressPhase } from './progress-board.js';
