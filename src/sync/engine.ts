// The sync engine: plan against the lock file, create what is missing (recording each id before waiting), poll, cache outputs.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ArticleRequest } from '../api/request-schema.js';
import type { ArticleStatus } from '../api/response-schema.js';
import { articleRequestSchema } from '../api/request-schema.js';
import { ArticleLoaderError } from '../errors.js';
import { billedWords, recordedWords, type BilledWords } from './billed-words.js';
import { explicitParameters, requestHash } from './canonical-request.js';
import { FrozenLockError, InvalidSpecError, OverBudgetError, SyncAbortedError, SyncError } from './errors.js';
import { resolveLockPaths, type LockEntry, type LockEntryError, type LockFile, type PreviousArticle } from './lock-file.js';
import { billedOf, previousOf } from './lock-entry-records.js';
import { normalizedKeyword } from './lock-integrity.js';
import { LockSession } from './lock-session.js';
import { OutputCache, type CachedOutput } from './output-cache.js';
import { describeCreateReason, planSync, type CreateReason, type PlanAction, type PlannedArticle, type SyncPlan, type SyncService, type SyncSpec } from './plan.js';
import { PollSchedule, type PollTiming } from './poll-schedule.js';
import { unknownCreatesLines } from './unknown-creates.js';

/** What sync needs of the HTTP client (src/api/client.ts's ArticleClient fits). */
export interface SyncClient {
  createArticle(request: ArticleRequest, options?: { signal?: AbortSignal; idempotencyKey?: string }): Promise<string>;
  getArticle(articleId: string, options?: { signal?: AbortSignal }): Promise<ArticleStatus>;
  readonly stats?: { readonly requests: number; readonly retries: number };
}

export interface SyncOptions {
  /** The articles, in manifest order (the manifest's ArticleSpec fits). */
  specs: readonly SyncSpec[];
  /** The lock file (`…/articles.lock.json`) or the directory that holds it. The cache is `articles.cache/` beside it. */
  lockFile: string;
  /** Needed only when something must be created, waited for or fetched. */
  client?: SyncClient | undefined;
  /**
   * What `client` talks to: `remote` (default), the real, paid service; `emulator`, the offline
   * emulator. Entries created against the emulator are marked `emulator: true`; a sync against the
   * real service creates them again (within the budget, never in frozen mode) and serves them only
   * until the real article is finished. A sync against the emulator reuses real articles, and never
   * polls or fetches real article ids (the emulator does not know them).
   */
  service?: SyncService;
  /** Most new articles one run may create; more fails before any create. Default 25. */
  budget?: number;
  /** Never create; fail (before any create) listing what would be created. Default false: the caller decides, with `frozenByDefault()` (CI). */
  frozen?: boolean;
  /** `fail` (default): throw SyncFailedError once the lock file is consistent. `skip`: return the failures in the result. */
  onFailure?: 'fail' | 'skip';
  /** Creates in flight at once. Default 4. */
  concurrency?: number;
  /** Polling: see PollTiming for the defaults. */
  poll?: PollTiming;
  /** Longest time the whole run waits for articles, in ms. Unfinished ones stay pending with their ids. Default 1,800,000 (30 min). */
  timeoutMs?: number;
  /** Wait for created and pending articles to finish. `false` creates and returns (outcome `pending`). Default true. */
  wait?: boolean;
  /** Stops promptly; the lock file stays consistent and keeps every id. */
  signal?: AbortSignal | undefined;
  /** After an abort, creates already sent get this long to return their id before they are cut. Default 3,000 ms. */
  abortGraceMs?: number;
  onEvent?: (event: SyncEvent) => void;
  /** Send an Idempotency-Key (from slug, hash and attempt) with each create. Default true. */
  idempotencyKeys?: boolean;
  /**
   * The service honours Idempotency-Key (our emulator does): an `unknown` create is retried with
   * its key automatically, since that cannot bill twice. Default false. Pass the same value as the client's.
   */
  idempotentCreates?: boolean;
  /** Re-create `failed` articles (each a new, paid article): `true` or a list of slugs. Default none. */
  retryFailed?: boolean | readonly string[];
  /** Create `unknown` articles again with the same idempotency key (may bill twice if the service ignores it). Default none. */
  retryUnknown?: boolean | readonly string[];
  /** Read and hash every cached output before planning (damaged files are fetched again). Default false: names only. */
  verifyCache?: boolean;
  /** The inter-process lock: `staleMs` (default 10,000) and how long to wait for another build (`timeoutMs`, default 10 min). */
  lock?: { staleMs?: number; timeoutMs?: number };
}

