import { describe, expect, it } from 'vitest';
import * as sync from '../../src/sync/index.js';

describe('src/sync public API', () => {
  it('should expose exactly these names', () => {
    expect(Object.keys(sync).sort()).toEqual([
      'AdoptError',
      'CACHE_DIR_NAME',
      'CorruptLockError',
      'DEFAULT_BUDGET',
      'DEFAULT_CREATE_CONCURRENCY',
      'DEFAULT_POLL_TIMING',
      'DEFAULT_RUN_TIMEOUT_MS',
      'FATAL_CODES',
      'FrozenLockError',
      'InvalidSpecError',
      'LOCK_ENTRY_STATUSES',
      'LOCK_FILE_NAME',
      'LOCK_FILE_VERSION',
      'LockBusyError',
      'LockSession',
      'NON_CONTENT_PARAMETERS',
      'OFFLINE_POLL_MS',
      'OutputCache',
      'OverBudgetError',
      'PollSchedule',
      'ProcessedStore',
      'ProgressBoard',
      'SYNC_ERROR_CODES',
      'SyncAbortedError',
      'SyncError',
      'SyncFailedError',
      'UNREACHABLE_CODE',
      'UnsupportedLockVersionError',
      'WORD_ESTIMATE_TABLE',
      'adoptArticle',
      'adoptCommand',
      'approvedPrevious',
      'articleAge',
      'billedByService',
      'billedWords',
      'blockedCreates',
      'canonicalRequest',
      'checkRegenerable',
      'describeCreateReason',
      'diffRequests',
      'dueArticles',
      'editFile',
      'editHash',
      'editIsBehind',
      'editProblems',
      'editedPastDue',
      'editsDirFor',
      'emptyLockFile',
      'estimateWords',
      'explicitParameters',
      'firstCreatedAt',
      'formatAge',
      'frozenByDefault',
      'idempotencyKeyFor',
      'inspectLockFile',
      'isArticleId',
      'isOwnLockWrite',
      'lastVerifiedLock',
      'listEdits',
      'lockFileSchema',
      'lockPathsForManifest',
      'notReadyAdvice',
      'notReadyLines',
      'notReadyMessage',
      'noteVerifiedLock',
      'overBudget',
      'parseLockFile',
      'planSync',
      'pollTiming',
      'pruneArticles',
      'readEdit',
      'readLockFile',
      'readLockState',
      'recordDates',
      'recordedDates',
      'recordedWords',
      'referencedOutputs',
      'refreshesWithinBudget',
      'regenerationPlan',
      'requestHash',
      'resolveLockPaths',
      'resolvePollTiming',
      'retryUnknownCommand',
      'serializeLockFile',
      'serializeOutput',
      'servedOf',
      'servedSince',
      'startEdit',
      'syncArticles',
      'unknownCreatesExplanation',
      'unknownCreatesLines',
      'verifyArticles',
      'withProcessLock',
      'writeEdit',
      'writeLockFile',
    ]);
  });

  it('should make every error an ArticleLoaderError with a stable code', async () => {
    const { ArticleLoaderError } = await import('../../src/errors.js');
    const error = new sync.OverBudgetError([{ slug: 'a', reason: 'new entry' }], 0, 1800);
    expect(error).toBeInstanceOf(ArticleLoaderError);
    expect(error.code).toBe('over_budget');
  });

  it('should derive the same idempotency key for the same slug, hash and attempt, and another for the next attempt', () => {
    const hash = sync.requestHash({ targetKeyword: 'k' });
    expect(sync.idempotencyKeyFor('k', hash, 1)).toBe(sync.idempotencyKeyFor('k', hash, 1));
    expect(sync.idempotencyKeyFor('k', hash, 2)).not.toBe(sync.idempotencyKeyFor('k', hash, 1));
    expect(sync.idempotencyKeyFor('k', hash, 1)).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});
