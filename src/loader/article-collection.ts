// One collection's session: its passes run one at a time; in dev, the watch that starts them and the background wait they hand over.
import type { LoaderContext } from 'astro/loaders';
import { ArticleLoaderError } from '../errors.js';
import { forAstro } from './astro-error.js';
import { runPass } from './build-pass.js';
import { collectionScope, type CollectionScope } from './collection-scope.js';
import { createRegeneration, regenerationEstimate } from './dev-regenerate.js';
import { DevSession } from './dev-session.js';
import type { ResolvedLoaderOptions } from './options.js';
import type { ArticleDetails, RegenerationAnswer } from './runtime.js';
import { StoreWriter } from './store-writer.js';

export class ArticleCollection {
  readonly #scope: CollectionScope;
  readonly #writer: StoreWriter;
  /** The dev server's part: undefined in a build. */
  readonly #dev: DevSession | undefined;
  #serial: Promise<void> = Promise.resolve();
  #unwatch: (() => void) | undefined;

  constructor(options: ResolvedLoaderOptions, context: LoaderContext) {
    this.#scope = collectionScope(options, context);
    this.#writer = new StoreWriter(this.#scope);
    this.#dev = this.#scope.dev ? new DevSession(this.#scope, this.#writer) : undefined;
  }

  /** The project root (a path) and the collection's name: what identifies this session in the runtime. */
  get root(): string {
    return this.#scope.root;
  }

  get collection(): string {
    return this.#scope.context.collection;
  }

  get lockFile(): string {
    return this.#scope.paths().lockFile;
  }

  /** `articleDetails()` for an entry of this collection (see entry-details.ts). */
  async details(slug: string): Promise<ArticleDetails | undefined> {
    const { readEntryDetails } = await import('./entry-details.js');
    return readEntryDetails(this.#scope, slug);
  }

  /** The first pass (its errors reach Astro); in dev, the watch, set up even when that pass failed so a fix is picked up. */
  async load(): Promise<void> {
    this.#unwatch = this.#dev?.watch(() => void this.refresh());
    try {
      await this.#run(() => runPass(this.#scope, this.#writer, this.#dev));
    } catch (error) {
      // Our errors say what happened and what to do; a stack into this package would only bury that.
      if (error instanceof ArticleLoaderError) forAstro(error);
      throw error;
    }
  }

  /** A pass after a change in dev: its errors are logged, and the entries stay as they were. */
  async refresh(): Promise<void> {
    try {
      // Inside the queue: a pass still running may hand a background wait over before this one starts.
      await this.#run(async () => {
        await this.#dev?.stopWaiting();
        if (!this.#scope.activity.disposed) await runPass(this.#scope, this.#writer, this.#dev);
      });
    } catch (error) {
      this.#scope.log.passFailed(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * The toolbar's Regenerate (dev only): the estimate, and with `confirm` the create, made between
   * passes under the process lock; the pass that follows serves the current article and waits for the new one.
   */
  async regenerate(slug: string, options: { confirm: boolean }): Promise<RegenerationAnswer> {
    const dev = this.#dev;
    if (dev === undefined) throw new ArticleLoaderError('regenerate_outside_dev', 'the toolbar regenerates articles in `astro dev` only; use `astro-article-loader regenerate`.');
    const estimate = await regenerationEstimate(this.#scope, slug);
    if (!options.confirm || estimate.blocked !== null) return { ...estimate, started: false };
    const { activity } = this.#scope;
    try {
      await this.#run(async () => {
        await dev.stopWaiting();
        activity.busy += 1;
        try {
          await createRegeneration(this.#scope, slug);
        } finally {
          activity.busy -= 1;
        }
      });
    } finally {
      // Waits again for what the stopped wait was waiting for, and for the new article.
      void this.refresh();
    }
    return { ...estimate, started: true };
  }

  /** Stops watching and waiting (a new load() replaces this one). */
  async dispose(): Promise<void> {
    this.#scope.activity.disposed = true;
    this.#unwatch?.();
    await this.#dev?.stopWaiting();
    await this.#serial.catch(() => undefined);
  }

  #run(task: () => Promise<void>): Promise<void> {
    const next = this.#serial.then(task, task);
    this.#serial = next.catch(() => undefined);
    return next;
  }
}
