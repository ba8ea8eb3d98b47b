// The state of a running sync as the CLI shows it, built from the engine's events; both progress displays read it.
import type { LockEntryError, SyncEvent, SyncPlan } from '../sync/index.js';
import { planCountsLine } from './plan-report.js';

/** Where one article that needs work stands. `creating`: its create request is in flight. */
export type ArticlePhase = 'to-create' | 'creating' | 'waiting' | 'fetching' | 'finished' | 'failed' | 'unknown';

export interface ArticleProgress {
  slug: string;
  phase: ArticlePhase;
  articleId?: string;
  /** The service's status (`queued`, `processing`) and statusDetail, once polled. */
  status?: string;
  detail?: string;
  /** 0..1 */
  progress: number;
  error?: LockEntryError;
}

/** A change worth a line of its own (both displays print these; the live one above its region). */
export interface ProgressNote {
  kind: 'plan' | 'created' | 'status' | 'finished' | 'fetched' | 'restored' | 'failed' | 'unknown' | 'warning' | 'lock-wait';
  slug?: string;
  text: string;
}

export class SyncProgress {
  readonly started = Date.now();
  plan: SyncPlan | undefined;
  /** Articles that need work this run, in manifest order. */
  readonly articles = new Map<string, ArticleProgress>();
  created = 0;
  stopping = false;
  lockWait = false;

  /** Applies an event; returns the notes it gives rise to. */
  apply(event: SyncEvent): ProgressNote[] {
    switch (event.type) {
      case 'plan': {
        this.plan = event.plan;
        this.articles.clear();
        for (const article of event.plan.articles) {
          const phase: ArticlePhase | undefined =
            article.action === 'create' ? 'to-create' : article.action === 'wait' ? 'waiting' : article.action === 'fetch' ? 'fetching' : undefined;
          if (phase === undefined) continue;
          this.articles.set(article.slug, {
            slug: article.slug,
            phase,
            progress: 0,
            ...(article.entry?.articleId === undefined || phase === 'to-create' ? {} : { articleId: article.entry.articleId }),
          });
        }
        this.lockWait = false;
        return [{ kind: 'plan', text: planCountsLine(event.plan) }];
      }
      case 'lock-wait':
        this.lockWait = true;
        return [{ kind: 'lock-wait', text: `another build holds the lock on ${event.lockFile}; waiting for it` }];
      case 'creating': {
        const article = this.#article(event.slug);
        article.phase = 'creating';
        article.detail = event.attempt > 1 ? `attempt ${event.attempt}` : '';
        // Its own line would double the log (a `created` line follows at once): the live region shows it.
        return [];
      }
      case 'created': {
        this.created += 1;
        const article = this.#article(event.slug);
        article.phase = 'waiting';
        article.articleId = event.articleId;
        article.status = 'queued';
        article.detail = '';
        return [{ kind: 'created', slug: event.slug, text: `article ${event.articleId}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}` }];
      }
      case 'progress': {
        const article = this.#article(event.slug);
        const changed = article.status !== event.status;
        article.phase = 'waiting';
        article.articleId = event.articleId;
        article.status = event.status;
        article.detail = event.statusDetail;
        article.progress = Math.max(0, Math.min(1, event.progress));
        return changed ? [{ kind: 'status', slug: event.slug, text: `${event.status}${event.statusDetail === '' ? '' : `: ${event.statusDetail}`}` }] : [];
      }
      case 'finished':
      case 'fetched':
      case 'restored': {
        const article = this.#article(event.slug);
        article.phase = 'finished';
        article.progress = 1;
        article.articleId = event.articleId;
        return [{ kind: event.type, slug: event.slug, text: `article ${event.articleId}` }];
      }
      case 'failed':
      case 'unknown': {
        const article = this.#article(event.slug);
        article.phase = event.type;
        article.error = event.error;
        return [{ kind: event.type, slug: event.slug, text: `${event.error.code}: ${event.error.message}` }];
      }
      case 'warning':
        return [{ kind: 'warning', ...(event.slug === undefined ? {} : { slug: event.slug }), text: event.message }];
      case 'done':
        return [];
    }
  }

  /** Work items done (finished, failed or unknown) out of those that needed work. */
  counts(): { total: number; done: number; finished: number; failed: number; inFlight: number; toCreate: number; fraction: number } {
    let done = 0;
    let finished = 0;
    let failed = 0;
    let inFlight = 0;
    let toCreate = 0;
    let sum = 0;
    for (const article of this.articles.values()) {
      if (article.phase === 'finished') finished += 1;
      else if (article.phase === 'failed' || article.phase === 'unknown') failed += 1;
      else if (article.phase === 'to-create') toCreate += 1;
      else inFlight += 1;
      if (article.phase === 'finished' || article.phase === 'failed' || article.phase === 'unknown') {
        done += 1;
        sum += 1;
      } else sum += article.progress;
    }
    const total = this.articles.size;
    return { total, done, finished, failed, inFlight, toCreate, fraction: total === 0 ? 1 : sum / total };
  }

  /** Articles being created, written or fetched right now, in manifest order. */
  inFlight(): ArticleProgress[] {
    return [...this.articles.values()].filter((a) => a.phase === 'creating' || a.phase === 'waiting' || a.phase === 'fetching');
  }

  #article(slug: string): ArticleProgress {
    let article = this.articles.get(slug);
    if (article === undefined) {
      article = { slug, phase: 'waiting', progress: 0 };
      this.articles.set(slug, article);
    }
    return article;
  }
}
