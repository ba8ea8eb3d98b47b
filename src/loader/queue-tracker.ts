// Follows one collection's sync events and publishes its article queue to the process-wide runtime.
import type { LockEntryError, SyncEvent, SyncResult } from '../sync/index.js';
import { publishQueue, type QueueArticle, type QueueSnapshot } from './runtime.js';

type Base = Omit<QueueSnapshot, 'running' | 'articles' | 'totals' | 'changed' | 'problem' | 'updatedAt'>;

export class QueueTracker {
  readonly #base: Base;
  readonly #url: (slug: string) => string;
  #articles = new Map<string, QueueArticle>();
  #totals: QueueSnapshot['totals'] = { created: 0, wordsBilled: 0, reused: 0, finished: 0, failed: 0, pending: 0, requests: 0, waitedMs: 0 };
  #running = false;
  #changed = false;
  #problem: string | null = null;
  #estimates = new Map<string, number>();
  /** Keywords the dev server may not create (frozen, over budget): never in a sync's plan, listed as failed all the same. */
  #blocked = new Map<string, QueueArticle>();

  constructor(base: Base, url: (slug: string) => string) {
    this.#base = base;
    this.#url = url;
  }

  start(): void {
    this.#running = true;
    this.#problem = null;
    this.#publish();
  }

  /**
   * Dev: the keywords this pass keeps from being created, each with the reason. They are left out
   * of the sync, so only this puts them in the queue, as failed, until a pass lets them through.
   */
  block(blocked: readonly { slug: string; keyword: string; error: LockEntryError }[]): void {
    this.#blocked = new Map(
      blocked.map(({ slug, keyword, error }) => [
        slug,
        { slug, keyword, url: this.#url(slug), state: 'failed', statusDetail: null, progress: 0, error, wordsBilled: 0 } satisfies QueueArticle,
      ]),
    );
  }

  readonly onEvent = (event: SyncEvent): void => {
    const set = (slug: string, patch: Partial<QueueArticle>): void => {
      const article = this.#articles.get(slug);
      if (article !== undefined) this.#articles.set(slug, { ...article, ...patch });
    };
    switch (event.type) {
      case 'plan': {
        const next = new Map<string, QueueArticle>();
        for (const planned of event.plan.articles) {
          const earlier = this.#articles.get(planned.slug);
          const state: QueueArticle['state'] =
            planned.action === 'reuse' || planned.action === 'restore'
              ? earlier?.state === 'finished'
                ? 'finished'
                : 'reused'
              : planned.action === 'failed' || planned.action === 'unknown'
                ? 'failed'
                : 'queued';
          if (planned.estimate !== undefined) this.#estimates.set(planned.slug, planned.estimate.words);
          next.set(planned.slug, {
            slug: planned.slug,
            keyword: planned.keyword,
            url: this.#url(planned.slug),
            state,
            statusDetail: null,
            progress: state === 'queued' ? 0 : 1,
            error: state === 'failed' ? (planned.entry?.error ?? null) : null,
            wordsBilled: earlier?.wordsBilled ?? 0,
          });
        }
        for (const [slug, article] of this.#blocked) if (!next.has(slug)) next.set(slug, article);
        this.#articles = next;
        break;
      }
      case 'created':
        set(event.slug, { wordsBilled: this.#estimates.get(event.slug) ?? 0 });
        this.#changed = true;
        break;
      case 'progress':
        set(event.slug, { state: event.status === 'processing' ? 'processing' : 'queued', statusDetail: event.statusDetail, progress: event.progress });
        break;
      case 'finished':
      case 'fetched':
      case 'restored':
        set(event.slug, { state: 'finished', statusDetail: null, progress: 1, error: null });
        this.#changed = true;
        break;
      case 'failed':
      case 'unknown':
        set(event.slug, { state: 'failed', error: event.error });
        break;
      default:
        return;
    }
    this.#publish();
  };

  /** A sync ended (or stopped with `problem`); `result` when it returned. */
  finish(result: SyncResult | undefined, problem: string | null, options: { running?: boolean } = {}): void {
    this.#running = options.running ?? false;
    this.#problem = problem;
    if (result !== undefined) {
      const t = result.totals;
      this.#totals = {
        created: this.#totals.created + t.created,
        wordsBilled: this.#totals.wordsBilled + t.estimatedWords,
        reused: t.reused,
        finished: this.#totals.finished + t.finished + t.fetched,
        failed: t.failed + t.unknown + this.#blocked.size,
        pending: t.pending,
        requests: this.#totals.requests + t.requests,
        waitedMs: this.#totals.waitedMs + (t.waited > 0 ? result.durationMs : 0),
      };
    }
    this.#publish();
  }

  #publish(): void {
    publishQueue({
      ...this.#base,
      running: this.#running,
      articles: [...this.#articles.values()],
      totals: { ...this.#totals },
      changed: this.#changed,
      problem: this.#problem,
      updatedAt: Date.now(),
    });
  }
}
