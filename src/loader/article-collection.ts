// One collection's articles in Astro's store: a sync pass and its entries; in dev, the background wait and the watch.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import pLimit, { type LimitFunction } from 'p-limit';
import { ArticleLoaderError } from '../errors.js';
import { formatManifestProblem, loadManifest, resolveInlineManifest, type ArticleSpec, type Manifest } from '../manifest/index.js';
import { buildLinkMap, InternalLinksError, PipelineOptionError, processArticle, type ArticleContext, type LinkMap } from '../pipeline/index.js';
import {
  blockedCreates,
  notReadyAdvice,
  notReadyMessage,
  planSync,
  readLockState,
  editsDirFor,
  listEdits,
  lockPathsForManifest,
  readEdit,
  resolveLockPaths,
  syncArticles,
  type CachedOutput,
  type LockEntry,
  type LockEntryError,
  type NotReadyArticle,
  type OutputCache,
  type ProcessedStore,
  type ServedArticle,
  type SyncEvent,
  type SyncOptions,
  type SyncResult,
} from '../sync/index.js';
import { chosenHtml, entryConfig, finishedEntry, placeholderEntry, siteFieldsDigest, type SiteContext } from './article-entry.js';
import { ArticleService, secretEchoedWarning } from '../service/article-service.js';
import { embeddedWriterLabel } from '../service/embedded-emulator.js';
import { forAstro } from './astro-error.js';
import { checkEntryData } from './entry-data.js';
import { watchArticleFiles } from './dev-watcher.js';
import { PlaceholderProgress } from './placeholder-progress.js';
import { articleProcessor, inProcess, type ArticleProcessor } from './pipeline-pool.js';
import { processedKey, readProcessed, type DownloadedImages, type ProcessedRecord } from './processed-entries.js';
import { API_KEY_ENV, API_URL_ENV, OFFLINE_DOWNLOADS, OUTPUT_OPTIONS, type ResolvedLoaderOptions } from './options.js';
import { QueueTracker } from './queue-tracker.js';
import { plural } from '../lang/count-text.js';
import type { ArticleMark } from './runtime.js';
import { collectionLogger, shortPath, SyncReporter, type LoaderLogger } from './sync-report.js';

const PACKAGE_VERSION = packageVersion();

function packageVersion(): string {
  try {
    return String((createRequire(import.meta.url)('../../package.json') as { version?: unknown }).version ?? '0');
  } catch {
    return '0';
  }
}

/** Articles that could not be served while `onFailure` is `'fail'` (their unknown creates were listed by the run's log just before). */
export class ArticlesNotReadyError extends ArticleLoaderError {
  readonly failures: NotReadyArticle[];

  constructor(failures: NotReadyArticle[]) {
    const headline = `${plural(failures.length, 'article is', 'articles are')} not ready, and onFailure is "fail":`;
    super('articles_not_ready', notReadyMessage(failures, headline, 'Set onFailure: "skip" to build the site without them.', 'above'));
    this.failures = failures;
  }
}

function emptyCounts(): { unchanged: number; rendered: number; reused: number; placeholders: number } {
  return { unchanged: 0, rendered: 0, reused: 0, placeholders: 0 };
}

/** Drafts and articles whose publish date is later than `now`: a build leaves them out unless `drafts` is on. */
function unpublishedSlugs(specs: readonly ArticleSpec[], now: number): Set<string> {
  return new Set(specs.filter((spec) => spec.draft || (spec.publishDate !== undefined && spec.publishDate.getTime() > now)).map((spec) => spec.slug));
}

/** Each article's marks: a draft, a future publish date, a hand edit. */
function articleMarks(specs: readonly ArticleSpec[], edits: ReadonlySet<string>, now: number): Map<string, ArticleMark[]> {
  const marks = new Map<string, ArticleMark[]>();
  for (const spec of specs) {
    const mine: ArticleMark[] = [];
    if (spec.draft) mine.push('draft');
    if (spec.publishDate !== undefined && spec.publishDate.getTime() > now) mine.push('scheduled');
    if (edits.has(spec.slug)) mine.push('edited');
    if (mine.length > 0) marks.set(spec.slug, mine);
  }
  return marks;
}

/** The errors that are mistakes in the setup, not in one article: they stop the build whatever `onFailure` says. */
function isSetupError(error: unknown): boolean {
  return error instanceof PipelineOptionError || error instanceof InternalLinksError;
}

function errorOf(error: unknown): LockEntryError {
  const code = (error as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'error', message: error instanceof Error ? error.message : String(error) };
}

