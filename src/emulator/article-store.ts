// The articles the emulator holds and the worker pool that moves them queued → processing → finished | failed.
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ArticleStatusValue } from '../contract/response-schema.js';
import type { Clock } from './clock.js';
import type { Random } from './seeded-random.js';
import type { ArticleFlaws } from './flaw-options.js';
import type { WrittenSoFar } from './model-writer/index.js';
import { gunzipSync, gzipSync } from 'node:zlib';

export interface ArticleError {
  code: string;
  message: string;
}

export interface ArticleRecord {
  id: string;
  /** Account name (never its key). */
  account: string;
  request: ArticleRequest;
  requestHash: string;
  createdAt: number;
  updatedAt: number;
  status: ArticleStatusValue;
  statusDetail: string;
  progress: number;
  error: ArticleError | null;
  /** Present once finished. Image URLs are stored as tokens and resolved per answer. */
  output?: { html: string; polishedHtml: string | null };
  finishedAt?: number;
  /** Words the model writer wrote (billed instead of the estimate reserved at creation); unset for the deterministic writer. */
  wordsWritten?: number;
  /** The model writer's answers so far, while it writes: a restart resumes from them. Dropped once the article settles. */
  written?: WrittenSoFar;
  /** Decided at creation so the outcome does not depend on timing: */
  failure?: ArticleError & { atStep: number };
  /** The flaws it is written with (the `flaws` option), decided at creation; unset for a clean article. */
  flaws?: ArticleFlaws;
  writingMs: number;
  queueDelayMs: number;
}

/**
 * A finished article's HTML, kept compressed: an emulator holding 100,000 articles kept about 3 GB of HTML strings, and
 * its garbage collector's work grew with them (its CPU time 18.4× for 10× the articles). Read as plain strings (each
 * read inflates), written to the state file as plain strings.
 */
export class KeptOutput {
  readonly #html: Buffer;
  readonly #polishedHtml: Buffer | null;

  constructor(html: string, polishedHtml: string | null) {
    this.#html = gzipSync(html, { level: 1 });
    this.#polishedHtml = polishedHtml === null ? null : gzipSync(polishedHtml, { level: 1 });
  }

  get html(): string {
    return gunzipSync(this.#html).toString('utf8');
  }

  get polishedHtml(): string | null {
    return this.#polishedHtml === null ? null : gunzipSync(this.#polishedHtml).toString('utf8');
  }

  toJSON(): { html: string; polishedHtml: string | null } {
    return { html: this.html, polishedHtml: this.polishedHtml };
  }
}

/** What the worker needs from a written article. */
export interface ArticleDraft {
  steps: string[];
  html: string;
  polishedHtml: string | null;
}

/** Reports the step a live writer starts: its statusDetail and the fraction done. */
export type ReportStep = (statusDetail: string, progress: number) => void;

/**
 * Writes an article as the work happens (the model writer): reports each step as it starts and
 * resolves with the draft and the words written, or rejects with `{ code, message }` to fail it.
 */
export type LiveWrite = (record: ArticleRecord, report: ReportStep, signal: AbortSignal) => Promise<ArticleDraft & { words: number }>;

export interface ArticleWorkersOptions {
  clock: Clock;
  /** Maximum articles in `processing` at once (Infinity allowed). */
  workers: number;
  /** The (deterministic) draft of an article; called when a worker takes it. */
  draft: (record: ArticleRecord) => ArticleDraft;
  /** When set, articles are written by it, live, instead of walking the draft's steps on the clock. */
  write?: LiveWrite | undefined;
  /** After every state change (persistence). */
  onChange: (record: ArticleRecord) => void;
  /** After finished / failed (webhooks, ledger). */
  onSettled: (record: ArticleRecord) => void;
}

export const STATUS_DETAIL = {
  queued: 'Queued: waiting for a free writer',
  finished: 'Article finished',
} as const;

/** Runs articles through their states. Writing time is spread evenly over the draft's steps. */
export class ArticleWorkers {
  readonly #options: ArticleWorkersOptions;
  readonly #ready: ArticleRecord[] = [];
  readonly #active = new Set<string>();
  readonly #waiting = new Set<string>();
  /** Live writes in progress; clear() aborts them. */
  readonly #writes = new Set<AbortController>();
  #paused = false;
  /** Bumped by clear(): work started before it stops at its next step. */
  #generation = 0;
  #idleWaiters: (() => void)[] = [];
  #workers: number;

  constructor(options: ArticleWorkersOptions) {
    this.#options = options;
    this.#workers = options.workers;
  }

  /** Take an article in `queued` state; it becomes eligible after its queue delay. */
  add(record: ArticleRecord): void {
    this.#waiting.add(record.id);
    const generation = this.#generation;
    void this.#options.clock.sleep(record.queueDelayMs).then(() => {
      if (this.#options.clock.stopped || generation !== this.#generation) return;
      this.#waiting.delete(record.id);
      this.#ready.push(record);
      this.#pump();
    });
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    this.#pump();
  }

  setWorkers(workers: number): void {
    this.#workers = workers;
    this.#pump();
  }

