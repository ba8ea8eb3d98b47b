// Processing many articles at once on worker threads: when a pass must run the pipeline for enough articles to pay
// for starting threads (a changed link map or pipeline option touches every article), each worker takes articles
// from one queue. The pass's settings are sent to each worker once (so its compiled link map is reused); their
// async functions (image fetch, the download and link caches, the service's link call) stay on this thread and are
// called over the worker's message port.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ArticleLoaderError } from '../errors.js';
import { ProcessedStore } from '../sync/index.js';
import { articleContext, type SiteContext } from './article-entry.js';
import { writeProcessed, type ProcessedRecord } from './processed-entries.js';
import { inlineChecker, qualityThread, type PassChecks, type QualityChecker } from './quality-thread.js';
import { revivedError, type SentError } from './thread-errors.js';

/** Below this many articles to process, threads cost more to start (≈0.3 s each) than they save (≈3 ms an article). */
export const WORKER_THRESHOLD = 100;
/** At most this many workers, whatever the machine: past it, writing the store dominates. */
const MAX_WORKERS = 4;
/**
 * Workers only with at least this many cores: the loader's own thread keeps one busy (reading outputs,
 * writing the store), and on 2 cores the pipeline in this thread already uses about 1.5 of them
 * (compression and file writes on libuv's pool, garbage collection): measured, 2 workers there were
 * 1.1-1.3x slower than none (`npm run bench`, "reprocessing").
 */
const MIN_CORES = 3;

/** What one article needs besides the pass's settings, and where its record is kept. */
export interface PipelineJob {
  html: string;
  article: Parameters<typeof articleContext>[1];
  keep: { cacheDir: string; output: string; key: string; polished: boolean; updatedAt: number; edit: string | null };
}

/** Runs the pipeline for one article and keeps the record in the processed cache: on this thread, or on a worker. */
export interface ArticleProcessor {
  process(job: PipelineJob): Promise<ProcessedRecord>;
  close(): Promise<void>;
}

/** One job, wherever it runs: the pipeline, the quality checks on its result (by `checker`: beside it, so a worker does both), then the record written (compressing it is work too). */
export async function runJob(site: SiteContext, job: PipelineJob, checker: QualityChecker | undefined): Promise<ProcessedRecord> {
  // Loaded on the first job, not with the loader: a build whose articles are all cached never loads the pipeline.
  const { processArticleTree } = await import('../pipeline/processor.js');
  const { article, tree } = await processArticleTree(job.html, articleContext(site, job.article));
  const { slug, request } = job.article;
  // The checks read the pipeline's final tree: parsing its HTML again was half their cost.
  const quality = checker === undefined ? null : await checker.check({ slug, request, html: article.html, title: article.title, tree });
  const record: ProcessedRecord = { article, polished: job.keep.polished, updatedAt: job.keep.updatedAt, edit: job.keep.edit, quality };
  await writeProcessed(new ProcessedStore(job.keep.cacheDir), job.article.slug, job.keep.output, job.keep.key, record);
  return record;
}

/** A function of the settings, left on this thread: `{ [FUNCTION_MARK]: index }`. */
export const FUNCTION_MARK = '__aalFunction';

export type WorkerRequest =
  | { type: 'init'; site: unknown; checks: PassChecks | undefined }
  | { type: 'task'; id: number; job: PipelineJob }
  | { type: 'reply'; call: number; ok: boolean; value?: unknown; error?: string };
export type WorkerMessage =
  | { type: 'done'; id: number; ok: true; record: ProcessedRecord }
  | { type: 'done'; id: number; ok: false; error: SentError }
  | { type: 'call'; call: number; fn: number; args: unknown[] };

/** A fetched response as it crosses to a worker. */
export interface SentResponse {
  [FUNCTION_MARK]: 'response';
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

/** The pipeline on this thread; the checks beside it, or on `checker` (closed with the processor). */
export function inProcess(site: SiteContext, checks: PassChecks | undefined, checker = checks && inlineChecker(checks)): ArticleProcessor {
  return { process: (job) => runJob(site, job, checker), close: async () => checker?.close() };
}

/**
 * The processor for `jobs` articles: workers when there are enough of them, the machine has the
 * cores (`MIN_CORES`), and every function in the settings can be called from a worker; else this
 * thread, with the checks of enough articles on a thread of their own when there is a second core.
 */
export function articleProcessor(site: SiteContext, checks: PassChecks | undefined, jobs: number, cores = availableParallelism()): ArticleProcessor {
  const workers = Math.min(MAX_WORKERS, cores - 1, Math.ceil(jobs / WORKER_THRESHOLD));
  if (jobs >= WORKER_THRESHOLD && cores >= MIN_CORES && canCrossThreads(site)) return workerPool(site, checks, workers);
  if (checksBeside(checks, jobs, cores)) return inProcess(site, checks, qualityThread(checks));
  return inProcess(site, checks);
}

/** Whether a pass on this thread checks its articles on a thread of their own: enough of them, and a second core. */
export function checksBeside(checks: PassChecks | undefined, jobs: number, cores: number): checks is PassChecks {
  return checks !== undefined && jobs >= WORKER_THRESHOLD && cores >= 2;
}

/** A pool of `count` pipeline workers (the bench and the tests make one whatever the machine). */
export function workerPool(site: SiteContext, checks: PassChecks | undefined, count: number): ArticleProcessor {
  return new WorkerPool(site, checks, count);
}

/** Whether every function of the settings can be called from a worker: async ones can, a synchronous one (`externalLinks.rel`) cannot. */
export function canCrossThreads(site: SiteContext): boolean {
  return typeof site.externalLinks?.rel !== 'function' && typeof site.externalLinks?.target !== 'function';
}

/** The settings with each function replaced by its index in `functions` (called with its object as `this`). */
function encode(value: unknown, functions: { fn: (...args: unknown[]) => unknown; self: unknown }[], self: unknown): unknown {
  if (typeof value === 'function') {
    functions.push({ fn: value as (...args: unknown[]) => unknown, self });
    return { [FUNCTION_MARK]: functions.length - 1 };
  }
  if (Array.isArray(value)) return value.map((item) => encode(item, functions, value));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, encode(member, functions, value)]));
  return value;
}

