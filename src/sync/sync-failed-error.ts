// The error a sync throws when articles failed and `onFailure` is `fail`: its own module, so the package root can export it without loading the engine.
import { SyncError } from './errors.js';
import { notReadyMessage } from './not-ready.js';
import type { SyncResult } from './result-shape.js';

/** Some articles failed and `onFailure` is `fail`. Thrown after the lock file is consistent; `result` has everything. */
export class SyncFailedError extends SyncError {
  declare readonly code: 'sync_failed';
  readonly result: SyncResult;

  constructor(result: SyncResult) {
    const articles = result.failures.map((f) => ({ slug: f.slug, keyword: f.keyword, status: f.outcome === 'failed' || f.outcome === 'unknown' || f.outcome === 'pending' ? f.outcome : undefined, ...(f.error === undefined ? {} : { error: f.error }) }));
    const headline = `${articles.length === 1 ? '1 article is' : `${articles.length} articles are`} not ready:`;
    super('sync_failed', notReadyMessage(articles, headline, '`onFailure: "skip"` builds without them.'));
    this.result = result;
  }
}
