// The sync engine: plan against the lock file, create what is missing (recording each id before waiting), poll, cache outputs.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ArticleStatus } from '../contract/response-schema.js';
import { requestHash } from './canonical-request.js';
import { InvalidSpecError, SyncAbortedError } from './errors.js';
import { createArticles, moveEntries, restoreEarlier } from './create-phase.js';
import { resolveLockPaths, type LockFile } from './lock-file.js';
import { LockSession } from './lock-session.js';
import { OutputCache } from './output-cache.js';
import { planSync, type PlanOptions, type SyncPlan, type SyncService, type SyncSpec } from './plan.js';
import { PollLoop } from './poll-loop.js';
import type { PollTiming } from './poll-schedule.js';
import { runResult } from './assemble-result.js';
import { blockedCreates, DEFAULT_BUDGET, DEFAULT_CREATE_CONCURRENCY, DEFAULT_RUN_TIMEOUT_MS, monthlyCap } from './run-rules.js';
import { RunState } from './run-record.js';
import { readServedOutput } from './served-output.js';
import { SettledWrites } from './settled-writes.js';
import type { SyncEvent, SyncResult } from './result-shape.js';
import { SyncFailedError } from './sync-failed-error.js';

export { idempotencyKeyFor } from './create-phase.js';
export { SyncFailedError } from './sync-failed-error.js';
export type { ServedArticle, SyncArticleResult, SyncEvent, SyncOutcome, SyncResult, SyncTotals } from './result-shape.js';

/** What sync needs of the HTTP client (src/api/client.ts's ArticleClient fits). */
export interface SyncClient {
  createArticle(request: ArticleRequest, options?: { signal?: AbortSignal; idempotencyKey?: string }): Promise<string>;
  getArticle(articleId: string, options?: { signal?: AbortSignal }): Promise<ArticleStatus>;
  readonly stats?: { readonly requests: number; readonly retries: number };
}

export interface SyncOptions {
  /** The articles, in manifest order (the manifest's ArticleSpec fits). */
  specs: readonly SyncSpec[];
  /** Every slug of the manifest when `specs` is only part of it (`regenerate`): see PlanOptions.manifestSlugs. */
  manifestSlugs?: readonly string[];
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
  /** Most new articles one run may create; more fails before any create. Default DEFAULT_BUDGET (25). */
  budget?: number;
  /**
   * Most paid articles created in one calendar month (the manifest's `budget.perMonth`), counted in the lock file's
   * `spent`: a run that would go past it fails before any create (OverMonthlyCapError). Default: no monthly cap.
   */
  perMonth?: number;
  /**
   * Awaited in the create phase after each lock file write, before the next create request leaves (and after the
   * last one): `autopilot` commits and pushes the lock file there, so a create's intent is on the remote before the
   * request and its id right after. Called by concurrent workers at once: the caller serializes and coalesces. A
   * throw stops the creates (those in flight keep their ids) and fails the run.
   */
  afterLockWrite?: () => Promise<void>;
  /** Never create; fail (before any create) listing what would be created. Default false: the caller decides, with `frozenByDefault()` (CI). */
  frozen?: boolean;
  /** `fail` (default): throw SyncFailedError once the lock file is consistent. `skip`: return the failures in the result. */
  onFailure?: 'fail' | 'skip';
  /** Creates in flight at once. Default DEFAULT_CREATE_CONCURRENCY (4). */
  concurrency?: number;
  /** Polling: see PollTiming for the defaults. */
  poll?: PollTiming;
  /** Longest time the whole run waits for articles, in ms. Unfinished ones stay pending with their ids. Default DEFAULT_RUN_TIMEOUT_MS (30 min). */
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
  /** Create these finished articles again on purpose (a new, paid article each), serving the current one until it is finished. Default none. */
  regenerate?: readonly string[];
  /** Due articles to refresh (see `refresh-due.ts`; `sync --refresh`): each created again while it still serves the article found due. Default none. */
  refresh?: PlanOptions['refresh'];
  /** Read and hash every cached output before planning (damaged files are fetched again). Default false: names only. */
  verifyCache?: boolean;
  /** The inter-process lock: `staleMs` (default 10,000) and how long to wait for another build (`timeoutMs`, default 10 min). */
  lock?: { staleMs?: number; timeoutMs?: number };
}

