// The quality checks beside the pipeline. Where the pipeline runs on the loader's thread (2 cores: see MIN_CORES in
// pipeline-pool.ts), the checks cost more than the pipeline itself, and the other core is mostly idle: a pass with
// enough articles to process checks them on one worker thread meanwhile. The worker reads the same final tree the
// pipeline made (copied to it, not parsed again), so its findings are the ones this thread would make.
import { Worker } from 'node:worker_threads';
import type { ArticleQuality, ArticleToCheck, CollectionPaths, QualityOptions } from '../quality/index.js';
import { revivedError, type SentError } from './thread-errors.js';

/** Checks one article with the pass's settings; the collection is the pass's. */
export interface QualityChecker {
  check(article: Omit<ArticleToCheck, 'collection'>): Promise<ArticleQuality>;
  close(): Promise<void>;
}

export type QualityRequest = { type: 'init'; checks: PassChecks } | { type: 'task'; id: number; article: Omit<ArticleToCheck, 'collection'> };
export type QualityReply = { id: number; ok: true; quality: ArticleQuality } | { id: number; ok: false; error: SentError };

/** The quality checks of a pass: its settings and the collection's paths (for `broken_internal_link`); a pass with every code off has none. */
export interface PassChecks {
  options: QualityOptions;
  collection: CollectionPaths;
}

/** Loaded on the first article checked, not with the loader: a build whose articles are all cached never loads the checks. */
async function articleQualityLazily(article: ArticleToCheck, options: QualityOptions): Promise<ArticleQuality> {
  return (await import('../quality/index.js')).articleQuality(article, options);
}

/** The checks on this thread, beside the pipeline. */
export function inlineChecker({ options, collection }: PassChecks): QualityChecker {
  return { check: (article) => articleQualityLazily({ ...article, collection }, options), close: async () => undefined };
}

/** The checks on one worker thread; should it stop, the articles it held and every later one are checked on this thread. */
export function qualityThread(checks: PassChecks): QualityChecker {
  return new QualityThread(checks);
}

interface Pending {
  article: Omit<ArticleToCheck, 'collection'>;
  resolve: (quality: ArticleQuality) => void;
  reject: (error: Error) => void;
}

class QualityThread implements QualityChecker {
  readonly #inline: QualityChecker;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #next = 0;

  constructor(checks: PassChecks) {
    this.#inline = inlineChecker(checks);
    let worker: Worker;
    try {
      worker = new Worker(new URL('./quality-worker.js', import.meta.url));
    } catch {
      // No thread where the package is not on disk as installed (a URL a thread cannot start from): every article is checked here.
      return;
    }
    worker.on('message', (reply: QualityReply) => this.#onReply(reply));
    worker.on('error', () => this.#stopped(worker));
    worker.on('exit', () => this.#stopped(worker));
    worker.postMessage({ type: 'init', checks } satisfies QualityRequest);
    this.#worker = worker;
  }

  check(article: Omit<ArticleToCheck, 'collection'>): Promise<ArticleQuality> {
    const worker = this.#worker;
    if (worker === undefined) return this.#inline.check(article);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      try {
        worker.postMessage({ type: 'task', id, article } satisfies QualityRequest);
      } catch {
        // A tree that cannot be copied (it never should): this article is checked here.
        this.#inline.check(article).then(resolve, reject);
        return;
      }
      this.#pending.set(id, { article, resolve, reject });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #onReply(reply: QualityReply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (pending === undefined) return;
    if (reply.ok) pending.resolve(reply.quality);
    else pending.reject(revivedError(reply.error));
  }

  /** The worker is gone (crashed, or closed with articles still held): what it held is checked here. */
  #stopped(worker: Worker): void {
    if (this.#worker === worker) this.#worker = undefined;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      this.#inline.check(pending.article).then(pending.resolve, pending.reject);
    }
  }
}
