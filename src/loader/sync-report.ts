// The loader's log lines: a plan summary, throttled progress, failures and a final summary; silent when nothing happens.
import { formatCount, plural } from '../lang/count-text.js';
import { loaderRuntime } from './runtime.js';
import { billedByService } from '../contract/emulator-billing.js';
import { shortPath } from './short-path.js';
import { ProgressBoard, unknownCreatesLines, type ArticleProgress, type SyncEvent, type SyncPlan, type SyncResult } from '../sync/index.js';

/** The part of Astro's logger the loader uses. */
export interface LoaderLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

/**
 * Astro's logger, each line starting with the collection's name (`guides: …`) while the project
 * has more than one collection with this loader; a single collection's lines stay as they are.
 */
export function collectionLogger(logger: LoaderLogger, root: string, collection: string): LoaderLogger {
  const named = (message: string): string => {
    // The content config's articleLoader() calls are counted before any collection loads; sessions, as they start.
    const runtime = loaderRuntime();
    const declared = runtime.configLoad?.roots.has(root) === true ? runtime.configLoad.loaders : 0;
    const started = [...runtime.sessions.values()].filter((session) => session.root === root).length;
    return Math.max(declared, started) > 1 ? `${collection}: ${message}` : message;
  };
  return {
    info: (message) => logger.info(named(message)),
    warn: (message) => logger.warn(named(message)),
    error: (message) => logger.error(named(message)),
    debug: (message) => logger.debug(named(message)),
  };
}

export { shortPath };

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** What a plan will do, in one line: `8 articles: 6 reused, 1 to create, 1 being written (≈1,450 words to bill)`. */
export function planSummary(plan: SyncPlan, options: { offline?: boolean } = {}): string {
  const c = plan.counts;
  const parts = [`${formatCount(c.reuse + c.restore)} reused`];
  if (c.create > 0) parts.push(`${formatCount(c.create)} to create`);
  if (c.wait > 0) parts.push(`${formatCount(c.wait)} being written`);
  if (c.fetch > 0) parts.push(`${formatCount(c.fetch)} to fetch`);
  if (c.failed > 0) parts.push(`${formatCount(c.failed)} failed earlier`);
  if (c.unknown > 0) parts.push(`${formatCount(c.unknown)} unknown`);
  const words = c.create === 0 ? '' : !billedByService({ emulator: options.offline }) ? ` (≈${formatCount(plan.estimatedWords)} words, written free by the embedded emulator)` : ` (≈${formatCount(plan.estimatedWords)} words to bill)`;
  return `${plural(plan.articles.length, 'article')}: ${parts.join(', ')}${words}`;
}

/**
 * The words a run billed: as recorded from the finished articles when there are any (the service
 * bills generated words), else the estimate made from the requests of the articles created.
 */
function billedWords(t: SyncResult['totals'], offline: boolean): string {
  const recorded = t.recordedWords;
  if (!billedByService({ emulator: offline })) return t.created > 0 ? `≈${formatCount(t.estimatedWords)} words (embedded emulator: nothing billed)` : '';
  if (recorded > 0) return `${formatCount(recorded)} words billed`;
  return t.created > 0 ? `≈${formatCount(t.estimatedWords)} words billed (estimated)` : '';
}

/** True when a plan asks something of the service. */
export function planHasWork(plan: SyncPlan): boolean {
  return plan.counts.create + plan.counts.wait + plan.counts.fetch > 0;
}

/**
 * Turns sync events into log lines. Progress is one line per `progressIntervalMs` at most (and one
 * when the last article finishes), whatever the number of articles or polls.
 */
export class SyncReporter {
  readonly #logger: LoaderLogger;
  readonly #progressIntervalMs: number;
  readonly #now: () => number;
  /** Where each article stands (the one progress reducer, shared with the CLI and the toolbar panel). */
  readonly #board = new ProgressBoard();
  #lastProgressLine = 0;
  #lastProgressText = '';

  readonly #continuation: boolean;
  readonly #offline: boolean;