class WorkerPool implements ArticleProcessor {
  readonly #site: SiteContext;
  /** The checks of the articles this thread processes once no worker is left. */
  readonly #inline: QualityChecker | undefined;
  readonly #functions: { fn: (...args: unknown[]) => unknown; self: unknown }[] = [];
  readonly #workers: Worker[] = [];
  readonly #idle: Worker[] = [];
  readonly #queue: { id: number; job: PipelineJob }[] = [];
  readonly #pending = new Map<number, { resolve: (record: ProcessedRecord) => void; reject: (error: Error) => void; worker?: Worker }>();
  #next = 0;

  constructor(site: SiteContext, checks: PassChecks | undefined, count: number) {
    this.#site = site;
    this.#inline = checks && inlineChecker(checks);
    const encoded = encode(site, this.#functions, undefined);
    for (let i = 0; i < count; i++) {
      const worker = new Worker(new URL('./pipeline-worker.js', import.meta.url));
      worker.on('message', (message: WorkerMessage) => this.#onMessage(worker, message));
      worker.on('error', (error) => this.#failWorker(worker, error));
      worker.on('exit', (code) => {
        if (this.#workers.includes(worker)) this.#failWorker(worker, new Error(`exit code ${code}`));
      });
      worker.postMessage({ type: 'init', site: encoded, checks } satisfies WorkerRequest);
      this.#workers.push(worker);
      this.#idle.push(worker);
    }
  }

  process(job: PipelineJob): Promise<ProcessedRecord> {
    // Every worker stopped: the rest of the pass runs on this thread.
    if (this.#workers.length === 0) return runJob(this.#site, job, this.#inline);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending.set(id, { resolve, reject });
      this.#queue.push({ id, job });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #dispatch(): void {
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const worker = this.#idle.pop()!;
      const { id, job } = this.#queue.shift()!;
      this.#pending.get(id)!.worker = worker;
      worker.postMessage({ type: 'task', id, job } satisfies WorkerRequest);
    }
  }

  #onMessage(worker: Worker, message: WorkerMessage): void {
    if (message.type === 'call') {
      void this.#call(worker, message);
      return;
    }
    const pending = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    this.#idle.push(worker);
    this.#dispatch();
    if (pending === undefined) return;
    if (message.ok) pending.resolve(message.record);
    else pending.reject(revivedError(message.error));
  }

  /** A function of the settings, called for a worker; a Response goes back as its status, headers and body. */
  async #call(worker: Worker, message: Extract<WorkerMessage, { type: 'call' }>): Promise<void> {
    const { fn, self } = this.#functions[message.fn]!;
    try {
      const value = await fn.apply(self, message.args);
      if (value instanceof Response) {
        const sent = await sendResponse(value);
        worker.postMessage({ type: 'reply', call: message.call, ok: true, value: sent } satisfies WorkerRequest, sent.body === null ? [] : [sent.body]);
      } else {
        worker.postMessage({ type: 'reply', call: message.call, ok: true, value } satisfies WorkerRequest);
      }
    } catch (error) {
      worker.postMessage({ type: 'reply', call: message.call, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerRequest);
    }
  }

  /**
   * A worker that crashed: its article fails, saying so, and the others go on with the remaining
   * workers, or on this thread once none is left (nothing queued waits for a worker that never comes).
   */
  #failWorker(worker: Worker, error: Error): void {
    for (const [id, pending] of this.#pending) {
      if (pending.worker !== worker) continue;
      this.#pending.delete(id);
      pending.reject(new ArticleLoaderError('pipeline_worker_stopped', `a pipeline worker stopped while processing this article (${error.message}); build again, and report it if it repeats`, { cause: error }));
    }
    if (!this.#workers.includes(worker)) return;
    this.#workers.splice(this.#workers.indexOf(worker), 1);
    if (this.#idle.includes(worker)) this.#idle.splice(this.#idle.indexOf(worker), 1);
    if (this.#workers.length > 0) return;
    for (const { id, job } of this.#queue.splice(0)) {
      const pending = this.#pending.get(id)!;
      this.#pending.delete(id);
      runJob(this.#site, job, this.#inline).then(pending.resolve, pending.reject);
    }
  }
}

async function sendResponse(response: Response): Promise<SentResponse> {
  const body = response.body === null ? null : await response.arrayBuffer();
  return { [FUNCTION_MARK]: 'response', status: response.status, statusText: response.statusText, headers: headerList(response.headers), body };
}

function headerList(headers: Headers): [string, string][] {
  const list: [string, string][] = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}