/**
 * - `reused`, `restored`, `fetched`: served from the cache (fetched: after one GET).
 * - `finished`: created or waited for in this run, and finished.
 * - `pending`: has an id but did not finish in this run (timeout, `wait: false`, abort).
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
  /** Written by the offline emulator: placeholder text, not a paid article. */
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

/** Some articles failed and `onFailure` is `fail`. Thrown after the lock file is consistent; `result` has everything. */
export class SyncFailedError extends SyncError {
  declare readonly code: 'sync_failed';
  readonly result: SyncResult;

  constructor(result: SyncResult) {
    const lines = result.failures.slice(0, 20).map((f) => `  - ${f.slug}: ${f.outcome}${f.error === undefined ? '' : ` (${f.error.code}: ${f.error.message})`}`);
    if (result.failures.length > 20) lines.push(`  - … and ${result.failures.length - 20} more`);
    const unknown = unknownCreatesLines(result.failures.filter((f) => f.outcome === 'unknown'));
    super(
      'sync_failed',
      `${result.failures.length} article(s) are not ready:\n${lines.join('\n')}\n` +
        'The lock file keeps every article id: articles still being written are resumed by the next run. Failed articles are re-created only ' +
        'when asked (`retryFailed`, CLI `--retry-failed`); `onFailure: "skip"` builds without them.' +
        (unknown.length > 0 ? `\n${unknown.join('\n')}` : ''),
    );
    this.result = result;
  }
}

/** Client error codes that no other article would escape either: stop creating and fail the run. */
const FATAL_CODES = new Set(['unauthorized', 'insufficient_credits', 'plan_required']);
/** The client's code once it stopped asking a service that keeps timing out or refusing connections. */
const UNREACHABLE_CODE = 'service_unreachable';
/** Consecutive failed polls of one article before this run gives up on it (it stays pending). */
const MAX_POLL_FAILURES = 4;

const CREATE_INTERRUPTED: LockEntryError = {
  code: 'create_interrupted',
  message: 'the build stopped while this article was being created, so it may have been created (and billed) without its id being recorded',
};

/** `Idempotency-Key` for one create: the same slug, request and attempt always give the same key. */
export function idempotencyKeyFor(slug: string, hash: string, attempt: number): string {
  return `aal-${createHash('sha256').update(`${slug}\u0000${hash}\u0000${attempt}`).digest('hex').slice(0, 48)}`;
}

function nowIso(): string {
  return new Date().toISOString();
}

function errorOf(error: unknown): LockEntryError {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'error', message: error.message };
  }
  return { code: 'error', message: String(error) };
}

/** The service's `error` of a failed article: shape not shown by the spec, so only ever kept as text. */
function serviceErrorOf(value: unknown): LockEntryError {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  const code = typeof record?.code === 'string' && /^[\w.-]{1,64}$/.test(record.code) ? record.code : 'article_failed';
  const raw = typeof record?.message === 'string' ? record.message : value === null || value === undefined ? 'the service reported the article failed' : JSON.stringify(value);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return { code, message: `the service reported the article failed: ${message}` };
}

/** A finished status record as cached: with the article it was fetched for. */
function outputOf(status: Extract<ArticleStatus, { status: 'finished' }>, articleId: string): CachedOutput {
  return { html: status.output.html, polishedHtml: status.output.polishedHtml, updatedAt: status.updatedAt, articleId, targetKeyword: status.config.targetKeyword };
}

function servedOf(entry: LockEntry | undefined): ServedArticle | undefined {
  if (entry === undefined) return undefined;
  if (entry.status === 'finished' && entry.output !== undefined && entry.articleId !== undefined) {
    return { output: entry.output, articleId: entry.articleId, hash: entry.hash, current: true, emulator: entry.emulator === true };
  }
  const previous = entry.previous;
  if (previous !== undefined) return { output: previous.output, articleId: previous.articleId, hash: previous.hash, current: false, emulator: previous.emulator === true };
  return undefined;
}

/** What the service billed for a finished output of `request`; undefined when the request cannot be read (never blocks a sync). */
function billedFor(html: string, request: SyncSpec['request'] | undefined): BilledWords | undefined {
  const parsed = request === undefined ? undefined : articleRequestSchema.safeParse(request);
  return parsed?.success === true ? billedWords(html, parsed.data) : undefined;
}

/**
 * An `invalid_response` error when a status record is for another article (its `config.targetKeyword`
 * is not this spec's: a mixed-up id on the service side), so its output is never served as ours.
 */