function describeOption(value: unknown): unknown {
  if (typeof value === 'function') return `function:${String(value)}`;
  if (Array.isArray(value)) return value.map(describeOption);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, describeOption(member)]));
  return value;
}

/** A finished article whose entry must be (re)written: its digest, its processed-cache key and the record kept under it. */
interface Prepared {
  spec: ArticleSpec;
  served: ServedArticle;
  /** The lock entry when it records this article's creation time. */
  lockEntry: LockEntry | undefined;
  url: string;
  /** The hand edit's HTML, when there is one. */
  edit: string | undefined;
  digest: string;
  key: string;
  kept: ProcessedRecord | undefined;
}

/** What one pass settled and the background wait reuses. */
interface PassContext {
  manifest: Manifest;
  /** The specs synced: the manifest's, less the `blocked` ones. */
  specs: ArticleSpec[];
  /** Dev only: creates refused (frozen, over budget), shown as failed placeholders. */
  blocked: ReadonlyMap<string, LockEntryError>;
  /** Each synced article's lock entry after the pass (a placeholder shows its id and creation time). */
  entries: ReadonlyMap<string, LockEntry | undefined>;
  lockFile: string;
  service: ArticleService;
  site: SiteContext;
  fingerprint: string;
  /** The hand edits directory, and the slugs that have an edit (served instead of the service's output). */
  editsDir: string;
  edits: ReadonlySet<string>;
  /** Slugs whose earlier finished article is served while a new one is written: no placeholder replaces it. */
  servingEarlier: ReadonlySet<string>;
  /** Build only, without `drafts`: drafts and future-dated entries, synced (paid for) but left out of the site. */
  unpublished: ReadonlySet<string>;
  /** The committed processed articles, and where the images they downloaded must still be. */
  processed: ProcessedStore;
  downloads: DownloadedImages | undefined;
  /** The file entries come from, relative to the site root (see `#entryFile`): found once per pass, it checks the disk. */
  entryFile: string;
}

export class ArticleCollection {
  readonly #options: ResolvedLoaderOptions;
  readonly #context: LoaderContext;
  /** Astro's logger for this loader; its lines name the collection when the project has several. */
  readonly #logger: LoaderLogger;
  readonly #root: string;
  readonly #dev: boolean;
  readonly #url: (slug: string) => string;
  readonly #stateFile: string;
  readonly #tracker: QueueTracker;
  #background: { controller: AbortController; done: Promise<void> } | undefined;
  #serial: Promise<void> = Promise.resolve();
  #busy = 0;
  #lastLockText: string | undefined;
  #unwatch: (() => void) | undefined;
  #disposed = false;
  /** Entries left as they were / processed / taken from the processed cache in the current pass, for the log. */
  #counts = emptyCounts();
  /** What each pending article's placeholder shows: a store write reloads the dev server's pages, so only coarse steps are written. */
  readonly #progress = new PlaceholderProgress();

  /** The project root (a path) and the collection's name: what identifies this session in the runtime. */
  get root(): string {
    return this.#root;
  }

  get collection(): string {
    return this.#context.collection;
  }

