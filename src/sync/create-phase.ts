// The create phase, under the inter-process lock: earlier articles restored, then each missing article created with its intent recorded first.
import { createHash } from 'node:crypto';
import type { ArticleRequest } from '../contract/request-schema.js';
import { explicitParameters } from './canonical-request.js';
import { approvalOf, billedOf, finishedArticleOf, previousOf } from './lock-entry-records.js';
import type { LockEntry, LockEntryError, LockFile } from './lock-file.js';
import type { LockSession } from './lock-session.js';
import { recordMoves, type PlannedArticle, type SyncPlan, type SyncSpec } from './plan.js';
import { FATAL_CODES, UNREACHABLE_CODE } from './run-rules.js';
import { entryErrorOf, type RunState } from './run-record.js';
import { nowIso } from '../lang/now-iso.js';
import { countCreate, countsAsSpend, monthOf } from './month-spend.js';

/** What the create phase needs of the client. */
export interface CreateClient {
  createArticle(request: ArticleRequest, options?: { signal?: AbortSignal; idempotencyKey?: string }): Promise<string>;
}

export interface CreatePhaseOptions {
  session: LockSession;
  state: RunState;
  specBySlug: ReadonlyMap<string, SyncSpec>;
  /** Marks every entry created as written by the offline emulator. */
  onEmulator: boolean;
  concurrency: number;
  /** Send an Idempotency-Key with each create. */
  idempotencyKeys: boolean;
  /** After an abort, creates already sent get this long to return their id. */
  abortGraceMs: number;
  signal: AbortSignal | undefined;
  /** Awaited after each lock file write of the phase, before the next create leaves (see SyncOptions.afterLockWrite). */
  afterLockWrite?: () => Promise<void>;
  /** Called once an article's id is durable in the lock file: the poll loop takes it from there. */
  onCreated(slug: string, articleId: string, sentAt: number): void;
}

const CREATE_INTERRUPTED: LockEntryError = {
  code: 'create_interrupted',
  message: 'the build stopped while this article was being created, so it may have been created (and billed) without its id being recorded',
};

/** `Idempotency-Key` for one create: the same slug, request and attempt always give the same key. */
export function idempotencyKeyFor(slug: string, hash: string, attempt: number): string {
  return `aal-${createHash('sha256').update(`${slug}\u0000${hash}\u0000${attempt}`).digest('hex').slice(0, 48)}`;
}

/**
 * Records under its new slug each entry the plan moves (`movedFrom`: a slug changed, or an entry moved into a
 * language, with the same request): its article, output, approval and dates, no create. Before anything reads the
 * lock file by the new slug.
 */
export async function moveEntries(plan: SyncPlan, lock: LockFile, session: LockSession): Promise<void> {
  const moves = plan.articles.flatMap((a) => (a.movedFrom === undefined ? [] : [{ from: a.movedFrom, to: a.slug }]));
  if (moves.length === 0) return;
  recordMoves(lock, moves);
  await session.update(() => true);
}

/** Serves again the earlier finished article of each entry whose request went back to it: no create. */
export async function restoreEarlier(plan: SyncPlan, lock: LockFile, options: Pick<CreatePhaseOptions, 'session' | 'state' | 'specBySlug'>): Promise<void> {
  const restores = plan.articles.filter((a) => a.action === 'restore');
  if (restores.length === 0) return;
  for (const article of restores) {
    const entry = lock.articles[article.slug]!;
    const previous = entry.previous!;
    const spec = options.specBySlug.get(article.slug)!;
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
      ...approvalOf(entry),
    };
    // The newer article, finished, is kept as the earlier one in turn: switching the request back to it restores it
    // too, instead of buying it again. (One still being written is dropped: a previous article must be finished.)
    const newer = finishedArticleOf(entry);
    if (newer !== undefined) lock.articles[article.slug]!.previous = newer;
    options.state.record(article.slug, 'restored');
  }
  await options.session.update(() => true);
  for (const article of restores) options.state.emit({ type: 'restored', slug: article.slug, articleId: lock.articles[article.slug]!.articleId! });
}

/**
 * Creates the plan's articles, `concurrency` at a time, inside the session's exclusive phase. For
 * each: an `unknown` intent is durable before the request leaves (a kill during the call leaves
 * `unknown`, never a silent second create), and the id is durable before the article is polled.
 * Each worker's write carries the previous create's id and the next create's intent together: one
 * lock write per create, and concurrent workers' writes coalesce further.
 */
export async function createArticles(client: CreateClient, plan: SyncPlan, lock: LockFile, options: CreatePhaseOptions): Promise<void> {
  const queue = [...plan.creates];
  const grace = graceSignal(options.signal, options.abortGraceMs);
  const worker = async (): Promise<void> => {
    let settle: (() => void) | undefined;
    for (;;) {
      const article = options.state.stopped() ? undefined : queue.shift();
      const intent = article === undefined ? undefined : stageIntent(article, lock, options);
      await options.session.flush();
      settle?.();
      settle = undefined;
      // Always, even when another worker's write carried this one's intent: that worker's checkpoint may not cover it yet.
      await options.afterLockWrite?.();
      if (article === undefined || intent === undefined) return;
      settle = await createOne(client, article, intent, options, grace.signal);
    }
  };
  const workers = Math.min(queue.length, Math.max(1, options.concurrency));
  // Every worker settles (recording the id of a create in flight) before the lock is released.
  const settled = await Promise.allSettled(
    Array.from({ length: workers }, () =>
      worker().catch((error: unknown) => {
        // The other workers stop taking new articles.
        options.state.fatal ??= error;
        throw error;
      }),
    ),
  );
  grace.dispose();
  const broken = settled.find((outcome) => outcome.status === 'rejected');
  if (broken !== undefined) throw broken.reason;
  const { unreachable } = options.state;
  // Never sent: the service stopped answering before their turn. Nothing was billed for them.
  if (unreachable !== undefined) for (const article of queue.splice(0)) options.state.fail(article.slug, { ...unreachable, message: `not created: ${unreachable.message}` });
}