function validateSpecs(specs: readonly SyncSpec[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, spec] of specs.entries()) {
    const where = `article ${index} (${JSON.stringify(spec.keyword)})`;
    // A translation's id is segments joined by `/` (`de/x`, see manifest/translation-ids.ts), each one safe as a file name.
    const segments = typeof spec.slug === 'string' ? spec.slug.split('/') : [''];
    if (segments.some((segment) => segment === '' || segment.length > 200 || segment === '.' || /[\\]|\.\.|[\u0000-\u001f\u007f]/.test(segment))) {
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

/** The pieces of one run, made once and shared by its steps. */
interface Run {
  options: SyncOptions;
  started: number;
  lockFile: string;
  state: RunState;
  cache: OutputCache;
  session: LockSession;
  specBySlug: ReadonlyMap<string, SyncSpec>;
  planOptions: PlanOptions;
  polls: PollLoop | undefined;
}

function openRun(options: SyncOptions): Run {
  const started = Date.now();
  const { lockFile, cacheDir } = resolveLockPaths(options.lockFile);
  const state = new RunState(options.onEvent, options.signal);
  const cache = new OutputCache(cacheDir, { onWarning: (warning) => state.emit({ type: 'warning', code: warning.code, message: warning.message }) });
  let lockWaitReported = false;
  const session = new LockSession(lockFile, {
    ...(options.lock?.staleMs === undefined ? {} : { staleMs: options.lock.staleMs }),
    ...(options.lock?.timeoutMs === undefined ? {} : { timeoutMs: options.lock.timeoutMs }),
    signal: options.signal,
    onWait: () => {
      if (!lockWaitReported) state.emit({ type: 'lock-wait', lockFile });
      lockWaitReported = true;
    },
  }, { wholeWrites: options.afterLockWrite !== undefined });
  const specBySlug = new Map(options.specs.map((spec) => [spec.slug, spec]));
  const planOptions: PlanOptions = {
    ...(options.retryFailed === undefined ? {} : { retryFailed: options.retryFailed }),
    ...(options.retryUnknown === undefined ? {} : { retryUnknown: options.retryUnknown }),
    ...(options.regenerate === undefined ? {} : { regenerate: options.regenerate }),
    ...(options.refresh === undefined ? {} : { refresh: options.refresh }),
    ...(options.idempotentCreates === undefined ? {} : { idempotentCreates: options.idempotentCreates }),
    ...(options.service === undefined ? {} : { service: options.service }),
    ...(options.manifestSlugs === undefined ? {} : { manifestSlugs: options.manifestSlugs }),
  };
  const client = options.client;
  const polls =
    client === undefined
      ? undefined
      : new PollLoop({
          client,
          state,
          cache,
          settled: new SettledWrites(session, state),
          specBySlug,
          timing: options.poll,
          deadline: started + (options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS),
          signal: options.signal,
        });
  return { options, started, lockFile, state, cache, session, specBySlug, planOptions, polls };
}

/**
 * Hands each article with an id that must be waited for (or fetched) to the poll loop; records
 * those no one can wait for here (no service, or an offline sync and a real article).
 */
function trackPlanned(run: Run, plan: SyncPlan, lock: LockFile): void {
  const onEmulator = run.options.service === 'emulator';
  for (const article of plan.articles) {
    const entry = lock.articles[article.slug];
    if (entry?.articleId === undefined || (article.action !== 'wait' && article.action !== 'fetch')) continue;
    const what = article.action === 'fetch' ? 'fetch its output (not in the cache)' : 'wait for it';
    const outcome = article.action === 'fetch' ? 'failed' : 'pending';
    if (run.polls === undefined) {
      run.state.record(article.slug, outcome, { code: 'offline', message: `no article service is configured to ${what}` });
    } else if (onEmulator && entry.emulator !== true) {
      // The emulator would answer not_found for a real id, and that must never mark a real article failed.
      const message = `article ${entry.articleId} was created on the real service, so an offline sync cannot ${what}; sync against the real service`;
      run.state.record(article.slug, outcome, { code: 'offline', message });
    } else if (article.action === 'fetch' || run.options.wait !== false) {
      const createdAt = Date.parse(entry.createdAt);
      run.polls.track(article.slug, entry.articleId, article.action, Number.isFinite(createdAt) ? createdAt : undefined);
    }
  }
}

/** Under the inter-process lock: plan again (another build may have written), refuse what the rules refuse, move, restore, create. */
async function createPhase(run: Run, lock: LockFile): Promise<SyncPlan> {
  const { options, state, session, specBySlug } = run;
  const plan = planSync(options.specs, lock, await run.cache.index({ verify: options.verifyCache === true }), run.planOptions);
  state.emit({ type: 'plan', plan, lockFile: run.lockFile });
  const monthly = monthlyCap(options.perMonth, lock, options.service === 'emulator');
  const blocked = blockedCreates(plan, { frozen: options.frozen === true, budget: options.budget ?? DEFAULT_BUDGET, monthly }, run.lockFile);
  if (blocked !== undefined) throw blocked;
  await moveEntries(plan, lock, session);
  trackPlanned(run, plan, lock);
  await restoreEarlier(plan, lock, { session, state, specBySlug });
  if (plan.creates.length === 0) return plan;
  if (options.client === undefined) {
    for (const article of plan.creates) state.fail(article.slug, { code: 'offline', message: 'no article service is configured, so it cannot be created' });
    return plan;
  }
  await createArticles(options.client, plan, lock, {
    session,
    state,
    specBySlug,
    onEmulator: options.service === 'emulator',
    concurrency: options.concurrency ?? DEFAULT_CREATE_CONCURRENCY,
    idempotencyKeys: options.idempotencyKeys !== false,
    abortGraceMs: options.abortGraceMs ?? 3_000,
    signal: options.signal,
    ...(options.afterLockWrite === undefined ? {} : { afterLockWrite: options.afterLockWrite }),
    onCreated: (slug, articleId, sentAt) => {
      if (run.polls !== undefined && options.wait !== false) run.polls.track(slug, articleId, 'created', sentAt);
    },
  });
  return plan;
}

/**
 * Makes sure every spec has a finished article: reuses what the lock and the cache have, creates
 * what is missing (within budget, never in frozen mode), waits for pending articles with one
 * adaptive polling loop, caches each output and records everything in the lock file as it goes.
 */
export async function syncArticles(options: SyncOptions): Promise<SyncResult> {
  if (options.signal?.aborted === true) throw new SyncAbortedError();
  validateSpecs(options.specs);
  const run = openRun(options);
  const { state, session, polls, options: o } = run;
  const requestsBefore = o.client?.stats?.requests ?? 0;
  const retriesBefore = o.client?.stats?.retries ?? 0;

  // A warm build (everything reused, nothing moved to a new slug) neither takes the inter-process lock nor writes anything.
  let plan = planSync(o.specs, await session.snapshot(), await run.cache.index({ verify: o.verifyCache === true }), run.planOptions);
  if (plan.articles.every((article) => (article.action === 'reuse' || article.action === 'failed') && article.movedFrom === undefined)) {
    state.emit({ type: 'plan', plan, lockFile: run.lockFile });
  } else {
    await mkdir(dirname(run.lockFile), { recursive: true });
    if (polls !== undefined) {
      polls.creating = true;
      polls.start();
    }
    try {
      plan = await session.exclusive((lock) => createPhase(run, lock));
      await polls?.end();
      await session.close();
    } catch (error) {
      await polls?.end(true).catch(() => undefined);
      // Folded when it can be; a journal left behind is read with the lock file, so nothing is lost either way.
      await session.close().catch(() => undefined);
      throw error;
    }
  }
  if (state.fatal !== undefined) throw state.fatal;
  if (state.aborted()) throw new SyncAbortedError();

  const result = runResult(
    {
      plan,
      lock: session.latest ?? (await session.snapshot()),
      state,
      unfinished: new Set(polls?.unfinished ?? []),
      timeoutMs: o.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
      wait: o.wait !== false,
      lockFile: run.lockFile,
      cache: run.cache,
      requests: (o.client?.stats?.requests ?? 0) - requestsBefore,
      retries: (o.client?.stats?.retries ?? 0) - retriesBefore,
      lockWrites: session.writes,
      durationMs: Date.now() - run.started,
    },
    (article) => readServedOutput(article, { cache: run.cache, client: o.client, session, emit: (event) => state.emit(event), spec: article === undefined ? undefined : run.specBySlug.get(article.slug) }),
  );
  state.emit({ type: 'done', totals: result.totals, durationMs: result.durationMs });
  if (result.failures.length > 0 && (o.onFailure ?? 'fail') === 'fail') throw new SyncFailedError(result);
  return result;
}
