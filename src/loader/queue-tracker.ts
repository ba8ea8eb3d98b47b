// Follows one collection's sync events and publishes its article queue to the process-wide runtime.
import { billedByService } from '../contract/emulator-billing.js';
import type { CountedFindings } from '../quality/finding.js';
import { ProgressBoard, recordedWords, type ArticleProgress, type LockEntry, type LockEntryError, type SyncEvent, type SyncResult } from '../sync/index.js';
import { publishQueue, type ArticleMark, type QueueArticle, type QueueFinding, type QueueSnapshot, type QueueTotals } from './runtime.js';

type Base = Omit<QueueSnapshot, 'running' | 'articles' | 'totals' | 'changed' | 'problem' | 'updatedAt'>;

/** The words a lock entry records as billed (text and images), or undefined: not recorded, or written by the embedded emulator (free). */
function billedFor(entry: LockEntry | undefined): { words: number; imageWords: number } | undefined {
  if (entry === undefined || !billedByService(entry)) return undefined;
  const words = recordedWords(entry);
  return words === undefined ? undefined : { words, imageWords: entry.imageWords ?? 0 };
}

/** The panel's state of an article: its board phase, seen from the dev server. */
function queueState(article: ArticleProgress, finishedEarlier: boolean): QueueArticle['state'] {
  switch (article.phase) {
    case 'reused':
      return finishedEarlier ? 'finished' : 'reused';
    case 'waiting':
      return article.status === 'processing' ? 'processing' : 'queued';
    case 'finished':
    case 'failed':
    case 'unknown':
      return article.phase;
    default:
      return 'queued';
  }
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
  #quality: QueueSnapshot['quality'];
  #review: QueueSnapshot['review'];
  #estimates = new Map<string, number>();
  /** Each article's state in the current sync: the one reducer of sync events. */
  readonly #board = new ProgressBoard();
  /** Words billed per article while this process ran: the estimate once created, the recorded figure once finished. */
  readonly #words = new Map<string, { wordsBilled: number; wordsRecorded: boolean }>();
  readonly #finishedEarlier = new Set<string>();
  /** Articles created by this process: only their words are billed here (another build's are waited for). */
  readonly #createdHere = new Set<string>();
  /** Keywords the dev server may not create (frozen, over budget): never in a sync's plan, listed as failed all the same. */
  #blocked = new Map<string, QueueArticle>();
  /** Each article's marks (draft, scheduled, edited), as the last pass found them. */
  #marks = new Map<string, ArticleMark[]>();
  /** Each article's publish date (ISO), as the last pass found it. */
  #dates = new Map<string, string>();
  /** Each article's review state and quality findings, as its entry in the store last said them. */
  readonly #details = new Map<string, Pick<QueueArticle, 'review' | 'findings'>>();

  /** Whether a toolbar panel shows the queue (the dev server): only it reads each article's review state and findings. */
  readonly #panel: boolean;

  constructor(base: Base, url: (slug: string) => string, { panel }: { panel: boolean }) {
    this.#base = base;
    this.#url = url;
    this.#panel = panel;
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

  /** The marks of this pass's articles (draft, scheduled, edited; articles without any are left out) and their publish dates. */
  mark(marks: ReadonlyMap<string, ArticleMark[]>, dates: ReadonlyMap<string, string> = new Map()): void {
    this.#marks = new Map(marks);
    this.#dates = new Map(dates);
    this.#articles = this.#queue();
    this.#publish();
  }

  /**
   * An entry's review state and findings, as the store writer writes it. Not published by itself (a
   * build writes thousands of entries): the pass's next change, or the wait's next event, carries it.
   */
  describe(slug: string, details: Pick<QueueArticle, 'review' | 'findings'>): void {
    // A build has no panel: its summary counts findings and review outcomes from the pass (`quality`, `review`), not per article.
    if (!this.#panel) return;
    details = { ...this.#details.get(slug), ...details };
    this.#details.set(slug, details);
    const article = this.#articles.get(slug);
    if (article !== undefined) this.#articles.set(slug, { ...article, ...details });
  }

  readonly onEvent = (event: SyncEvent): void => {
    if (event.type === 'plan') {
      // An article finished in an earlier pass of this server stays "finished", not "reused".
      for (const [slug, article] of this.#articles) if (article.state === 'finished') this.#finishedEarlier.add(slug);
      for (const planned of event.plan.articles) if (planned.estimate !== undefined) this.#estimates.set(planned.slug, planned.estimate.words);
    }
    this.#board.apply(event);
    switch (event.type) {
      case 'created':
        this.#createdHere.add(event.slug);
        this.#words.set(event.slug, { wordsBilled: this.#estimates.get(event.slug) ?? 0, wordsRecorded: false });
        this.#changed = true;
        break;
      case 'finished':
      case 'fetched':
      case 'restored':
        this.#changed = true;
        break;
      case 'plan':
      case 'progress':
      case 'failed':
      case 'unknown':
        break;
      default:
        return;
    }
    this.#articles = this.#queue();
    this.#publish();
  };

  /** The queue as the panel shows it: the board's articles, then the keywords the dev server may not create. */
  #queue(): Map<string, QueueArticle> {
    const next = new Map<string, QueueArticle>();
    for (const article of this.#board.articles.values()) {
      const state = queueState(article, this.#finishedEarlier.has(article.slug));
      const words = this.#words.get(article.slug) ?? { wordsBilled: 0, wordsRecorded: false };
      next.set(article.slug, {
        slug: article.slug,
        keyword: article.keyword,
        url: this.#url(article.slug),
        state,
        statusDetail: state === 'queued' || state === 'processing' ? (article.detail ?? null) || null : null,
        progress: state === 'queued' || state === 'processing' ? article.progress : state === 'reused' || state === 'finished' ? 1 : 0,
        error: state === 'failed' || state === 'unknown' ? (article.error ?? null) : null,
        ...words,
        ...(this.#marks.has(article.slug) ? { marks: this.#marks.get(article.slug)! } : {}),
        ...(this.#dates.has(article.slug) ? { publishDate: this.#dates.get(article.slug)! } : {}),
        ...this.#details.get(article.slug),
      });
    }
    for (const [slug, article] of this.#blocked) if (!next.has(slug)) next.set(slug, article);
    return next;
  }

  /** An article finished while a sync still runs (the dev server's wait): its recorded words replace the estimate at once. */
  recordWords(slug: string, entry: LockEntry): void {
    const billed = billedFor(entry);
    if (billed === undefined || this.#articles.get(slug)?.state !== 'finished') return;
    this.#setWords(slug, { wordsBilled: billed.words, wordsRecorded: true });
    this.#publish();
  }

  /** One paid internal-link request. Not published by itself: the next change carries it (a build links thousands of articles). */
  linkCredit(): void {
    this.#totals.linkCredits += 1;
  }

  /** The quality findings of the pass's entries, published with its end. */
  quality({ all, errors, articles }: CountedFindings): void {
    const errorFindings = errors.map(({ slug, code, message }) => ({ slug, code, message }));
    this.#quality = { errors: errorFindings.length, warnings: all.length - errorFindings.length, articles, errorFindings };
  }

  /** Each article's findings for the panel (near_duplicate included, so after the pass's last check), every described article given its list. */
  articleFindings(findings: readonly { slug: string; code: string; severity: 'error' | 'warning'; message: string }[]): void {
    if (!this.#panel) return;
    const bySlug = new Map<string, QueueFinding[]>();
    for (const { slug, code, severity, message } of findings) {
      const mine = bySlug.get(slug);
      if (mine === undefined) bySlug.set(slug, [{ code, severity, message }]);
      else mine.push({ code, severity, message });
    }
    for (const slug of new Set([...this.#details.keys(), ...bySlug.keys()])) this.describe(slug, { findings: bySlug.get(slug) ?? [] });
  }

  /** The review gate's outcome of the pass (undefined: the gate is off), published with its end. */
  review(review: QueueSnapshot['review']): void {
    this.#review = review;
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
      if (billed !== undefined) this.#setWords(article.slug, { wordsBilled: billed.words, wordsRecorded: true });
      if (!this.#createdHere.delete(article.slug)) {
        waitedFor += 1;
        if (billed !== undefined) this.#setWords(article.slug, { wordsBilled: 0, wordsRecorded: true });
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

  #setWords(slug: string, words: { wordsBilled: number; wordsRecorded: boolean }): void {
    this.#words.set(slug, words);
    const article = this.#articles.get(slug);
    if (article !== undefined) this.#articles.set(slug, { ...article, ...words });
  }

  #publish(): void {
    publishQueue({
      ...this.#base,
      running: this.#running,
      articles: [...this.#articles.values()],
      totals: { ...this.#totals },
      changed: this.#changed,
      problem: this.#problem,
      ...(this.#quality === undefined ? {} : { quality: this.#quality }),
      ...(this.#review === undefined ? {} : { review: this.#review }),
      updatedAt: Date.now(),
    });
  }
}
