// Where each article of a run stands, from the engine's events: the one reducer behind the CLI display, the loader's queue and the toolbar panel.
import type { LockEntryError } from './lock-file.js';
import type { PlanAction } from './plan.js';
import type { SyncEvent } from './result-shape.js';

/**
 * - `reused`: served from the cache or restored; nothing asked of the service.
 * - `to-create`, `creating`: a create is planned, or its request is in flight.
 * - `waiting`: the article has an id and is being written (`status`: `queued` or `processing`).
 * - `fetching`: finished, its output is fetched with one GET.
 * - `finished`, `failed`, `unknown`: how it ended (`unknown`: a create whose outcome was lost).
 */
export type ProgressPhase = 'reused' | 'to-create' | 'creating' | 'waiting' | 'fetching' | 'finished' | 'failed' | 'unknown';

export interface ArticleProgress {
  slug: string;
  keyword: string;
  /** What the plan said to do with it. */
  action: PlanAction;
  phase: ProgressPhase;
  articleId?: string;
  /** The service's status (`queued`, `processing`) and statusDetail, once polled. */
  status?: string;
  detail?: string;
  /** 0..1 */
  progress: number;
  error?: LockEntryError;
  /** Created by this run (its words are billed to it). */
  created: boolean;
}

const DONE: ReadonlySet<ProgressPhase> = new Set(['reused', 'finished', 'failed', 'unknown']);

function initialPhase(action: PlanAction): ProgressPhase {
  switch (action) {
    case 'reuse':
    case 'restore':
      return 'reused';
    case 'create':
      return 'to-create';
    case 'fetch':
      return 'fetching';
    case 'failed':
    case 'unknown':
      return action;
    default:
      return 'waiting';
  }
}

/** Applies a run's events to one record per article, in manifest order. */
export class ProgressBoard {
  readonly articles = new Map<string, ArticleProgress>();

  /** Whether `phase` is an end state (nothing more happens to the article in this run). */
  static done(phase: ProgressPhase): boolean {
    return DONE.has(phase);
  }

  apply(event: SyncEvent): void {
    switch (event.type) {
      case 'plan':
        this.articles.clear();
        for (const article of event.plan.articles) {
          const phase = initialPhase(article.action);
          const error = phase === 'failed' || phase === 'unknown' ? article.entry?.error : undefined;
          const articleId = phase === 'to-create' ? undefined : article.entry?.articleId;
          this.articles.set(article.slug, {
            slug: article.slug,
            keyword: article.keyword,
            action: article.action,
            phase,
            progress: DONE.has(phase) && phase !== 'failed' && phase !== 'unknown' ? 1 : 0,
            created: false,
            ...(articleId === undefined ? {} : { articleId }),
            ...(error === undefined ? {} : { error }),
          });
        }
        return;
      case 'creating':
        this.#patch(event.slug, { phase: 'creating', detail: event.attempt > 1 ? `attempt ${event.attempt}` : '' });
        return;
      case 'created':
        this.#patch(event.slug, { phase: 'waiting', articleId: event.articleId, status: 'queued', detail: '', created: true });
        return;
      case 'progress':
        this.#patch(event.slug, { phase: 'waiting', articleId: event.articleId, status: event.status, detail: event.statusDetail, progress: Math.max(0, Math.min(1, event.progress)) });
        return;
      case 'finished':
      case 'fetched':
      case 'restored':
        this.#patch(event.slug, { phase: 'finished', progress: 1, articleId: event.articleId });
        return;
      case 'failed':
      case 'unknown':
        this.#patch(event.slug, { phase: event.type, error: event.error });
        return;
      default:
        return;
    }
  }

  get(slug: string): ArticleProgress | undefined {
    return this.articles.get(slug);
  }

  #patch(slug: string, patch: Partial<ArticleProgress>): void {
    const article = this.articles.get(slug) ?? { slug, keyword: slug, action: 'wait', phase: 'waiting', progress: 0, created: false };
    this.articles.set(slug, { ...article, ...patch });
  }
}