  constructor(options: ResolvedLoaderOptions, context: LoaderContext) {
    this.#options = options;
    this.#context = context;
    this.#logger = collectionLogger(context.logger, fileURLToPath(context.config.root), context.collection);
    this.#root = fileURLToPath(context.config.root);
    this.#dev = context.watcher !== undefined;
    const base = (context.config.base ?? '/').replace(/\/+$/, '');
    this.#url = options.url ?? ((slug) => `${base}/articles/${slug}/`);
    this.#stateFile = resolve(fileURLToPath(context.config.cacheDir), 'astro-article-loader', 'emulator-state.json');
    const paths = this.#paths();
    this.#tracker = new QueueTracker(
      {
        collection: context.collection,
        mode: options.service.mode,
        frozen: options.frozen,
        budget: options.budget,
        manifest: paths.manifest ?? 'inline',
        lockFile: paths.lockFile,
        cacheDir: paths.cacheDir,
      },
      this.#url,
    );
  }

  /** The first pass (its errors reach Astro); in dev, the watch, set up even when that pass failed so a fix is picked up. */
  async load(): Promise<void> {
    this.#watch();
    try {
      await this.#run(() => this.#pass());
    } catch (error) {
      // Our errors say what happened and what to do; a stack into this package would only bury that.
      if (error instanceof ArticleLoaderError) forAstro(error);
      throw error;
    }
  }

  #watch(): void {
    const watcher = this.#context.watcher;
    if (watcher === undefined) return;
    const paths = { ...this.#paths(), editsDir: editsDirFor(this.#paths().lockFile) };
    this.#unwatch = watchArticleFiles(watcher, paths, {
      debounceMs: this.#options.debounceMs,
      busy: () => this.#busy > 0,
      lockUnchanged: async () => (await this.#readLockText(paths.lockFile)) === this.#lastLockText,
      onChange: (reason) => {
        if (this.#disposed) return;
        const changed = reason === 'manifest' ? paths.manifest! : reason === 'edit' ? paths.editsDir : paths.lockFile;
        this.#logger.info(`${shortPath(changed, this.#root)} changed; syncing`);
        void this.refresh();
      },
    });
  }

  /** A pass after a change in dev: its errors are logged, and the entries stay as they were. */
  async refresh(): Promise<void> {
    try {
      // Inside the queue: a pass still running may hand a background wait over before this one starts.
      await this.#run(async () => {
        await this.#stopBackground();
        if (!this.#disposed) await this.#pass();
      });
    } catch (error) {
      this.#logger.error(error instanceof Error ? error.message : String(error));
    }
  }

  /** Stops watching and waiting (a new load() replaces this one). */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#unwatch?.();
    await this.#stopBackground();
    await this.#serial.catch(() => undefined);
  }

  #run(task: () => Promise<void>): Promise<void> {
    const next = this.#serial.then(task, task);
    this.#serial = next.catch(() => undefined);
    return next;
  }

  async #stopBackground(): Promise<void> {
    const background = this.#background;
    if (background === undefined) return;
    this.#background = undefined;
    background.controller.abort();
    await background.done;
  }

  /** The manifest file, and the lock file and cache: the `lockFile` option, else named after the manifest, else in the project root. */
  #paths(): { manifest: string | undefined; lockFile: string; cacheDir: string } {
    const manifest = this.#options.manifest.kind === 'file' ? resolve(this.#root, this.#options.manifest.path) : undefined;
    if (this.#options.lockFile !== undefined) return { manifest, ...resolveLockPaths(resolve(this.#root, this.#options.lockFile)) };
    return { manifest, ...(manifest === undefined ? resolveLockPaths(this.#root) : lockPathsForManifest(manifest)) };
  }

  get lockFile(): string {
    return this.#paths().lockFile;
  }

  /** The manifest, its warnings logged once for each version of them (a dev server reads it on every pass). */
  async #readManifest(): Promise<Manifest> {
    const source = this.#options.manifest;
    const manifest =
      source.kind === 'file'
        ? await loadManifest(resolve(this.#root, source.path))
        : resolveInlineManifest({ articles: source.articles, ...(source.defaults === undefined ? {} : { defaults: source.defaults }) }, 'astro content config (articles option)');
    checkEntryData(manifest, this.#options.dataSchema);
    const warnings = manifest.warnings.map(formatManifestProblem);
    if (warnings.join('\n') !== this.#manifestWarnings) for (const warning of warnings) this.#logger.warn(warning);
    this.#manifestWarnings = warnings.join('\n');
    return manifest;
  }

  #manifestWarnings = '';

  async #readLockText(lockFile: string): Promise<string | undefined> {
    try {
      return await readFile(lockFile, 'utf8');
    } catch {
      return undefined;
    }
  }

  #offlineNotice = (url: string): void => {
    const images = this.#options.downloadImages === undefined ? ` Its images are saved into ${OFFLINE_DOWNLOADS.dir}/ (served at ${OFFLINE_DOWNLOADS.publicPath}), since it is gone after the build; commit them with the cache.` : '';
    this.#logger.info(
      `offline mode: neither an API key nor a service address is set (apiKey/baseUrl, ${API_KEY_ENV}/${API_URL_ENV}), ` +
        `so the embedded emulator at ${url} writes the articles (${embeddedWriterLabel(this.#options.service.mode === 'offline' ? this.#options.service : {})}, free). ` +
        `Its state is kept in ${shortPath(this.#stateFile, this.#root)}, so a stopped build resumes.${images}`,
    );
  };

  /** One sync: read the manifest, create and (in a build) wait, then put every article in the store. */
  async #pass(): Promise<void> {
    const logger = this.#logger;
    this.#counts = emptyCounts();
    const manifest = await this.#readManifest();
    const { lockFile } = this.#paths();
    const service = new ArticleService(this.#options.service, {
      stateFile: this.#stateFile,
      onEmulatorStart: this.#offlineNotice,
      onLinkCredit: () => this.#tracker.linkCredit(),
      idempotentCreates: this.#options.idempotentCreates,
      timeoutMs: this.#options.requestTimeoutMs,
      onSecretEchoed: ({ where }) => logger.warn(secretEchoedWarning(where)),
    });
    let handedOver = false;
    this.#busy += 1;
    this.#tracker.start();
    try {
      const blocked = this.#dev ? await this.#blockedCreates(manifest.specs, lockFile, service) : new Map<string, LockEntryError>();
      const specs = manifest.specs.filter((spec) => !blocked.has(spec.slug));
      // Left out of the sync, so the queue would never list them: the panel shows them as failed, as the pages do.
      this.#tracker.block(manifest.specs.flatMap((spec) => (blocked.has(spec.slug) ? [{ slug: spec.slug, keyword: spec.keyword, error: blocked.get(spec.slug)! }] : [])));
      const reporter = new SyncReporter(logger, { offline: this.#options.service.mode === 'offline' });
      const result = await syncArticles({
        ...this.#syncOptions(specs, lockFile, service),
        ...this.#retries(),
        wait: !this.#dev,
        onEvent: (event) => {
          reporter.onEvent(event);
          this.#tracker.onEvent(event);
        },
      });
      if (!service.connected && this.#options.service.mode === 'offline') logger.debug('offline mode: every article is in the cache, so the embedded emulator was not started');
      reporter.summary(result, this.#root, { waiting: this.#dev });
      const entries = new Map(result.articles.map((article) => [article.slug, article.entry]));
      const editsDir = editsDirFor(lockFile);
      const edits = new Set(await listEdits(editsDir));
      const servingEarlier = new Set(result.articles.filter((article) => article.serve?.current === false).map((article) => article.slug));
      const unpublished = this.#dev || this.#options.drafts ? new Set<string>() : unpublishedSlugs(manifest.specs, Date.now());
      const pass: PassContext = { manifest, specs, blocked, entries, lockFile, service, editsDir, edits, servingEarlier, unpublished, ...this.#siteContext(manifest.specs, result.cache, service) };
      if (unpublished.size > 0) logger.info(`${plural(unpublished.size, 'draft or future-dated article')} left out of the build (${[...unpublished].join(', ')}); the loader option drafts: true includes them`);
      const failures = await this.#applyResult(result, pass);
      this.#tracker.mark(articleMarks(manifest.specs, edits, Date.now()));
      this.#logCounts();
      const pending = result.articles.some((article) => article.outcome === 'pending');
      this.#tracker.finish(result, blocked.size > 0 ? [...blocked.values()][0]!.message : null, { running: pending && this.#dev, requests: service.stats.requests });
      if (this.#dev && pending && !this.#disposed) {
        this.#startBackground(pass);
        handedOver = true;
      }
      if (!this.#dev && failures.length > 0) {
        if (this.#options.onFailure === 'fail') throw new ArticlesNotReadyError(failures);
        logger.warn(
          `${plural(failures.length, 'article was', 'articles were')} left out of the site (onFailure: "skip"): ${failures.map((f) => f.slug).join(', ')}. ` +
            `${notReadyAdvice(failures, 'above')} Set onFailure: "fail" to fail the build instead.`,
        );
      }
    } catch (error) {
      this.#tracker.finish(undefined, error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      this.#busy -= 1;
      this.#lastLockText = await this.#readLockText(lockFile);
      if (!handedOver) await service.close();
    }
  }

  /**
   * Dev only: the creates this pass must not make (frozen mode, over budget). The build lets the
   * engine refuse the whole run; the dev server keeps serving what it has and shows the rest as failed.
   */
  async #blockedCreates(specs: ArticleSpec[], lockFile: string, service: ArticleService): Promise<Map<string, LockEntryError>> {
    const state = await readLockState(lockFile);
    const plan = planSync(specs, state.lock, await state.cache.index(), { idempotentCreates: service.idempotentCreates, ...this.#retries(), service: service.kind });
    const creates = plan.creates;
    const blocked = blockedCreates(plan, this.#options, lockFile);
    if (blocked === undefined) return new Map();
    const error: LockEntryError =
      blocked.code === 'frozen'
        ? { code: 'frozen', message: 'not created: frozen mode is on (frozen: true, or the CI environment variable is set)' }
        : {
            code: 'over_budget',
            message: `not created: ${creates.length} new articles exceed the budget of ${this.#options.budget} (≈${plan.estimatedWords.toLocaleString('en-US')} words); raise \`budget\` or add fewer keywords at a time`,
          };
    this.#logger.error(`${error.message}: ${creates.map((c) => c.slug).join(', ')}`);
    return new Map(creates.map((c) => [c.slug, error]));
  }

  /** The sync options every pass of this collection shares: its spending rules and its service. */
  #syncOptions(specs: ArticleSpec[], lockFile: string, service: ArticleService): SyncOptions {
    const { budget, frozen, concurrency, timeoutMs } = this.#options;
    // The build decides what a failure does (onFailure), once the entries are in the store.
    return { specs, lockFile, client: service, service: service.kind, idempotentCreates: service.idempotentCreates, budget, frozen, concurrency, timeoutMs, onFailure: 'skip' };
  }

  /** The explicit retries the options ask for (each a paid article unless the service honours idempotency keys). */
  #retries(): { retryUnknown?: true | string[]; retryFailed?: true | string[] } {
    const { retryUnknown, retryFailed } = this.#options;
    return { ...(retryUnknown === undefined ? {} : { retryUnknown }), ...(retryFailed === undefined ? {} : { retryFailed }) };
  }

  /** The pipeline settings shared by every article of a pass, and their fingerprint for the digests. */
  #siteContext(specs: ArticleSpec[], cache: OutputCache, service: ArticleService): Pick<PassContext, 'site' | 'fingerprint' | 'processed' | 'downloads' | 'entryFile'> {
    const o = this.#options;
    const links: LinkMap = buildLinkMap({
      articles: specs.map((spec) => ({ slug: spec.slug, keyword: spec.keyword })),
      url: this.#url,
      ...(o.links === undefined ? {} : { links: o.links }),
    });
    const entryFile = this.#entryFile();
    const site: PassContext['site'] = {
      links,
      ...(this.#context.config.site === undefined ? {} : { site: this.#context.config.site }),
      ...(o.maxLinks === undefined ? {} : { maxLinks: o.maxLinks }),
      ...(o.embedHosts === undefined ? {} : { embedHosts: o.embedHosts }),
      ...(o.headingIdPrefix === undefined ? {} : { headingIdPrefix: o.headingIdPrefix }),
      ...(o.externalLinks === undefined ? {} : { externalLinks: o.externalLinks }),
      ...this.#serviceLinks(cache, service),
      ...this.#downloads(cache, service, entryFile),
    };
    // Hashed once per pass: the link map grows with the site, and hashing it again into every
    // entry's digest made a warm pass quadratic in the number of articles.
    const outputOptions = { ...Object.fromEntries(OUTPUT_OPTIONS.map((name) => [name, o[name] ?? null])), downloadImages: this.#downloadSettings(service) ?? null };
    const fingerprint = this.#context.generateDigest(JSON.stringify(describeOption({ ...outputOptions, links: links.entries, site: this.#context.config.site ?? null, entryFile })));
    const downloads = site.downloadImages === undefined ? undefined : { dir: site.downloadImages.dir, publicPath: site.downloadImages.publicPath };
    return { site, fingerprint, processed: cache.processed, downloads, entryFile };
  }

  /** The service's internal links, with its answers kept in the committed cache: a rebuild never pays for the same article again. */
  #serviceLinks(cache: OutputCache, service: ArticleService): Pick<PassContext['site'], 'serviceLinks'> {
    const internalLinks = this.#options.internalLinks;
    if (internalLinks === undefined) return {};
    const linkStore = cache.links;
    return {
      serviceLinks: {
        domainId: internalLinks.domainId,
        siteUrl: internalLinks.siteUrl,
        onError: internalLinks.onError,
        link: (content: string) => service.linkContent(content, internalLinks.domainId),
        cache: {
          get: async (key: string) => {
            const value = await linkStore.get(key);
            return typeof value === 'string' ? value : undefined;
          },
          set: (key: string, value: string) => linkStore.set(key, value),
        },
      },
    };
  }

  /** The image downloads of this service: the `downloadImages` option, or always offline (the embedded emulator is gone after the build). */
  #downloadSettings(service: ArticleService): ResolvedLoaderOptions['downloadImages'] {
    return this.#options.downloadImages ?? (service.settings.mode === 'offline' ? OFFLINE_DOWNLOADS : undefined);
  }

  /** Image downloads into the site's public directory, through the service's fetch (offline: the emulator on this machine). */
  #downloads(cache: OutputCache, service: ArticleService, entryFile: string): Pick<PassContext['site'], 'downloadImages' | 'astroImages'> {
    const downloadImages = this.#downloadSettings(service);
    if (downloadImages === undefined) return {};
    const dir = resolve(this.#root, downloadImages.dir);
    return {
      downloadImages: { ...downloadImages, dir, cache: cache.keyedStore<string>('images'), fetch: service.fetchImage, allowPrivateHosts: service.settings.mode === 'offline' },
      // Import paths are relative to the entries' filePath, the manifest (or the lock file of an inline one).
      ...(this.#options.optimizeImages ? { astroImages: { dir, publicPath: downloadImages.publicPath, from: dirname(resolve(this.#root, entryFile)) } } : {}),
    };
  }

  /** The file entries come from, relative to the site root: the manifest, or the lock file of an inline manifest. */
  #entryFile(): string {
    const { manifest, lockFile } = this.#paths();
    return relative(this.#root, manifest ?? lockFile).split(sep).join('/');
  }

  /** Puts every article of a sync result in the store; returns the ones that could not be served. */
  async #applyResult(result: SyncResult, pass: PassContext): Promise<NotReadyArticle[]> {
    const { store } = this.#context;
    const untouched = new Set(store.keys());
    const bySlug = new Map(pass.specs.map((spec) => [spec.slug, spec]));
    const failures: NotReadyArticle[] = [];
    const limit = pLimit(16);
    const published = result.articles.filter((article) => !pass.unpublished.has(article.slug));
    // Left out of the site: its entry (if any) goes with the untouched ones.
    for (const article of published) untouched.delete(article.slug);
    const prepared = await this.#prepareAll(published, bySlug, pass, limit);
    const misses = [...prepared.values()].filter((item) => item !== undefined && !(item instanceof Error) && item.kept === undefined).length;
    const processor = articleProcessor(pass.site, misses);
    try {
      await Promise.all(
        published.map((article) =>
          limit(async () => {
            const spec = bySlug.get(article.slug)!;
            let error: LockEntryError;
            if (article.serve !== undefined) {
              try {
                const item = prepared.get(spec.slug);
                if (item instanceof Error) throw item;
                if (item !== undefined) await this.#finish(item, () => result.readOutput(spec.slug), processor, pass);
                return;
              } catch (cause) {
                if (isSetupError(cause)) throw cause;
                error = errorOf(cause);
                this.#logger.warn(`"${spec.slug}" could not be processed: ${error.message}`);
              }
            } else {
              error = article.error ?? { code: article.outcome, message: `the article is ${article.outcome}` };
            }
            const failure = this.#notServed(spec, article, error);
            if (failure !== undefined) {
              untouched.add(spec.slug);
              failures.push(failure);
            }
          }),
        ),
      );
    } finally {
      await processor.close();
    }
    for (const [slug, error] of pass.blocked) {
      const spec = pass.manifest.specs.find((candidate) => candidate.slug === slug);
      if (spec === undefined) continue;
      untouched.delete(slug);
      this.#placeholder(spec, 'failed', null, 0, error, undefined);
    }
    for (const id of untouched) store.delete(id);
    return failures;
  }

  /** Every servable article prepared (or the error that stopped it): how many need the pipeline decides where it runs. */
  async #prepareAll(articles: SyncResult['articles'], bySlug: ReadonlyMap<string, ArticleSpec>, pass: PassContext, limit: LimitFunction): Promise<Map<string, Prepared | Error | undefined>> {
    const prepared = new Map<string, Prepared | Error | undefined>();
    await Promise.all(
      articles.map((article) =>
        limit(async () => {
          if (article.serve === undefined) return;
          try {
            prepared.set(article.slug, await this.#prepare(bySlug.get(article.slug)!, article.serve, article.entry, pass));
          } catch (cause) {
            prepared.set(article.slug, cause instanceof Error ? cause : new Error(String(cause)));
          }
        }),
      ),
    );
    return prepared;
  }

  /** An article that could not be served: in dev its placeholder, in a build the failure to report. */
  #notServed(spec: ArticleSpec, article: SyncResult['articles'][number], error: LockEntryError): NotReadyArticle | undefined {
    if (this.#dev && article.outcome === 'pending') {
      // As the background wait last showed it: unchanged, it is not written again.
      const shown = this.#progress.shown(spec.slug);
      this.#placeholder(spec, shown.status, shown.statusDetail, shown.progress, null, article.entry);
    } else if (this.#dev) {
      this.#placeholder(spec, 'failed', null, 0, error, article.entry);
    } else {
      return { slug: spec.slug, error, keyword: spec.keyword, status: article.entry?.status };
    }
    return undefined;
  }

  /** Processes one finished article into the store, unless its digest says the entry already holds it. */
  async #serve(spec: ArticleSpec, served: ServedArticle, lockEntry: LockEntry | undefined, read: () => Promise<CachedOutput | undefined>, pass: PassContext): Promise<void> {
    const prepared = await this.#prepare(spec, served, lockEntry, pass);
    if (prepared !== undefined) await this.#finish(prepared, read, inProcess(pass.site), pass);
  }

  /** The article's digest and processed-cache key, and the kept record when it matches; undefined when the store already holds the entry. */
  async #prepare(spec: ArticleSpec, served: ServedArticle, lockEntry: LockEntry | undefined, pass: PassContext): Promise<Prepared | undefined> {
    this.#progress.forget(spec.slug);
    const url = this.#url(spec.slug);
    const createdAt = lockEntry?.articleId === served.articleId ? (lockEntry.createdAt ?? null) : null;
    const edit = pass.edits.has(spec.slug) ? (await readEdit(pass.editsDir, spec.slug))?.html : undefined;
    // Everything the entry is made from: the output (or the hand edit), the request, the URL and the pipeline settings (the link map included).
    const digest = this.#context.generateDigest({
      edit: edit ?? null,
      version: PACKAGE_VERSION,
      output: served.output,
      articleId: served.articleId,
      current: served.current,
      emulator: served.emulator === true,
      createdAt,
      config: entryConfig(spec.request),
      url,
      pipeline: pass.fingerprint,
      site: siteFieldsDigest(spec),
    });
    if (this.#context.store.get(spec.slug)?.digest === digest) {
      this.#counts.unchanged += 1;
      return undefined;
    }
    const key = processedKey({ version: PACKAGE_VERSION, output: served.output, edit: edit ?? null, pipeline: pass.fingerprint, article: { keyword: spec.keyword, url, config: entryConfig(spec.request) } });
    const kept = await readProcessed(pass.processed, spec.slug, key, pass.downloads);
    return { spec, served, lockEntry: createdAt === null ? undefined : lockEntry, url, edit, digest, key, kept };
  }

  /** The entry of a prepared article, from its kept record or processed now (and kept), into the store. */
  async #finish(prepared: Prepared, read: () => Promise<CachedOutput | undefined>, processor: ArticleProcessor, pass: PassContext): Promise<void> {
    const { spec, served } = prepared;
    const { article, polished, updatedAt } = prepared.kept ?? (await this.#process(prepared, read, processor, pass));
    if (prepared.kept !== undefined) this.#counts.reused += 1;
    for (const warning of article.warnings) this.#logger.warn(`"${spec.slug}": ${warning}`);
    const entry = finishedEntry({
      slug: spec.slug,
      keyword: spec.keyword,
      request: spec.request,
      article,
      polished,
      articleId: served.articleId,
      lockEntry: prepared.lockEntry,
      updatedAt,
      current: served.current,
      emulator: served.emulator === true,
      edited: prepared.edit !== undefined,
      digest: prepared.digest,
      site: spec,
      filePath: pass.entryFile,
    });
    const data = await this.#context.parseData({ id: entry.id, data: entry.data });
    this.#context.store.set({ ...entry, data });
  }

  /** Runs the pipeline for an article the processed cache does not have, and keeps the result there. */
  async #process(prepared: Prepared, read: () => Promise<CachedOutput | undefined>, processor: ArticleProcessor, pass: PassContext): Promise<ProcessedRecord> {
    const { spec, served } = prepared;
    const output = await read();
    if (output === undefined) {
      throw new ArticleLoaderError('output_unavailable', `the output of article ${served.articleId} is not in the cache; run the build again with the service reachable`);
    }
    const chosen = chosenHtml(output, this.#options.usePolished);
    // A hand edit replaces the service's HTML, and goes through the same sanitizer and pipeline.
    const { html, polished } = prepared.edit === undefined ? chosen : { html: prepared.edit, polished: false };
    const record = await processor.process({
      html,
      article: { keyword: spec.keyword, slug: spec.slug, url: prepared.url, request: spec.request },
      keep: { cacheDir: pass.processed.cacheDir, output: served.output, key: prepared.key, polished, updatedAt: output.updatedAt },
    });
    this.#counts.rendered += 1;
    return record;
  }

  #placeholder(
    spec: ArticleSpec,
    status: 'queued' | 'processing' | 'failed',
    statusDetail: string | null,
    progress: number,
    error: LockEntryError | null,
    lockEntry: LockEntry | undefined,
  ): void {
    if (status === 'failed') this.#progress.forget(spec.slug);
    const entry = placeholderEntry({
      slug: spec.slug,
      keyword: spec.keyword,
      request: spec.request,
      status,
      statusDetail,
      progress,
      error,
      lockEntry,
      generateDigest: this.#context.generateDigest,
      site: spec,
    });
    // Not through parseData: a placeholder is our own shape, and a user schema may demand fields only finished articles have.
    if (this.#context.store.set({ id: entry.id, data: entry.data, digest: entry.digest, rendered: entry.rendered })) this.#counts.placeholders += 1;
  }

  #logCounts(): void {
    const { unchanged, rendered, reused, placeholders } = this.#counts;
    const line = `${rendered} rendered, ${reused} from the processed cache, ${unchanged} unchanged (digest), ${placeholders} placeholders`;
    const fromCache = reused > 0 ? `, ${reused} taken already processed from the cache` : '';
    if (rendered + reused > 0) this.#logger.info(`${plural(rendered, 'article')} rendered${fromCache} (${unchanged} unchanged)`);
    this.#logger.debug(`entries: ${line}`);
  }

  /** Dev: keeps polling after load() returned; each article replaces its placeholder as it finishes. */
  #startBackground(pass: PassContext): void {
    const logger = this.#logger;
    const controller = new AbortController();
    const reporter = new SyncReporter(logger, { continuation: true, offline: this.#options.service.mode === 'offline' });
    const bySlug = new Map(pass.manifest.specs.map((spec) => [spec.slug, spec]));
    let work: Promise<void> = Promise.resolve();
    const later = (task: () => Promise<void>): void => {
      work = work.then(task).catch((error: unknown) => logger.warn(errorOf(error).message));
    };
    const onEvent = (event: SyncEvent): void => {
      reporter.onEvent(event);
      this.#tracker.onEvent(event);
      if (event.type === 'progress') {
        const spec = bySlug.get(event.slug);
        // An article whose request changed keeps its earlier version on the page until the new one is finished, as a build does.
        if (spec === undefined || pass.servingEarlier.has(event.slug)) return;
        // The panel gets every poll over the toolbar channel; the store (and the pages) only a new status or step.
        const shown = this.#progress.next(event.slug, { status: event.status === 'processing' ? 'processing' : 'queued', statusDetail: event.statusDetail, progress: event.progress });
        if (shown === undefined) return;
        later(async () => this.#placeholder(spec, shown.status, shown.statusDetail, shown.progress, null, pass.entries.get(event.slug)));
      } else if (event.type === 'finished' || event.type === 'fetched') {
        const spec = bySlug.get(event.slug);
        if (spec === undefined) return;
        later(() => this.#serveFinished(spec, pass));
      }
    };
    this.#busy += 1;
    const requestsBefore = pass.service.stats.requests;
    const done = (async () => {
      try {
        const result = await syncArticles({ ...this.#syncOptions(pass.specs, pass.lockFile, pass.service), wait: true, signal: controller.signal, onEvent });
        await work;
        this.#counts = emptyCounts();
        await this.#applyResult(result, pass);
        reporter.summary(result, this.#root);
        this.#tracker.finish(result, null, { requests: pass.service.stats.requests - requestsBefore });
      } catch (error) {
        await work;
        if (controller.signal.aborted) this.#tracker.finish(undefined, null);
        else {
          logger.error(`waiting for articles stopped: ${errorOf(error).message}`);
          this.#tracker.finish(undefined, errorOf(error).message);
        }
      } finally {
        this.#busy -= 1;
        this.#lastLockText = await this.#readLockText(pass.lockFile);
        await pass.service.close();
      }
    })();
    this.#background = { controller, done };
  }

  /** An article finished while the dev server waits: read it from the lock file and the cache and show it. */
  async #serveFinished(spec: ArticleSpec, pass: PassContext): Promise<void> {
    const state = await readLockState(pass.lockFile);
    const entry = state.lock.articles[spec.slug];
    if (entry?.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) return;
    const output = entry.output;
    const served: ServedArticle = { output, articleId: entry.articleId, hash: entry.hash, current: true, ...(entry.emulator === true ? { emulator: true } : {}) };
    await this.#serve(spec, served, entry, () => state.cache.read(output), pass);
    this.#tracker.recordWords(spec.slug, entry);
    this.#logger.info(`"${spec.slug}" is ready`);
  }
}
