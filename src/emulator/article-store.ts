// The articles the emulator holds and the worker pool that moves them queued → processing → finished | failed.
import type { ArticleRequest } from '../spec/request-schema.js';
import type { ArticleStatusValue } from '../spec/response-schema.js';
import type { Clock } from './clock.js';
import type { Random } from './seeded-random.js';

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
  /** Decided at creation so the outcome does not depend on timing: */
  failure?: ArticleError & { atStep: number };
  writingMs: number;
  queueDelayMs: number;
}

/** What the worker needs from a written article. */
export interface ArticleDraft {
  steps: string[];
  html: string;
  polishedHtml: string | null;
}

export interface ArticleWorkersOptions {
  clock: Clock;
  /** Maximum articles in `processing` at once (Infinity allowed). */
  workers: number;
  /** The (deterministic) draft of an article; called when a worker takes it. */
  draft: (record: ArticleRecord) => ArticleDraft;
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
    update({ status: 'finished', statusDetail: STATUS_DETAIL.finished, progress: 1, output: { html: draft.html, polishedHtml: draft.polishedHtml }, finishedAt: Date.now() });
    onSettled(record);
  }
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
