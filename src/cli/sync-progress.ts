// The state of a running sync as the CLI shows it, built from the engine's events; both progress displays read it.
import { ProgressBoard, type ArticleProgress, type SyncEvent, type SyncPlan } from '../sync/index.js';
import { planCountsLine } from './plan-report.js';

/** An article that needs work this run, as the board tracks it. */
export type { ArticleProgress } from '../sync/index.js';

/** A change worth a line of its own (both displays print these; the live one above its region). */
export interface ProgressNote {
  kind: 'plan' | 'created' | 'status' | 'finished' | 'fetched' | 'restored' | 'failed' | 'unknown' | 'warning' | 'lock-wait';
  slug?: string;
  text: string;
}

/** Articles that need the service this run: created, waited for or fetched. */
const WORK: ReadonlySet<string> = new Set(['create', 'wait', 'fetch']);

export class SyncProgress {
  readonly started = Date.now();
  plan: SyncPlan | undefined;
  readonly #board = new ProgressBoard();
  stopping = false;
  lockWait = false;

  /** Articles that need work this run, in manifest order. */
  get articles(): ArticleProgress[] {
    return [...this.#board.articles.values()].filter((article) => WORK.has(article.action));
  }

  /** Articles created in this run. */
  get created(): number {
    return this.articles.filter((article) => article.created).length;
  }

  /** Applies an event; returns the notes it gives rise to. */
  apply(event: SyncEvent): ProgressNote[] {
    const before = 'slug' in event && event.slug !== undefined ? this.#board.get(event.slug)?.status : undefined;
    this.#board.apply(event);
    switch (event.type) {
      case 'plan':
        this.plan = event.plan;
        this.lockWait = false;
        return [{ kind: 'plan', text: planCountsLine(event.plan) }];
      case 'lock-wait':
        this.lockWait = true;
        return [{ kind: 'lock-wait', text: `another build holds the lock on ${event.lockFile}; waiting for it` }];
      case 'created':
        return [{ kind: 'created', slug: event.slug, text: `article ${event.articleId}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}` }];
      case 'progress':
        return before !== event.status ? [{ kind: 'status', slug: event.slug, text: `${event.status}${event.statusDetail === '' ? '' : `: ${event.statusDetail}`}` }] : [];
      case 'finished':
      case 'fetched':
      case 'restored':
        return [{ kind: event.type, slug: event.slug, text: `article ${event.articleId}` }];
      case 'failed':
      case 'unknown':
        return [{ kind: event.type, slug: event.slug, text: `${event.error.code}: ${event.error.message}` }];
      case 'warning':
        return [{ kind: 'warning', ...(event.slug === undefined ? {} : { slug: event.slug }), text: event.message }];
      default:
        // `creating` would double the log (a `created` line follows at once): the live region shows it.
        return [];
    }
  }

  /** Work items done (finished, failed or unknown) out of those that needed work. */
  counts(): { total: number; done: number; finished: number; failed: number; inFlight: number; toCreate: number; fraction: number } {
    const articles = this.articles;
    const phase = (...phases: string[]): number => articles.filter((a) => phases.includes(a.phase)).length;
    const done = phase('finished', 'failed', 'unknown');
    const toCreate = phase('to-create');
    const sum = articles.reduce((total, a) => total + (ProgressBoard.done(a.phase) ? 1 : a.progress), 0);
    return {
      total: articles.length,
      done,
      finished: phase('finished'),
      failed: phase('failed', 'unknown'),
      inFlight: articles.length - done - toCreate,
      toCreate,
      fraction: articles.length === 0 ? 1 : sum / articles.length,
    };
  }

  /** Articles being created, written or fetched right now, in manifest order. */
  inFlight(): ArticleProgress[] {
    return this.articles.filter((a) => a.phase === 'creating' || a.phase === 'waiting' || a.phase === 'fetching');
  }
}