  /** Articles not yet finished or failed. */
  get busy(): number {
    return this.#ready.length + this.#active.size + this.#waiting.size;
  }

  /** Resolves when no article is queued or processing (pending forever while paused with work). */
  idle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Forget queued work (reset / stop); running articles stop at their next step. */
  clear(): void {
    this.#generation++;
    this.#ready.length = 0;
    this.#waiting.clear();
    for (const controller of this.#writes) controller.abort();
    this.#checkIdle();
  }

  #pump(): void {
    while (!this.#paused && this.#ready.length > 0 && this.#active.size < this.#workers) {
      const record = this.#ready.shift() as ArticleRecord;
      this.#active.add(record.id);
      void this.#process(record).finally(() => {
        this.#active.delete(record.id);
        this.#pump();
        this.#checkIdle();
      });
    }
    this.#checkIdle();
  }

  #checkIdle(): void {
    if (this.busy > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async #process(record: ArticleRecord): Promise<void> {
    if (this.#options.write !== undefined) return this.#processLive(record, this.#options.write);
    const { clock, onChange, onSettled } = this.#options;
    const draft = this.#options.draft(record);
    const steps = draft.steps.length > 0 ? draft.steps : ['Writing the article'];
    const generation = this.#generation;
    // Read per step: setTiming() may shorten the writing time of articles already in progress.
    const stepMs = (): number => record.writingMs / (steps.length + 1);
    const stopped = (): boolean => clock.stopped || generation !== this.#generation;
    const update = (changes: Partial<ArticleRecord>): void => {
      Object.assign(record, changes, { updatedAt: Math.max(Date.now(), record.updatedAt) });
      onChange(record);
    };
    update({ status: 'processing', statusDetail: steps[0] as string, progress: 0.01 });
    for (let index = 0; index < steps.length; index++) {
      await clock.sleep(stepMs());
      if (stopped()) return;
      if (record.failure !== undefined && index + 1 >= record.failure.atStep) {
        const { code, message } = record.failure;
        update({ status: 'failed', statusDetail: `Failed while ${lowerFirst(steps[index] as string)}`, error: { code, message } });
        onSettled(record);
        return;
      }
      const next = steps[index + 1];
      // Progress never reaches 1 before the article is finished.
      update({ statusDetail: next ?? 'Finalizing the article', progress: Math.min(0.99, round((index + 1) / (steps.length + 1))) });
    }
    await clock.sleep(stepMs());
    if (stopped()) return;
    update({ status: 'finished', statusDetail: STATUS_DETAIL.finished, progress: 1, output: new KeptOutput(draft.html, draft.polishedHtml), finishedAt: Date.now() });
    onSettled(record);
  }

  /** A live write: statusDetail and progress follow the writer's steps; its failure fails the article. */
  async #processLive(record: ArticleRecord, write: LiveWrite): Promise<void> {
    const { clock, onChange, onSettled } = this.#options;
    const generation = this.#generation;
    const stopped = (): boolean => clock.stopped || generation !== this.#generation;
    const update = (changes: Partial<ArticleRecord>): void => {
      Object.assign(record, changes, { updatedAt: Math.max(Date.now(), record.updatedAt) });
      onChange(record);
    };
    const controller = new AbortController();
    this.#writes.add(controller);
    // An injected article failure fails it while its step `atStep` is written: when the next one would start.
    const fault = record.failure;
    let started = 0;
    let current = 'Writing the article';
    const report: ReportStep = (statusDetail, progress) => {
      if (stopped() || controller.signal.aborted) return;
      if (fault !== undefined && ++started > fault.atStep) return controller.abort(fault);
      current = statusDetail;
      update({ status: 'processing', statusDetail, progress: round(Math.max(0.01, Math.min(0.99, progress))) });
    };
    let outcome: { draft: ArticleDraft & { words: number } } | { error: ArticleError };
    try {
      const draft = await write(record, report, controller.signal);
      outcome = fault === undefined ? { draft } : { error: fault };
    } catch (error) {
      outcome = { error: controller.signal.reason === fault && fault !== undefined ? fault : articleErrorOf(error) };
    } finally {
      this.#writes.delete(controller);
    }
    if (stopped()) return;
    delete record.written;
    if ('error' in outcome) {
      const { code, message } = outcome.error;
      update({ status: 'failed', statusDetail: `Failed while ${lowerFirst(current)}`, error: { code, message } });
    } else {
      const { html, polishedHtml, words } = outcome.draft;
      update({ status: 'finished', statusDetail: STATUS_DETAIL.finished, progress: 1, output: new KeptOutput(html, polishedHtml), wordsWritten: words, finishedAt: Date.now() });
    }
    onSettled(record);
  }
}

/** The `{ code, message }` of a live writer's failure; anything else is the emulator's own fault, said so. */
function articleErrorOf(error: unknown): ArticleError {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && typeof message === 'string') return { code, message };
  return { code: 'writer_error', message: 'The emulator failed while writing this article with the model writer; see the emulator\'s output, and create the article again.' };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Pick the step an article that is meant to fail fails at (1-based, never the last). */
export function failureStep(stepCount: number, random: Random): number {
  return random.int(1, Math.max(1, stepCount - 1));
}