function otherArticleError(slug: string, articleId: string, spec: SyncSpec | undefined, status: ArticleStatus): ArticleLoaderError | undefined {
  if (spec === undefined) return undefined;
  const ours = typeof spec.request.targetKeyword === 'string' ? spec.request.targetKeyword : spec.keyword;
  const theirs = status.config.targetKeyword;
  if (normalizedKeyword(ours) === normalizedKeyword(theirs)) return undefined;
  const shown = theirs.length > 200 ? `${theirs.slice(0, 200)}…` : theirs;
  return new ArticleLoaderError(
    'invalid_response',
    `The service answered for article ${articleId} of "${slug}" with a record for the keyword ${JSON.stringify(shown)}, not ${JSON.stringify(ours)}: ` +
      'it is another article, so it was neither cached nor recorded. If it persists, the id in the lock file is wrong for this slug; ' +
      'check it with the service; removing this slug\'s entry from the lock file makes the next build create it again (a new, paid article).',
  );
}

function validateSpecs(specs: readonly SyncSpec[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, spec] of specs.entries()) {
    const where = `article ${index} (${JSON.stringify(spec.keyword)})`;
    if (typeof spec.slug !== 'string' || spec.slug === '' || spec.slug.length > 200 || /[/\\]|\.\.|[\u0000-\u001f\u007f]/.test(spec.slug)) {
      problems.push(`${where}: slug ${JSON.stringify(spec.slug)} is not a safe slug`);
    } else if (seen.has(spec.slug)) problems.push(`${where}: slug "${spec.slug}" appears twice`);
    seen.add(spec.slug);
    try {
      requestHash(spec.request);
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message.replace(/^Cannot sync these articles:\n\s*- /, '')}`);
    }
  }
  if (problems.length > 0) throw new InvalidSpecError(problems);
}

interface Terminal {
  slug: string;
  articleId: string;
  kind: 'finished' | 'failed';
  output?: string;
  /** For `finished`: counted from the output's HTML. */
  billed?: BilledWords | undefined;
  error?: LockEntryError;
  fetched: boolean;
}

/**
 * Makes sure every spec has a finished article: reuses what the lock and the cache have, creates
 * what is missing (within budget, never in frozen mode), waits for pending articles with one
 * adaptive polling loop, caches each output and records everything in the lock file as it goes.
 */
export async function syncArticles(options: SyncOptions): Promise<SyncResult> {
  const started = Date.now();
  const { specs, client, signal } = options;
  const budget = options.budget ?? 25;
  const onFailure = options.onFailure ?? 'fail';
  const { lockFile, cacheDir } = resolveLockPaths(options.lockFile);
  const emit = (event: SyncEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's bug must not leave the lock file half-updated.
    }
  };
  // A function, not a narrowed property: the signal changes between awaits.
  const aborted = (): boolean => signal?.aborted === true;
  if (aborted()) throw new SyncAbortedError();
  validateSpecs(specs);

  const cache = new OutputCache(cacheDir, { onWarning: (warning) => emit({ type: 'warning', code: warning.code, message: warning.message }) });
  let lockWaitReported = false;
  const session = new LockSession(lockFile, {
    ...(options.lock?.staleMs === undefined ? {} : { staleMs: options.lock.staleMs }),
    ...(options.lock?.timeoutMs === undefined ? {} : { timeoutMs: options.lock.timeoutMs }),
    signal,
    onWait: () => {
      if (lockWaitReported) return;
      lockWaitReported = true;
      emit({ type: 'lock-wait', lockFile });
    },
  });
  const requestsBefore = client?.stats?.requests ?? 0;
  const retriesBefore = client?.stats?.retries ?? 0;
  const planOptions = {
    ...(options.retryFailed === undefined ? {} : { retryFailed: options.retryFailed }),
    ...(options.retryUnknown === undefined ? {} : { retryUnknown: options.retryUnknown }),
    ...(options.idempotentCreates === undefined ? {} : { idempotentCreates: options.idempotentCreates }),
    ...(options.service === undefined ? {} : { service: options.service }),
  };
  const onEmulator = options.service === 'emulator';
  const specBySlug = new Map(specs.map((spec) => [spec.slug, spec]));
  const outcomes = new Map<string, { outcome: SyncOutcome; error?: LockEntryError }>();
  const fail = (slug: string, error: LockEntryError, articleId?: string): void => {
    outcomes.set(slug, { outcome: 'failed', error });
    emit({ type: 'failed', slug, ...(articleId === undefined ? {} : { articleId }), error });
  };

  // A warm build (everything reused) neither takes the inter-process lock nor writes anything.
  let plan = planSync(specs, await session.snapshot(), await cache.index({ verify: options.verifyCache === true }), planOptions);
  const lockFree = plan.articles.every((article) => article.action === 'reuse' || article.action === 'failed');

  const schedule = new PollSchedule<string>(options.poll);
  const polled = new Map<string, { articleId: string; fetch: boolean }>();
  let fatal: unknown;
  let creating = false;
  let wake: (() => void) | undefined;
  const wakeLoop = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  /**
   * `startedAt`: when its create request left (the article cannot have started earlier), or the
   * lock entry's creation time for an article created by an earlier run: its age bounds each poll gap.
   */
  const track = (slug: string, articleId: string, mode: 'created' | 'wait' | 'fetch', startedAt?: number): void => {
    if (client === undefined) return;
    if (mode !== 'fetch' && options.wait === false) return;
    const now = Date.now();
    polled.set(slug, { articleId, fetch: mode === 'fetch' });
    // Another machine's clock may be ahead: an age below zero would poll at minMs until it catches up.
    const since = Math.min(now, startedAt ?? now);
    schedule.add(slug, now, mode === 'created' ? { startedAt: since } : { startedAt: since, firstPollAt: now });
    wakeLoop();
  };

  // The poll loop runs alongside the creates, so the first articles are polled while later ones are created.
  const deadline = started + (options.timeoutMs ?? 1_800_000);
  const pollFailures = new Map<string, number>();
  const lastProgress = new Map<string, string>();
  const terminals: Terminal[] = [];
  let applying: Promise<void> = Promise.resolve();

  const applyTerminals = (): Promise<void> => {
    if (terminals.length === 0) return applying;
    applying = applying.then(async () => {
      // Taken when the queued write runs, not when it was queued: every article that finished while
      // the previous write held the process lock joins this one, so N articles finishing together
      // cost a few lock cycles and writes instead of N, one after another.
      const batch = terminals.splice(0);
      if (batch.length === 0) return;
      await session.update((lock) => {
        let changed = false;
        for (const terminal of batch) {
          const entry = lock.articles[terminal.slug];
          // Another build may have moved this slug to a new article meanwhile: only settle the one we polled.
          if (entry === undefined || entry.articleId !== terminal.articleId) continue;
          if (terminal.kind === 'finished') {
            // Recorded once, when first seen finished: a later edit in the writing tool changes the HTML, not the bill.
            const billed = entry.words === undefined && terminal.billed !== undefined ? terminal.billed : undefined;
            if (entry.status === 'finished' && entry.output === terminal.output && billed === undefined) continue;
            const { previous: _dropped, error: _cleared, ...rest } = entry;
            lock.articles[terminal.slug] = {
              ...rest,
              status: 'finished',
              output: terminal.output!,
              finishedAt: entry.finishedAt ?? nowIso(),
              updatedAt: nowIso(),
              ...billed,
            };
          } else {
            if (entry.status === 'failed') continue;
            lock.articles[terminal.slug] = { ...entry, status: 'failed', error: terminal.error!, updatedAt: nowIso() };
          }
          changed = true;
        }
        return changed;
      });
      for (const terminal of batch) {
        if (terminal.kind === 'finished') {
          outcomes.set(terminal.slug, { outcome: terminal.fetched ? 'fetched' : 'finished' });
          emit({ type: terminal.fetched ? 'fetched' : 'finished', slug: terminal.slug, articleId: terminal.articleId });
        } else fail(terminal.slug, terminal.error!, terminal.articleId);
      }
    });
    return applying;
  };

  /**
   * The client stopped asking a service that keeps timing out or refusing connections: every article
   * still polled ends this run as its lock entry is (its id kept, a later run resumes it), instead of
   * each waiting for its next poll to fail.
   */
  let unreachable: LockEntryError | undefined;
  const abandonPolls = (error: unknown): void => {
    unreachable ??= errorOf(error);
    for (const [slug, tracked] of polled) {
      if (!schedule.has(slug)) continue;
      schedule.remove(slug);
      outcomes.set(slug, { outcome: tracked.fetch ? 'failed' : 'pending', error: unreachable });
      if (tracked.fetch) emit({ type: 'failed', slug, articleId: tracked.articleId, error: unreachable });
    }
    wakeLoop();
  };

  const pollOne = async (slug: string): Promise<void> => {
    const tracked = polled.get(slug)!;
    let status: ArticleStatus;
    try {
      status = await client!.getArticle(tracked.articleId, signal === undefined ? {} : { signal });
      // Thrown here so it counts as a failed poll: nothing of another article is cached or recorded.
      const mismatch = otherArticleError(slug, tracked.articleId, specBySlug.get(slug), status);
      if (mismatch !== undefined) throw mismatch;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (aborted() || code === 'aborted') return;
      if (code === 'not_found') {
        schedule.remove(slug);
        terminals.push({
          slug,
          articleId: tracked.articleId,
          kind: 'failed',
          fetched: tracked.fetch,
          error: {
            code: 'not_found',
            message: `the service no longer knows article ${tracked.articleId} (deleted from its queue, or another account/service); re-create it explicitly with retryFailed`,
          },
        });
        return;
      }
      if (typeof code === 'string' && FATAL_CODES.has(code)) {
        fatal ??= error;
        return;
      }
      if (code === UNREACHABLE_CODE) {
        abandonPolls(error);
        return;
      }
      const failures = (pollFailures.get(slug) ?? 0) + 1;
      pollFailures.set(slug, failures);
      if (failures >= MAX_POLL_FAILURES) {
        schedule.remove(slug);
        outcomes.set(slug, { outcome: 'failed', error: errorOf(error) });
        emit({ type: 'failed', slug, articleId: tracked.articleId, error: errorOf(error) });
      } else schedule.recordError(slug, Date.now());
      return;
    }
    pollFailures.delete(slug);
    if (status.status === 'finished') {
      schedule.remove(slug);
      const output = await cache.put(outputOf(status, tracked.articleId));
      const billed = billedFor(status.output.html, specBySlug.get(slug)?.request);
      terminals.push({ slug, articleId: tracked.articleId, kind: 'finished', output, billed, fetched: tracked.fetch });
    } else if (status.status === 'failed') {
      schedule.remove(slug);
      terminals.push({ slug, articleId: tracked.articleId, kind: 'failed', error: serviceErrorOf(status.error), fetched: tracked.fetch });
    } else {
      const key = `${status.status}\u0000${status.statusDetail}\u0000${status.progress}`;
      if (lastProgress.get(slug) !== key) {
        lastProgress.set(slug, key);
        emit({ type: 'progress', slug, articleId: tracked.articleId, status: status.status, statusDetail: status.statusDetail, progress: status.progress });
      }
      schedule.record(slug, Date.now(), status.progress, status.updatedAt);
    }
  };

  const inflight = new Set<Promise<void>>();
  let stopping = false;
  const pollLoop = async (): Promise<void> => {
    for (;;) {
      if (stopping || aborted() || fatal !== undefined) return;
      const next = schedule.nextDue();
      if (next === undefined) {
        if (!creating) return;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const now = Date.now();
      if (now >= deadline) return;
      if (next > now) {
        // One timer for every article: sleep until the earliest due poll, an answer, a new article, the deadline or an abort.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(Math.min(next, deadline) - now, 2_147_483_647));
          function done(): void {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          }
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        });
        continue;
      }
      // Not awaited: one slow answer (retries, backoff) must not hold back the other articles' polls.
      for (const slug of schedule.takeDue(now)) {
        const poll: Promise<void> = pollOne(slug)
          .catch((error: unknown) => {
            fatal ??= error;
          })
          .finally(() => {
            inflight.delete(poll);
            // Durable in the background: another build's create phase may hold the lock for a while.
            void applyTerminals().catch((error: unknown) => (fatal ??= error));
            wakeLoop();
          });
        inflight.add(poll);
      }
    }
  };
  const settlePolls = async (): Promise<void> => {
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
  };

  let loop: Promise<void> = Promise.resolve();
  const startLoop = (): void => {
    loop = pollLoop().catch((error: unknown) => {
      fatal ??= error;
    });
  };

  const trackPlanned = (articles: readonly PlannedArticle[], lock: LockFile): void => {
    for (const article of articles) {
      const entry = lock.articles[article.slug];
      if (entry?.articleId === undefined || (article.action !== 'wait' && article.action !== 'fetch')) continue;
      if (client === undefined) {
        const error = { code: 'offline', message: 'no article service is configured to ' + (article.action === 'fetch' ? 'fetch its output (not in the cache)' : 'wait for it') };
        outcomes.set(article.slug, { outcome: article.action === 'fetch' ? 'failed' : 'pending', error });
      } else if (onEmulator && entry.emulator !== true) {
        // The emulator would answer not_found for a real id, and that must never mark a real article failed.
        const error = {
          code: 'offline',
          message: `article ${entry.articleId} was created on the real service, so an offline sync cannot ${article.action === 'fetch' ? 'fetch its output (not in the cache)' : 'wait for it'}; sync against the real service`,
        };
        outcomes.set(article.slug, { outcome: article.action === 'fetch' ? 'failed' : 'pending', error });
      } else {
        const createdAt = Date.parse(entry.createdAt);
        track(article.slug, entry.articleId, article.action, Number.isFinite(createdAt) ? createdAt : undefined);
      }
    }
  };

  const guard = (): void => {
    if (plan.creates.length > 0 && options.frozen === true) {
      throw new FrozenLockError(
        lockFile,
        plan.creates.map((c) => ({ slug: c.slug, reason: describeCreateReason(c.reason!) })),
      );
    }
    if (plan.creates.length > budget) {
      throw new OverBudgetError(
        plan.creates.map((c) => ({ slug: c.slug, reason: describeCreateReason(c.reason!) })),
        budget,
        plan.estimatedWords,
      );
    }
  };

  let createdWords = 0;
  /** Created by this run: only these are billed to it (another build's articles are waited for, not billed twice). */
  const createdSlugs = new Set<string>();
  try {
    if (lockFree) {
      emit({ type: 'plan', plan, lockFile });
    } else {
      await mkdir(dirname(lockFile), { recursive: true });
      creating = true;
      startLoop();
      await session.exclusive(async (lock) => {
        plan = planSync(specs, lock, await cache.index({ verify: options.verifyCache === true }), planOptions);
        emit({ type: 'plan', plan, lockFile });
        guard();
        trackPlanned(plan.articles, lock);

        for (const article of plan.articles.filter((a) => a.action === 'restore')) {
          const entry = lock.articles[article.slug]!;
          const previous = entry.previous!;
          const spec = specBySlug.get(article.slug)!;
          lock.articles[article.slug] = {
            keyword: spec.keyword,
            status: 'finished',
            hash: previous.hash,
            articleId: previous.articleId,
            attempt: 1,
            createdAt: entry.createdAt,
            updatedAt: nowIso(),
            finishedAt: previous.finishedAt ?? nowIso(),
            output: previous.output,
            ...billedOf(previous),
            ...(previous.emulator === true ? { emulator: true as const } : {}),
            request: explicitParameters(spec.request),
          };
          outcomes.set(article.slug, { outcome: 'restored' });
        }
        if (plan.counts.restore > 0) {
          await session.update(() => true);
          for (const article of plan.articles) if (article.action === 'restore') emit({ type: 'restored', slug: article.slug, articleId: lock.articles[article.slug]!.articleId! });
        }

        if (plan.creates.length > 0 && client === undefined) {
          for (const article of plan.creates) fail(article.slug, { code: 'offline', message: 'no article service is configured, so it cannot be created' });
          return;
        }
        const grace = graceSignal(signal, options.abortGraceMs ?? 3_000);
        const createSignal = grace.signal;
        const queue = [...plan.creates];
        // Each worker's write carries the previous create's id and the next create's intent together:
        // one lock write per create, and concurrent workers' writes coalesce further.
        const worker = async (): Promise<void> => {
          let settle: (() => void) | undefined;
          for (;;) {
            const article = aborted() || fatal !== undefined || unreachable !== undefined ? undefined : queue.shift();
            let intent: LockEntry | undefined;
            let before: LockEntry | undefined;
            if (article !== undefined) {
              const spec = specBySlug.get(article.slug)!;
              before = lock.articles[article.slug];
              const createdAt = nowIso();
              const previous = previousOf(before);
              intent = {
                keyword: spec.keyword,
                status: 'unknown',
                hash: article.hash,
                attempt: article.attempt ?? 1,
                createdAt,
                updatedAt: createdAt,
                error: CREATE_INTERRUPTED,
                request: explicitParameters(spec.request),
                ...(onEmulator ? { emulator: true as const } : {}),
                ...(previous === undefined ? {} : { previous }),
              };
              const staged = intent;
              session.stage((current) => ((current.articles[article.slug] = staged), true));
            }
            // The intent is durable before the request leaves (a kill during the call leaves `unknown`,
            // never a silent second create), and the previous id is durable before it is polled.
            await session.flush();
            settle?.();
            settle = undefined;
            if (article === undefined || intent === undefined) return;
            settle = await createOne(article, intent, before);
          }
        };
        const createOne = async (article: PlannedArticle, intent: LockEntry, before: LockEntry | undefined): Promise<() => void> => {
          const spec = specBySlug.get(article.slug)!;
          let articleId: string;
          emit({ type: 'creating', slug: article.slug, attempt: intent.attempt });
          const sentAt = Date.now();
          try {
            articleId = await client!.createArticle(spec.request, {
              ...(createSignal === undefined ? {} : { signal: createSignal }),
              ...(options.idempotencyKeys === false ? {} : { idempotencyKey: idempotencyKeyFor(article.slug, article.hash, intent.attempt) }),
            });
          } catch (error) {
            const failure = errorOf(error);
            if (failure.code === 'create_outcome_unknown' || failure.code === 'aborted') {
              const recorded = failure.code === 'aborted' ? CREATE_INTERRUPTED : failure;
              session.stage((current) => ((current.articles[article.slug] = { ...intent, error: recorded, updatedAt: nowIso() }), true));
              return () => {
                outcomes.set(article.slug, { outcome: 'unknown', error: recorded });
                emit({ type: 'unknown', slug: article.slug, error: recorded });
              };
            }
            // Definitely not created (rejected, or never sent): put the entry back as it was.
            session.stage((current) => {
              if (before === undefined) delete current.articles[article.slug];
              else current.articles[article.slug] = before;
              return true;
            });
            if (FATAL_CODES.has(failure.code)) fatal ??= error;
            if (failure.code === UNREACHABLE_CODE) unreachable ??= failure;
            return () => fail(article.slug, failure);
          }
          const created: LockEntry = { ...intent, status: 'pending', articleId, updatedAt: nowIso() };
          delete created.error;
          session.stage((current) => ((current.articles[article.slug] = created), true));
          return () => {
            createdSlugs.add(article.slug);
            createdWords += article.estimate?.words ?? 0;
            emit({ type: 'created', slug: article.slug, articleId, attempt: intent.attempt });
            track(article.slug, articleId, 'created', sentAt);
          };
        };
        const workers = Math.min(queue.length, Math.max(1, options.concurrency ?? 4));
        // Every worker settles (recording the id of a create in flight) before the lock is released.
        const settled = await Promise.allSettled(
          Array.from({ length: workers }, () =>
            worker().catch((error: unknown) => {
              // The other workers stop taking new articles.
              fatal ??= error;
              throw error;
            }),
          ),
        );
        grace.dispose();
        const broken = settled.find((outcome) => outcome.status === 'rejected');
        if (broken !== undefined) throw broken.reason;
        // Never sent: the service stopped answering before their turn. Nothing was billed for them.
        if (unreachable !== undefined) for (const article of queue.splice(0)) fail(article.slug, { ...unreachable, message: `not created: ${unreachable.message}` });
      });
      creating = false;
      wakeLoop();
      await loop;
      await settlePolls();
      await applyTerminals();
    }
  } catch (error) {
    stopping = true;
    creating = false;
    wakeLoop();
    await loop;
    await settlePolls();
    await applyTerminals().catch(() => undefined);
    throw error;
  }
  if (fatal !== undefined) throw fatal;

  const lock = session.latest ?? (await session.snapshot());
  const timedOut = schedule.size > 0;
  if (aborted()) throw new SyncAbortedError();

  const articles: SyncArticleResult[] = plan.articles.map((article) => {
    const entry = lock.articles[article.slug];
    const recorded = outcomes.get(article.slug);
    let outcome: SyncOutcome;
    let error: LockEntryError | undefined = recorded?.error;
    if (recorded !== undefined) outcome = recorded.outcome;
    else if (article.action === 'reuse') outcome = 'reused';
    else if (entry?.status === 'finished' && entry.hash === article.hash) outcome = article.action === 'fetch' ? 'fetched' : 'finished';
    else if (entry?.status === 'failed') {
      outcome = 'failed';
      error = entry.error;
    } else if (entry?.status === 'unknown') {
      outcome = 'unknown';
      error = entry.error;
    } else if (entry?.status === 'pending') {
      outcome = 'pending';
      if (timedOut) error = { code: 'timeout', message: `not finished within the ${Math.round((options.timeoutMs ?? 1_800_000) / 1000)} s wait; its id is kept, the next build resumes it` };
    } else if (article.action === 'fetch') {
      outcome = 'failed';
      error = { code: 'offline', message: 'its output is not in the cache and no article service is configured to fetch it' };
    } else outcome = 'failed';
    return {
      slug: article.slug,
      keyword: article.keyword,
      action: article.action,
      outcome,
      ...(article.reason === undefined ? {} : { reason: article.reason }),
      entry,
      serve: servedOf(entry),
      ...(error === undefined ? {} : { error }),
    };
  });
  const failures = articles.filter(
    (a) => a.outcome === 'failed' || a.outcome === 'unknown' || (a.outcome === 'pending' && options.wait !== false),
  );
  const count = (outcome: SyncOutcome): number => articles.filter((a) => a.outcome === outcome).length;
  const totals: SyncTotals = {
    articles: articles.length,
    reused: count('reused'),
    restored: count('restored'),
    fetched: count('fetched'),
    created: createdSlugs.size,
    waited: plan.articles.filter((a) => a.action === 'wait').length + createdSlugs.size,
    finished: count('finished'),
    pending: count('pending'),
    failed: count('failed'),
    unknown: count('unknown'),
    orphans: plan.orphans.length,
    requests: (client?.stats?.requests ?? 0) - requestsBefore,
    retries: (client?.stats?.retries ?? 0) - retriesBefore,
    lockWrites: session.writes,
    estimatedWords: createdWords,
    recordedWords: articles.reduce((sum, a) => sum + (a.outcome === 'finished' && createdSlugs.has(a.slug) && a.entry !== undefined && a.entry.emulator !== true ? (recordedWords(a.entry) ?? 0) : 0), 0),
  };
  const durationMs = Date.now() - started;
  const served = new Map(articles.map((a) => [a.slug, a]));
  const result: SyncResult = {
    lockFile,
    cacheDir,
    plan,
    articles,
    orphans: plan.orphans.map((o) => o.slug),
    failures,
    totals,
    durationMs,
    cache,
    readOutput: (slug) => readServedOutput(served.get(slug), { cache, client, session, emit, request: specBySlug.get(slug)?.request, spec: specBySlug.get(slug) }),
  };
  emit({ type: 'done', totals, durationMs });
  if (failures.length > 0 && onFailure === 'fail') throw new SyncFailedError(result);
  return result;
}

/**
 * A signal that fires `graceMs` after `signal` does: creates already sent get time to bring back
 * their id. `dispose` detaches it from a long-lived signal (a dev server's) once the creates are done.
 */
function graceSignal(signal: AbortSignal | undefined, graceMs: number): { signal: AbortSignal | undefined; dispose: () => void } {
  if (signal === undefined) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  const fire = (): void => {
    setTimeout(() => controller.abort(signal.reason), graceMs).unref();
  };
  if (signal.aborted) fire();
  else signal.addEventListener('abort', fire, { once: true });
  return { signal: controller.signal, dispose: () => signal.removeEventListener('abort', fire) };
}

async function readServedOutput(
  article: SyncArticleResult | undefined,
  context: {
    cache: OutputCache;
    client: SyncClient | undefined;
    session: LockSession;
    emit: (event: SyncEvent) => void;
    /** The spec's request: the current article's, so its bill can be recorded when the lock lacks it. */
    request: SyncSpec['request'] | undefined;
    /** The spec: its keyword is checked against the record's. */
    spec: SyncSpec | undefined;
  },
): Promise<CachedOutput | undefined> {
  const serve = article?.serve;
  if (article === undefined || serve === undefined) return undefined;
  const owner = { lockFile: context.session.file, slug: article.slug, articleId: serve.articleId, keyword: serve.current ? article.keyword : undefined };
  const cached = await context.cache.readFor(serve.output, owner);
  if (cached !== undefined) return cached;
  const unavailable = (why: string, cause?: unknown): SyncError =>
    new SyncError(
      'output_unavailable',
      `The output of "${article.slug}" (article ${serve.articleId}) is missing or damaged in ${context.cache.outputsDir} and ${why}. ` +
        'Restore the articles.cache directory from version control, or run the build again with the service reachable.',
      cause === undefined ? undefined : { cause },
    );
  if (context.client === undefined) throw unavailable('no article service is configured to fetch it');
  let status: ArticleStatus;
  try {
    status = await context.client.getArticle(serve.articleId);
  } catch (error) {
    throw unavailable(`fetching it failed (${errorOf(error).code})`, error);
  }
  if (status.status !== 'finished') throw unavailable(`the service says it is ${status.status}`);
  // A previous article's request is not kept, so only the current one can be checked.
  const mismatch = serve.current ? otherArticleError(article.slug, serve.articleId, context.spec, status) : undefined;
  if (mismatch !== undefined) throw unavailable('the service answered with another article', mismatch);
  const output = outputOf(status, serve.articleId);
  const hash = await context.cache.put(output);
  const billed = serve.current && article.entry?.words === undefined ? billedFor(output.html, context.request) : undefined;
  if (hash !== serve.output || billed !== undefined) {
    // Edited in the writing tool since (polished by hand): the lock now points at what the service serves.
    await context.session.update((lock) => {
      const entry = lock.articles[article.slug];
      if (entry === undefined) return false;
      if (serve.current && entry.articleId === serve.articleId) {
        entry.output = hash;
        if (entry.words === undefined && billed !== undefined) Object.assign(entry, billed);
      } else if (!serve.current && entry.previous?.articleId === serve.articleId) entry.previous.output = hash;
      else return false;
      entry.updatedAt = nowIso();
      return true;
    });
  }
  context.emit({ type: 'fetched', slug: article.slug, articleId: serve.articleId });
  return output;
}
