// The one polling loop of a run: one timer for every article being written, each poll aimed at its predicted finish.
import type { ArticleStatus } from '../contract/response-schema.js';
import type { OutputCache } from './output-cache.js';
import type { SyncSpec } from './plan.js';
import { PollSchedule, type PollTiming } from './poll-schedule.js';
import { FATAL_CODES, UNREACHABLE_CODE } from './run-rules.js';
import { entryErrorOf, type RunState } from './run-record.js';
import type { SettledWrites } from './settled-writes.js';
import { billedFor, otherArticleError, outputOf, serviceErrorOf } from './status-record.js';

/**
 * Consecutive failed polls of one article before this run gives up on it (it stays pending); and consecutive 404s
 * before it is taken as gone (failed, not_found). Each waits twice as long as the last, up to the longest poll gap (30 s by default):
 * a service that answers 404 for a moment (an id not yet everywhere behind its load balancer) must not cost a
 * second article.
 */
const MAX_POLL_FAILURES = 4;

/** What the loop needs of the client. */
export interface PollClient {
  getArticle(articleId: string, options?: { signal?: AbortSignal }): Promise<ArticleStatus>;
}

export interface PollLoopOptions {
  client: PollClient;
  state: RunState;
  cache: OutputCache;
  settled: SettledWrites;
  specBySlug: ReadonlyMap<string, SyncSpec>;
  timing: PollTiming | undefined;
  /** When the run stops waiting (ms since the epoch). */
  deadline: number;
  signal: AbortSignal | undefined;
}

/**
 * Polls every tracked article until it finishes or fails, the deadline passes, or the run stops.
 * It runs alongside the creates (`creating`), so the first articles are polled while later ones
 * are created. Each poll is not awaited by the loop: one slow answer (retries, backoff) must not
 * hold back the other articles' polls.
 */
export class PollLoop {
  readonly #o: PollLoopOptions;
  readonly #schedule: PollSchedule<string>;
  readonly #tracked = new Map<string, { articleId: string; fetch: boolean }>();
  readonly #failures = new Map<string, number>();
  /** Consecutive 404s of each article (any other answer or failure ends the run of them). */
  readonly #notFound = new Map<string, number>();
  readonly #lastProgress = new Map<string, string>();
  readonly #inflight = new Set<Promise<void>>();
  #wake: (() => void) | undefined;
  #loop: Promise<void> = Promise.resolve();
  /** Creates are still being made: an empty schedule does not end the loop yet. */
  creating = false;
  #stopping = false;

  constructor(options: PollLoopOptions) {
    this.#o = options;
    this.#schedule = new PollSchedule<string>(options.timing);
  }

