// What the dev server sends the toolbar's Articles app: every collection's queue, ready to display. Browser-safe (no Node imports).
import type { QueueArticle, QueueSnapshot } from '../loader/index.js';

/** The toolbar app's id (also the prefix of its messages). */
export const TOOLBAR_APP_ID = 'astro-article-loader';

/** Server → app: a full `PanelState`. */
export const STATE_EVENT = `${TOOLBAR_APP_ID}:state`;
/** App → server: send me the state now (the app opened, or the connection came back). */
export const REFRESH_EVENT = `${TOOLBAR_APP_ID}:refresh`;

/** The dev server's endpoint for the panel's actions (Edit, Regenerate, Approve): a JSON POST, see panel-endpoint.ts. */
export const PANEL_ENDPOINT = `/_${TOOLBAR_APP_ID}/actions`;
/** The actions the panel may ask the endpoint for. */
export const PANEL_ACTIONS = ['approve', 'edit', 'regenerate'] as const;
export type PanelAction = (typeof PANEL_ACTIONS)[number];

/** The header carrying the dev server's token, which the panel receives in its state. */
export const TOKEN_HEADER = `x-${TOOLBAR_APP_ID}-token`;

export type ArticleState = QueueArticle['state'];

/** One collection's queue as the panel shows it: the loader's snapshot, paths relative to the project root when inside it. */
export type PanelCollection = QueueSnapshot;

export interface PanelState {
  collections: PanelCollection[];
  /** The embedded emulator of offline mode, while it runs. */
  emulator: { url: string } | null;
  /** What the panel's buttons send with each request to `PANEL_ENDPOINT`; null when this dev server takes no actions. */
  actions: { token: string } | null;
}

/** The order rows are listed in: what needs attention first, then what is done. */
export const STATE_ORDER: readonly ArticleState[] = ['unknown', 'processing', 'queued', 'failed', 'finished', 'reused'];

export interface QueueCounts {
  articles: number;
  byState: Record<ArticleState, number>;
  /**
   * Words billed for the articles written while this server ran (image words included), failed
   * ones left out: the service gives their words back. Recorded figures where the articles
   * finished, estimates for the rest.
   */
  wordsBilled: number;
  /** Part of `wordsBilled` is an estimate (an article is still being written). */
  estimated: boolean;
}

/** Counts by state and the words billed, from the article list (the totals only move when a sync returns). */
export function countQueue(collections: readonly Pick<PanelCollection, 'articles'>[]): QueueCounts {
  const byState: Record<ArticleState, number> = { processing: 0, queued: 0, failed: 0, unknown: 0, finished: 0, reused: 0 };
  let articles = 0;
  let wordsBilled = 0;
  let estimated = false;
  for (const collection of collections) {
    for (const article of collection.articles) {
      articles += 1;
      byState[article.state] += 1;
      // A failed article is refunded; an unknown create's bill is not known.
      if (article.state === 'failed' || article.state === 'unknown') continue;
      wordsBilled += article.wordsBilled;
      if (article.wordsBilled > 0 && !article.wordsRecorded) estimated = true;
    }
  }
  return { articles, byState, wordsBilled, estimated };
}
