// Follows one collection's sync events and publishes its article queue to the process-wide runtime.
import { recordedWords, type LockEntry, type LockEntryError, type SyncEvent, type SyncResult } from '../sync/index.js';
import { publishQueue, type QueueArticle, type QueueSnapshot, type QueueTotals } from './runtime.js';

type Base = Omit<QueueSnapshot, 'running' | 'articles' | 'totals' | 'changed' | 'problem' | 'updatedAt'>;

/** The words a lock entry records as billed (text and images), or undefined: not recorded, or written by the embedded emulator (free). */
function billedFor(entry: LockEntry | undefined): { words: number; imageWords: number } | undefined {
  if (entry === undefined || entry.emulator === true) return undefined;
  const words = recordedWords(entry);
  return words === undefined ? undefined : { words, imageWords: entry.imageWords ?? 0 };
}

export class QueueTracker {
  readonly #base: Base;
  readonly #url: (slug: string) => string;
  #articles = new Map<string, QueueArticle>();
  #totals: QueueTotals = {
    created: 0,
    estimatedWords: 0,
    billedWords: 0,
    imageWords: 0,
    linkCredits: 0,
    reused: 0,
    finished: 0,
    failed: 0,
    unknown: 0,
    waitedFor: 0,
    pending: 0,
    requests: 0,
    waitedMs: 0,
  };
  #running = false;
  #changed = false;
  #problem: string | null = null;
  #estimates = new Map<string, number>();
  /** Articles created by this process: only their words are billed here (another build's are waited for). */
  readonly #createdHere = new Set<string>();
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
        { slug, keyword, url: this.#url(slug), state: 'failed', statusDetail: null, progress: 0, error, wordsBilled: 0, wordsRecorded: false } satisfies QueueArticle,
      ]),
    );
  }

  readonly onEvent = (event: SyncEvent): void => {
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
              : planned.action === 'failed'
                ? 'failed'
                : planned.action === 'unknown'
                  ? 'unknown'
                  : 'queued';
          if (planned.estimate !== undefined) this.#estimates.set(planned.slug, planned.estimate.words);
          next.set(planned.slug, {
            slug: planned.slug,
            keyword: planned.keyword,
            url: this.#url(planned.slug),
            state,
            statusDetail: null,
            progress: state === 'queued' ? 0 : 1,
            error: state === 'failed' || state === 'unknown' ? (planned.entry?.error ?? null) : null,
            wordsBilled: earlier?.wordsBilled ?? 0,
            wordsRecorded: earlier?.wordsRecorded ?? false,
          });
        }
        for (const [slug, article] of this.#blocked) if (!next.has(slug)) next.set(slug, article);
        this.#articles = next;
        break;
      }
      case 'created':
        this.#createdHere.add(event.slug);
        this.#set(event.slug, { wordsBilled: this.#estimates.get(event.slug) ?? 0, wordsRecorded: false });
        this.#changed = true;
        break;
      case 'progress':
        this.#set(event.slug, { state: event.status === 'processing' ? 'processing' : 'queued', statusDetail: event.statusDetail, progress: event.progress });
        break;
      case 'finished':
      case 'fetched':
      case 'restored':
        this.#set(event.slug, { state: 'finished', statusDetail: null, progress: 1, error: null });
        this.#changed = true;
        break;
      case 'failed':
        this.#set(event.slug, { state: 'failed', error: event.error });
        break;
      case 'unknown':
        this.#set(event.slug, { state: 'unknown', error: event.error });
        break;
      default:
        return;
    }
    this.#publish();
  };

  /** An article finished while a sync still runs (the dev server's wait): its recorded words replace the estimate at once. */
  recordWords(slug: string, entry: LockEntry): void {
    const billed = billedFor(entry);
    if (billed === undefined || this.#articles.get(slug)?.state !== 'finished') return;
    this.#set(slug, { wordsBilled: billed.words, wordsRecorded: true });
    this.#publish();
  }

  /** One paid internal-link request. Not published by itself: the next change carries it (a build links thousands of articles). */
  linkCredit(): void {
    this.#totals.linkCredits += 1;
  }

  /**
   * A sync ended (or stopped with `problem`); `result` when it returned. `requests`: every request
   * made since the sync started, the internal-link requests of rendering included (default: the sync's own).
   */
  finish(result: SyncResult | undefined, problem: string | null, options: { running?: boolean; requests?: number } = {}): void {
    this.#running = options.running ?? false;
    this.#problem = problem;
    if (result !== undefined) this.#totals = this.#withResult(result, options.requests ?? result.totals.requests);
    this.#publish();
  }

  /**
   * The totals after a sync returned. Only articles this process created are billed here, each once;
   * articles finished by this sync that another build (or an earlier run) created were waited for.
   */
  #withResult(result: SyncResult, requests: number): QueueTotals {
    const t = result.totals;
    let billedWords = 0;
    let imageWords = 0;
    let waitedFor = 0;
    for (const article of result.articles) {
      if (article.outcome !== 'finished') continue;
      const billed = billedFor(article.entry);
      if (billed !== undefined) this.#set(article.slug, { wordsBilled: billed.words, wordsRecorded: true });
      if (!this.#createdHere.delete(article.slug)) {
        waitedFor += 1;
        if (billed !== undefined) this.#set(article.slug, { wordsBilled: 0 });
      } else if (billed !== undefined) {
        billedWords += billed.words;
        imageWords += billed.imageWords;
      }
    }
    return {
      created: this.#totals.created + t.created,
      estimatedWords: this.#totals.estimatedWords + t.estimatedWords,
      billedWords: this.#totals.billedWords + billedWords,
      imageWords: this.#totals.imageWords + imageWords,
      linkCredits: this.#totals.linkCredits,
      reused: t.reused,
      finished: this.#totals.finished + t.finished + t.fetched,
      failed: t.failed + this.#blocked.size,
      unknown: t.unknown,
      waitedFor: this.#totals.waitedFor + waitedFor,
      pending: t.pending,
      requests: this.#totals.requests + requests,
      waitedMs: this.#totals.waitedMs + (t.waited > 0 ? result.durationMs : 0),
    };
  }

  #set(slug: string, patch: Partial<QueueArticle>): void {
    const article = this.#articles.get(slug);
    if (article !== undefined) this.#articles.set(slug, { ...article, ...patch });
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