/** A create's intent: the entry staged before the request leaves, the one it replaced, and the month it was counted in (none: not a paid create). */
interface Intent {
  entry: LockEntry;
  before: LockEntry | undefined;
  counted: string | undefined;
}

/** The entry as it must be on disk before the create request leaves; staged, written by the next flush. */
function stageIntent(article: PlannedArticle, lock: LockFile, options: CreatePhaseOptions): Intent {
  const spec = options.specBySlug.get(article.slug)!;
  const before = lock.articles[article.slug];
  const createdAt = nowIso();
  const previous = previousOf(before);
  const entry: LockEntry = {
    keyword: spec.keyword,
    status: 'unknown',
    hash: article.hash,
    attempt: article.attempt ?? 1,
    createdAt,
    ...firstCreatedOf(article, before),
    updatedAt: createdAt,
    error: CREATE_INTERRUPTED,
    request: explicitParameters(spec.request),
    ...(options.onEmulator ? { emulator: true as const } : {}),
    ...(previous === undefined ? {} : { previous }),
    ...approvalOf(before),
  };
  const counted = countsAsSpend(article, options.onEmulator) ? monthOf(new Date(createdAt)) : undefined;
  options.session.stage((current) => {
    current.articles[article.slug] = entry;
    if (counted !== undefined) countCreate(current, counted, 1);
    return true;
  }, [article.slug]);
  return { entry, before, counted };
}

/**
 * A finished article created again on purpose (regenerate, refresh) keeps the date of the entry's first article:
 * `entry.data.createdAt` says when the page first appeared, `updatedAt` when its article was last written.
 */
function firstCreatedOf(article: PlannedArticle, before: LockEntry | undefined): Pick<LockEntry, 'firstCreatedAt'> {
  const kind = article.reason?.kind;
  if (before === undefined || kind === 'changed' || kind === 'new') return {};
  // A retry of a failed refresh is still that refresh: it keeps the date the refresh kept.
  const first = kind === 'regenerate' || kind === 'refresh' ? (before.firstCreatedAt ?? before.createdAt) : before.firstCreatedAt;
  return first === undefined ? {} : { firstCreatedAt: first };
}

/** Sends one create and stages its outcome; returns what to report once that is durable. */
async function createOne(
  client: CreateClient,
  article: PlannedArticle,
  intent: Intent,
  options: CreatePhaseOptions,
  signal: AbortSignal | undefined,
): Promise<() => void> {
  const { state, session } = options;
  const spec = options.specBySlug.get(article.slug)!;
  const attempt = intent.entry.attempt;
  state.emit({ type: 'creating', slug: article.slug, attempt });
  const sentAt = Date.now();
  let articleId: string;
  try {
    articleId = await client.createArticle(spec.request, {
      ...(signal === undefined ? {} : { signal }),
      ...(options.idempotencyKeys ? { idempotencyKey: idempotencyKeyFor(article.slug, article.hash, attempt) } : {}),
    });
  } catch (error) {
    return createFailed(article, intent, error, options);
  }
  const created: LockEntry = { ...intent.entry, status: 'pending', articleId, updatedAt: nowIso() };
  delete created.error;
  session.stage((current) => ((current.articles[article.slug] = created), true), [article.slug]);
  return () => {
    state.created.add(article.slug);
    state.createdWords += article.estimate?.words ?? 0;
    state.emit({ type: 'created', slug: article.slug, articleId, attempt });
    options.onCreated(article.slug, articleId, sentAt);
  };
}

/** A create that threw: `unknown` when it may have reached the service, else the entry as it was (nothing was billed). */
function createFailed(article: PlannedArticle, intent: Intent, error: unknown, options: CreatePhaseOptions): () => void {
  const { state, session } = options;
  const failure = entryErrorOf(error);
  if (failure.code === 'create_outcome_unknown' || failure.code === 'aborted') {
    const recorded = failure.code === 'aborted' ? CREATE_INTERRUPTED : failure;
    session.stage((current) => ((current.articles[article.slug] = { ...intent.entry, error: recorded, updatedAt: nowIso() }), true), [article.slug]);
    return () => {
      state.record(article.slug, 'unknown', recorded);
      state.emit({ type: 'unknown', slug: article.slug, error: recorded });
    };
  }
  session.stage((current) => {
    if (intent.before === undefined) delete current.articles[article.slug];
    else current.articles[article.slug] = intent.before;
    // Never received, so never billed: the month's tally gives the article back.
    if (intent.counted !== undefined) countCreate(current, intent.counted, -1);
    return true;
  }, [article.slug]);
  if (FATAL_CODES.has(failure.code)) state.fatal ??= error;
  if (failure.code === UNREACHABLE_CODE) state.unreachable ??= failure;
  return () => state.fail(article.slug, failure);
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
