// What a sync tells its caller: the events as it goes, and per article what became of it, with the run's totals.
import type { LockEntry, LockEntryError } from './lock-file.js';
import type { OutputCache, CachedOutput } from './output-cache.js';
import type { CreateReason, PlanAction, SyncPlan } from './plan.js';

/**
 * - `reused`, `restored`, `fetched`: served from the cache (fetched: after one GET).
 * - `finished`: created or waited for in this run, and finished.
 * - `pending`: has an id but did not finish in this run (timeout, `wait: false`, abort, service unreachable).
 * - `failed`: failed (this run or before), or the service could not be reached for it.
 * - `unknown`: a create may have been billed but gave no id.
 */
export type SyncOutcome = 'reused' | 'restored' | 'fetched' | 'finished' | 'pending' | 'failed' | 'unknown';

/** Which finished article to show for a slug. `current: false` while a changed request is being written. */
export interface ServedArticle {
  output: string;
  articleId: string;
  hash: string;
  current: boolean;
  /** Written by the offline emulator (placeholder text or the owner's model): not a paid article. */
  emulator?: boolean;
}

export interface SyncArticleResult {
  slug: string;
  keyword: string;
  action: PlanAction;
  outcome: SyncOutcome;
  reason?: CreateReason;
  /** The lock entry after the run. */
  entry: LockEntry | undefined;
  serve: ServedArticle | undefined;
  error?: LockEntryError;
}

export interface SyncTotals {
  articles: number;
  reused: number;
  restored: number;
  fetched: number;
  created: number;
  /** Articles polled until the end of the run (created now or earlier). */
  waited: number;
  finished: number;
  pending: number;
  failed: number;
  unknown: number;
  orphans: number;
  /** HTTP attempts and retries made through the client during this run. */
  requests: number;
  retries: number;
  /** Lock file writes this run made (creates coalesce, finished articles are written in batches). */
  lockWrites: number;
  /** Estimated words of the articles created in this run. */
  estimatedWords: number;
  /**
   * Words billed (text and images) of the articles this run created and saw finish, as recorded in
   * the lock file (the emulator bills nothing). Articles another build created are waited for, not billed here.
   */
  recordedWords: number;
}

export interface SyncResult {
  lockFile: string;
  cacheDir: string;
  plan: SyncPlan;
  /** One per spec, in manifest order. */
  articles: SyncArticleResult[];
  /** Lock entries not in the manifest: kept. */
  orphans: string[];
  /** The articles with outcome failed, unknown or (after a timeout) pending. */
  failures: SyncArticleResult[];
  totals: SyncTotals;
  durationMs: number;
  /** The cache (its `links` store serves the pipeline's internal-link results). */
  cache: OutputCache;
  /**
   * The output to serve for a slug, read from the cache and verified; one at a time, so 10,000
   * articles never sit in memory together. A damaged or missing file is fetched again with one
   * GET (while the client is open). `undefined` when there is nothing to serve yet.
   */
  readOutput(slug: string): Promise<CachedOutput | undefined>;
}

export type SyncEvent =
  | { type: 'plan'; plan: SyncPlan; lockFile: string }
  | { type: 'lock-wait'; lockFile: string }
  /** A create request is about to be sent (its intent is already in the lock file); `created`, `failed` or `unknown` follows. */
  | { type: 'creating'; slug: string; attempt: number }
  | { type: 'created'; slug: string; articleId: string; attempt: number }
  | { type: 'progress'; slug: string; articleId: string; status: string; statusDetail: string; progress: number }
  | { type: 'finished'; slug: string; articleId: string }
  | { type: 'fetched'; slug: string; articleId: string }
  | { type: 'restored'; slug: string; articleId: string }
  | { type: 'failed'; slug: string; articleId?: string; error: LockEntryError }
  | { type: 'unknown'; slug: string; error: LockEntryError }
  | { type: 'warning'; code: string; message: string; slug?: string }
  | { type: 'done'; totals: SyncTotals; durationMs: number };
