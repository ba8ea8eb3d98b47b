// The dev server's part of a session: the creates it must not make, the watch on the manifest, edits and lock file, and the background wait.
import type { ArticleSpec, ManifestBudget } from '../manifest/index.js';
import type { ArticleService } from '../service/article-service.js';
import { blockedCreates, editsDirFor, isOwnLockWrite, monthlyCap, planSync, readLockState, syncArticles, type LockEntryError, type ServedArticle, type SyncEvent } from '../sync/index.js';
import { readLockText, type CollectionScope } from './collection-scope.js';
import { watchArticleFiles } from './dev-watcher.js';
import { retries, runBudget, syncOptions, type PassContext } from './pass-context.js';
import type { StoreWriter } from './store-writer.js';
import { SyncReporter } from './sync-report.js';
import { applyResult, errorOf } from './sync-entries.js';

export class DevSession {
  readonly #scope: CollectionScope;
  readonly #writer: StoreWriter;
  #background: { controller: AbortController; done: Promise<void> } | undefined;

  constructor(scope: CollectionScope, writer: StoreWriter) {
    this.#scope = scope;
    this.#writer = writer;
  }

  /** Watches the manifest, the hand edits and the lock file; a change (not one of our own lock writes) calls `refresh`. Returns the unwatch. */
  watch(refresh: () => void): (() => void) | undefined {
    const { context, options, activity, log } = this.#scope;
    if (context.watcher === undefined) return undefined;
    const files = this.#scope.paths();
    const paths = { ...files, editsDir: editsDirFor(files.lockFile) };
    return watchArticleFiles(context.watcher, paths, {
      debounceMs: options.debounceMs,
      busy: () => activity.busy > 0,
      lockIsOurs: async () => {
        const text = await readLockText(paths.lockFile);
        return text === activity.lastLockText || (text !== undefined && isOwnLockWrite(paths.lockFile, text));
      },
      onChange: (reason) => {
        if (activity.disposed) return;
        log.changed(reason === 'manifest' ? paths.manifest! : reason === 'edit' ? paths.editsDir : paths.lockFile);
        refresh();
      },
    });
  }

  /**
   * The creates this pass must not make (frozen mode, over budget). The build lets the engine refuse
   * the whole run; the dev server keeps serving what it has and shows the rest as failed.
   */
  async blockedCreates(specs: ArticleSpec[], lockFile: string, service: ArticleService, caps?: ManifestBudget): Promise<Map<string, LockEntryError>> {
    const { options, log } = this.#scope;
    const state = await readLockState(lockFile);
    const plan = planSync(specs, state.lock, await state.cache.index(), { idempotentCreates: service.idempotentCreates, ...retries(options), service: service.kind });
    const creates = plan.creates;
    const budget = runBudget(options, caps);
    const blocked = blockedCreates(plan, { frozen: options.frozen, budget, monthly: monthlyCap(caps?.perMonth, state.lock, service.kind === 'emulator') }, lockFile);
    if (blocked === undefined) return new Map();
    const error: LockEntryError =
      blocked.code === 'frozen'
        ? { code: 'frozen', message: 'not created: frozen mode is on (frozen: true, or the CI environment variable is set)' }
        : blocked.code === 'over_monthly_cap'
          ? { code: 'over_monthly_cap', message: `not created: ${creates.length} new articles, and the manifest's budget.perMonth (${caps?.perMonth}) leaves fewer this month; raise it, or wait for next month` }
          : {
              code: 'over_budget',
              message: `not created: ${creates.length} new articles exceed the budget of ${budget} (≈${plan.estimatedWords.toLocaleString('en-US')} words); raise \`budget\` or add fewer keywords at a time`,
            };
    log.blocked(error, creates.map((c) => c.slug));
    return new Map(creates.map((c) => [c.slug, error]));
  }

  /** Keeps polling after load() returned; each article replaces its placeholder as it finishes. The pass's service is closed when it ends. */
  startWaiting(pass: PassContext): void {
    const scope = this.#scope;
    const controller = new AbortController();
    const bySlug = new Map(pass.manifest.specs.map((spec) => [spec.slug, spec]));
    const reporter = new SyncReporter(scope.log.logger, { continuation: true, offline: scope.options.service.mode === 'offline' });
    let work: Promise<void> = Promise.resolve();
    const later = (task: () => Promise<void>): void => {
      work = work.then(task).catch((error: unknown) => scope.log.waitStepFailed(errorOf(error).message));
    };
    const onEvent = (event: SyncEvent): void => {
      reporter.onEvent(event);
      scope.tracker.onEvent(event);
      this.#onWaitEvent(event, bySlug, pass, later);
    };
    scope.activity.busy += 1;
    const requestsBefore = pass.service.stats.requests;
    const done = (async () => {
      try {
        const result = await syncArticles({ ...syncOptions(scope, pass.specs, pass.lockFile, pass.service, pass.manifest.budget), wait: true, signal: controller.signal, onEvent });
        await work;
        this.#writer.resetCounts();
        await applyResult(scope, this.#writer, result, pass);
        reporter.summary(result, scope.root);
        scope.tracker.finish(result, null, { requests: pass.service.stats.requests - requestsBefore });
      } catch (error) {
        await work;
        if (controller.signal.aborted) scope.tracker.finish(undefined, null);
        else {
          scope.log.waitStopped(errorOf(error).message);
          scope.tracker.finish(undefined, errorOf(error).message);
        }
      } finally {
        scope.activity.busy -= 1;
        await pass.service.close();
      }
    })();
    this.#background = { controller, done };
  }

  /** Ends the background wait, if one runs, and waits until it has. */
  async stopWaiting(): Promise<void> {
    const background = this.#background;
    if (background === undefined) return;
    this.#background = undefined;
    background.controller.abort();
    await background.done;
  }

  /** A placeholder's new status or step, or a finished article, queued behind the wait's earlier store writes. */
  #onWaitEvent(event: SyncEvent, bySlug: ReadonlyMap<string, ArticleSpec>, pass: PassContext, later: (task: () => Promise<void>) => void): void {
    if (event.type === 'progress') {
      const spec = bySlug.get(event.slug);
      // An article whose request changed keeps its earlier version on the page until the new one is finished, as a build does.
      if (spec === undefined || pass.servingEarlier.has(event.slug)) return;
      // The panel gets every poll over the toolbar channel; the store (and the pages) only a new status or step.
      const shown = this.#scope.progress.next(event.slug, { status: event.status === 'processing' ? 'processing' : 'queued', statusDetail: event.statusDetail, progress: event.progress });
      if (shown === undefined) return;
      later(async () => this.#writer.pending(spec, shown, pass.entries.get(event.slug)));
    } else if (event.type === 'finished' || event.type === 'fetched') {
      const spec = bySlug.get(event.slug);
      if (spec === undefined) return;
      later(() => this.#serveFinished(spec, pass));
    }
  }

  /** An article finished while the dev server waits: read it from the lock file and the cache and show it. */
  async #serveFinished(spec: ArticleSpec, pass: PassContext): Promise<void> {
    const state = await readLockState(pass.lockFile);
    const entry = state.lock.articles[spec.slug];
    if (entry?.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) return;
    const output = entry.output;
    const served: ServedArticle = { output, articleId: entry.articleId, hash: entry.hash, current: true, ...(entry.emulator === true ? { emulator: true } : {}) };
    await this.#writer.serve(spec, served, entry, () => state.cache.read(output), pass);
    this.#scope.tracker.recordWords(spec.slug, entry);
    this.#scope.log.ready(spec.slug);
  }
}