  /**
   * `continuation`: this run picks up where an earlier one left off (the dev server's background
   * wait), so its plan is not news. `offline`: the embedded emulator writes the articles, so nothing is billed.
   */
  constructor(logger: LoaderLogger, options: { progressIntervalMs?: number; now?: () => number; continuation?: boolean; offline?: boolean } = {}) {
    this.#logger = logger;
    this.#continuation = options.continuation ?? false;
    this.#offline = options.offline ?? false;
    this.#progressIntervalMs = options.progressIntervalMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  readonly onEvent = (event: SyncEvent): void => {
    this.#board.apply(event);
    switch (event.type) {
      case 'plan': {
        const line = planSummary(event.plan, { offline: this.#offline });
        if (planHasWork(event.plan) && !this.#continuation) this.#logger.info(line);
        else this.#logger.debug(line);
        return;
      }
      case 'lock-wait':
        this.#logger.info(`waiting for another build that holds ${event.lockFile}…`);
        return;
      case 'progress':
        this.#progress(false);
        return;
      case 'finished':
      case 'fetched':
        this.#progress(true);
        return;
      case 'failed':
      case 'unknown':
        this.#progress(true);
        this.#logger.warn(`"${event.slug}": ${event.error.message} (${event.error.code})`);
        return;
      case 'warning':
        this.#logger.warn(event.slug === undefined ? event.message : `"${event.slug}": ${event.message}`);
        return;
      case 'created':
        this.#logger.debug(`created "${event.slug}" (article ${event.articleId})`);
        return;
      case 'restored':
        this.#logger.debug(`serving the earlier article of "${event.slug}" again (article ${event.articleId})`);
        return;
      default:
        return;
    }
  };

  /** The articles this run asks the service about: created, waited for, or fetched. */
  #tracked(): ArticleProgress[] {
    return [...this.#board.articles.values()].filter((article) => article.action === 'create' || article.action === 'wait' || article.action === 'fetch');
  }

  #progress(settled: boolean): void {
    const tracked = this.#tracked();
    const total = tracked.length;
    if (total === 0) return;
    const ready = tracked.filter((article) => article.phase === 'finished').length;
    const failed = tracked.filter((article) => article.phase === 'failed' || article.phase === 'unknown').length;
    const fraction = tracked.reduce((sum, article) => sum + (ProgressBoard.done(article.phase) ? 1 : article.progress), 0) / total;
    const writing = total - ready - failed;
    // Parts that add up to the total: "4 ready, 3 failed, 1 writing of 8".
    const parts = [`${ready} ready`, failed > 0 ? `${failed} failed` : '', writing > 0 ? `${writing} writing` : ''].filter((part) => part !== '');
    const text = `${parts.join(', ')} of ${total}${writing > 0 ? ` (${Math.floor(fraction * 100)}%)` : ''}`;
    const now = this.#now();
    const last = ready + failed === total;
    if (text === this.#lastProgressText) return;
    if (!last && now - this.#lastProgressLine < this.#progressIntervalMs && !(settled && this.#lastProgressLine === 0)) return;
    this.#lastProgressLine = now;
    this.#lastProgressText = text;
    this.#logger.info(`writing: ${text}`);
  }

  /**
   * The closing line of a run that did something; nothing for a run that only reused. `waiting`:
   * the dev server goes on waiting for the pending articles in the background.
   */
  summary(result: SyncResult, root: string, options: { waiting?: boolean } = {}): void {
    const t = result.totals;
    const worked = t.created + t.waited + t.fetched + t.restored + t.failed + t.unknown + t.pending > 0;
    if (!worked) return;
    const words = billedWords(t, this.#offline);
    if (options.waiting === true && t.pending > 0) {
      const created = t.created > 0 ? `${plural(t.created, 'article')} created${words === '' ? '' : ` (${words})`}; ` : '';
      this.#logger.info(`${created}waiting for ${plural(t.pending, 'article')} in the background; placeholders show them until they are ready`);
      this.unknownCreates(result);
      return;
    }
    const parts: string[] = [];
    if (t.created > 0) parts.push(`${plural(t.created, 'article')} created`);
    if (t.finished > 0) parts.push(`${formatCount(t.finished)} finished`);
    if (t.fetched > 0) parts.push(`${formatCount(t.fetched)} fetched`);
    if (t.restored > 0) parts.push(`${formatCount(t.restored)} restored`);
    parts.push(`${formatCount(t.reused)} reused`);
    if (t.failed + t.unknown > 0) parts.push(`${formatCount(t.failed + t.unknown)} failed`);
    if (t.pending > 0) parts.push(`${formatCount(t.pending)} still being written`);
    const commit = t.created + t.fetched + t.restored + t.finished > 0 ? `; commit ${shortPath(result.lockFile, root)} and ${shortPath(result.cacheDir, root)}/` : '';
    const billed = words === '' ? '' : ` · ${words}`;
    this.#logger.info(`done in ${seconds(result.durationMs)}: ${parts.join(', ')}${billed} · ${plural(t.requests, 'request')}${commit}`);
    this.unknownCreates(result);
  }

  /** Every run names each create whose outcome is unknown, with the two ways out: nothing resolves them by itself. */
  unknownCreates(result: SyncResult): void {
    const lines = unknownCreatesLines(result.articles.filter((article) => article.outcome === 'unknown'));
    if (lines.length > 0) this.#logger.warn(lines.join('\n'));
  }
}