  /** Articles still tracked: not finished when the loop ended (the deadline passed). */
  get unfinished(): string[] {
    return [...this.#tracked.keys()].filter((slug) => this.#schedule.has(slug));
  }

  /**
   * Starts polling an article. `startedAt`: when its create request left (it cannot have started
   * earlier), or its lock entry's creation time for an article created by an earlier run: its age
   * bounds each poll gap. `fetch`: finished already, one GET brings its output.
   */
  track(slug: string, articleId: string, mode: 'created' | 'wait' | 'fetch', startedAt?: number): void {
    const now = Date.now();
    this.#tracked.set(slug, { articleId, fetch: mode === 'fetch' });
    // Another machine's clock may be ahead: an age below zero would poll at minMs until it catches up.
    const since = Math.min(now, startedAt ?? now);
    this.#schedule.add(slug, now, mode === 'created' ? { startedAt: since } : { startedAt: since, firstPollAt: now });
    this.#wakeUp();
  }

  start(): void {
    this.#loop = this.#run().catch((error: unknown) => {
      this.#o.state.fatal ??= error;
    });
  }

  /** Waits for the loop, the polls in flight and their lock writes; `stop` ends the loop at once. */
  async end(stop = false): Promise<void> {
    if (stop) this.#stopping = true;
    this.creating = false;
    this.#wakeUp();
    await this.#loop;
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
    await this.#o.settled.flush();
  }

  #wakeUp(): void {
    const resolve = this.#wake;
    this.#wake = undefined;
    resolve?.();
  }

  async #run(): Promise<void> {
    const { state, deadline, signal } = this.#o;
    for (;;) {
      if (this.#stopping || state.aborted() || state.fatal !== undefined) return;
      const next = this.#schedule.nextDue();
      if (next === undefined) {
        if (!this.creating) return;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        continue;
      }
      const now = Date.now();
      if (now >= deadline) return;
      if (next > now) await this.#sleep(Math.min(next, deadline) - now, signal);
      else for (const slug of this.#schedule.takeDue(now)) this.#pollInBackground(slug);
    }
  }

  /** One timer for every article: until the earliest due poll, an answer, a new article, the deadline or an abort. */
  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, 2_147_483_647));
      this.#wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #pollInBackground(slug: string): void {
    const poll: Promise<void> = this.#poll(slug)
      .catch((error: unknown) => {
        this.#o.state.fatal ??= error;
      })
      .finally(() => {
        this.#inflight.delete(poll);
        // Durable in the background: another build's create phase may hold the lock for a while.
        void this.#o.settled.flush().catch((error: unknown) => (this.#o.state.fatal ??= error));
        this.#wakeUp();
      });
    this.#inflight.add(poll);
  }

  async #poll(slug: string): Promise<void> {
    const { client, state, specBySlug, signal } = this.#o;
    const tracked = this.#tracked.get(slug)!;
    let status: ArticleStatus;
    try {
      status = await client.getArticle(tracked.articleId, signal === undefined ? {} : { signal });
      // Thrown here so it counts as a failed poll: nothing of another article is cached or recorded.
      const mismatch = otherArticleError(slug, tracked.articleId, specBySlug.get(slug), status);
      if (mismatch !== undefined) throw mismatch;
    } catch (error) {
      this.#pollFailed(slug, tracked, error);
      return;
    }
    this.#failures.delete(slug);
    this.#notFound.delete(slug);
    await this.#answered(slug, tracked, status);
  }

  #pollFailed(slug: string, tracked: { articleId: string; fetch: boolean }, error: unknown): void {
    const { state, settled } = this.#o;
    const code = (error as { code?: unknown }).code;
    if (state.aborted() || code === 'aborted') return;
    const notFound = code === 'not_found' ? (this.#notFound.get(slug) ?? 0) + 1 : 0;
    this.#notFound.set(slug, notFound);
    if (notFound >= MAX_POLL_FAILURES) {
      this.#schedule.remove(slug);
      const message = `the service answered 404 for article ${tracked.articleId} ${notFound} times in a row (deleted from its queue, or another account/service); if it is on the service's queue page, adopt it with this id (free), else re-create it with retryFailed (paid)`;
      settled.push({ kind: 'failed', slug, articleId: tracked.articleId, fetched: tracked.fetch, error: { code: 'not_found', message } });
    } else if (notFound > 0) {
      this.#schedule.recordError(slug, Date.now());
    } else if (typeof code === 'string' && FATAL_CODES.has(code)) {
      state.fatal ??= error;
    } else if (code === UNREACHABLE_CODE) {
      this.#abandon(error);
    } else {
      const failures = (this.#failures.get(slug) ?? 0) + 1;
      this.#failures.set(slug, failures);
      if (failures < MAX_POLL_FAILURES) this.#schedule.recordError(slug, Date.now());
      else {
        this.#schedule.remove(slug);
        state.fail(slug, entryErrorOf(error), tracked.articleId);
      }
    }
  }

  /**
   * The client stopped asking a service that keeps timing out or refusing connections: every article
   * still polled ends this run as its lock entry is (its id kept, a later run resumes it), instead of
   * each waiting for its next poll to fail.
   */
  #abandon(error: unknown): void {
    const { state } = this.#o;
    state.unreachable ??= entryErrorOf(error);
    for (const [slug, tracked] of this.#tracked) {
      if (!this.#schedule.has(slug)) continue;
      this.#schedule.remove(slug);
      if (tracked.fetch) state.fail(slug, state.unreachable, tracked.articleId);
      else state.record(slug, 'pending', state.unreachable);
    }
    this.#wakeUp();
  }

  async #answered(slug: string, tracked: { articleId: string; fetch: boolean }, status: ArticleStatus): Promise<void> {
    const { cache, settled, specBySlug, state } = this.#o;
    if (status.status === 'finished') {
      this.#schedule.remove(slug);
      const output = await cache.put(outputOf(status, tracked.articleId));
      const billed = billedFor(status.output.html, specBySlug.get(slug)?.request);
      settled.push({ kind: 'finished', slug, articleId: tracked.articleId, output, billed, fetched: tracked.fetch });
    } else if (status.status === 'failed') {
      this.#schedule.remove(slug);
      settled.push({ kind: 'failed', slug, articleId: tracked.articleId, error: serviceErrorOf(status.error), fetched: tracked.fetch });
    } else {
      const key = `${status.status}\u0000${status.statusDetail}\u0000${status.progress}`;
      if (this.#lastProgress.get(slug) !== key) {
        this.#lastProgress.set(slug, key);
        state.emit({ type: 'progress', slug, articleId: tracked.articleId, status: status.status, statusDetail: status.statusDetail, progress: status.progress });
      }
      this.#schedule.record(slug, Date.now(), status.progress, status.updatedAt);
    }
  }
}
