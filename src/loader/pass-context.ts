// What one pass settles once and every article of it shares: the specs synced, the edits, the pipeline settings and their fingerprint.
import { dirname, relative, resolve, sep } from 'node:path';
import type { ArticleSpec, Manifest, ManifestBudget } from '../manifest/index.js';
import { localeLinkMaps, type LocaleSettings } from './locale-links.js';
import type { KeyedStore, LockEntry, LockEntryError, OutputCache, ProcessedStore, SyncOptions } from '../sync/index.js';
import { pollTiming } from '../sync/run-rules.js';
import type { ArticleService } from '../service/article-service.js';
import type { ArticleQuality, QualityOptions } from '../quality/index.js';
import type { SiteContext } from './article-entry.js';
import type { CollectionScope } from './collection-scope.js';
import type { FindingsBook } from './findings-book.js';
import { OUTPUT_OPTIONS } from './option-declarations.js';
import { OFFLINE_DOWNLOADS, type ResolvedLoaderOptions } from './options.js';
import type { PassChecks } from './quality-thread.js';
import type { PassCovers } from './pass-covers.js';
import type { DownloadedImages } from './processed-entries.js';

/** What the near-duplicate check needs of an entry written this pass: its signature (kept in its processed record), its shingles (held by the pass only) and its record's key. */
export type NearDuplicateInputs = Pick<ArticleQuality, 'signature' | 'shingles'> & { key: string };

/** What one pass settled and the background wait reuses. */
export interface PassContext extends PassCovers {
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
  /** The file entries come from, relative to the site root (see `entryFile`): found once per pass, it checks the disk. */
  entryFile: string;
  /** The pass's one instant (ARTICLE_LOADER_NOW or now): what is published yet, the calendar and the panel's marks read the same time. */
  now: Date;
  /** The quality settings of the pass (part of the fingerprint), and what the pipeline's jobs check (undefined: every code off). */
  quality: QualityOptions;
  checks: PassChecks | undefined;
  /** The near-duplicate signature and shingles of each entry written this pass (null: near_duplicate off), for the pass's near-duplicate check. */
  signatures: Map<string, NearDuplicateInputs | null>;
  /** Where the collection's near-duplicate pairs are kept between builds (the cache's `near-duplicates/`). */
  nearDuplicateMemo: KeyedStore;
  /** Each entry's findings, kept beside the store (the slim entry has their counts only). */
  findings: FindingsBook;
}

/** The sync options every pass of this collection shares: its spending rules and its service. */
export function syncOptions(scope: CollectionScope, specs: ArticleSpec[], lockFile: string, service: ArticleService, caps?: ManifestBudget): SyncOptions {
  const { frozen, concurrency, timeoutMs, pollIntervalMs } = scope.options;
  const poll = pollTiming(service.kind, pollIntervalMs);
  const perMonth = caps?.perMonth;
  // The build decides what a failure does (onFailure), once the entries are in the store.
  return { specs, lockFile, client: service, service: service.kind, idempotentCreates: service.idempotentCreates, budget: runBudget(scope.options, caps), ...(perMonth === undefined ? {} : { perMonth }), frozen, concurrency, timeoutMs, ...(poll === undefined ? {} : { poll }), onFailure: 'skip' };
}

/** A pass's budget: the `budget` option when given, else the manifest's `budget.perRun`, else the option's default. */
export function runBudget(options: Pick<ResolvedLoaderOptions, 'budget' | 'budgetGiven'>, caps: ManifestBudget | undefined): number {
  return options.budgetGiven ? options.budget : (caps?.perRun ?? options.budget);
}

/** The explicit retries the options ask for (each a paid article unless the service honours idempotency keys). */
export function retries(options: ResolvedLoaderOptions): { retryUnknown?: true | string[]; retryFailed?: true | string[] } {
  const { retryUnknown, retryFailed } = options;
  return { ...(retryUnknown === undefined ? {} : { retryUnknown }), ...(retryFailed === undefined ? {} : { retryFailed }) };
}

function describeOption(value: unknown): unknown {
  if (typeof value === 'function') return `function:${String(value)}`;
  if (Array.isArray(value)) return value.map(describeOption);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, describeOption(member)]));
  return value;
}

/** The pipeline settings shared by every article of a pass, and their fingerprint for the digests. */
export function pipelineSettings(scope: CollectionScope, specs: ArticleSpec[], cache: OutputCache, service: ArticleService, quality: QualityOptions): Pick<PassContext, 'site' | 'fingerprint' | 'processed' | 'downloads' | 'entryFile'> {
  const { options: o, context } = scope;
  const { links, byLocale: mapsByLocale } = localeLinkMaps(specs, scope.url, o.links);
  const entryFile = entryFileOf(scope);
  const sharedServiceLinks = serviceLinks(scope, cache, service);
  const byLocale = mapsByLocale === undefined ? undefined : localeSettings(mapsByLocale, sharedServiceLinks.serviceLinks, scope.options.internalLinks?.domainIds, (content, domainId) => service.linkContent(content, domainId));
  const site: SiteContext = {
    links,
    ...(byLocale === undefined ? {} : { byLocale }),
    ...(context.config.site === undefined ? {} : { site: context.config.site }),
    ...(o.maxLinks === undefined ? {} : { maxLinks: o.maxLinks }),
    ...(o.embedHosts === undefined ? {} : { embedHosts: o.embedHosts }),
    ...(o.headingIdPrefix === undefined ? {} : { headingIdPrefix: o.headingIdPrefix }),
    ...(o.externalLinks === undefined ? {} : { externalLinks: o.externalLinks }),
    ...sharedServiceLinks,
    ...imageDownloads(scope, cache, service, entryFile),
  };
  // Hashed once per pass: the link map grows with the site, and hashing it again into every
  // entry's digest made a warm pass quadratic in the number of articles.
  const outputOptions = { ...Object.fromEntries(OUTPUT_OPTIONS.map((name) => [name, o[name] ?? null])), downloadImages: downloadSettings(o, service) ?? null };
  // With several languages, every locale's map (each article's own is among them); else the one map, as it always was.
  const linkEntries = mapsByLocale === undefined ? links.entries : Object.entries(mapsByLocale).map(([locale, map]) => [locale, map.entries]);
  const fingerprint = context.generateDigest(JSON.stringify(describeOption({ ...outputOptions, links: linkEntries, site: context.config.site ?? null, entryFile, quality })));
  const downloads = site.downloadImages === undefined ? undefined : { dir: site.downloadImages.dir, publicPath: site.downloadImages.publicPath };
  return { site, fingerprint, processed: cache.processed, downloads, entryFile };
}

/** Each locale's link map, and its service domain when `internalLinks.domainIds` names one. */
function localeSettings(
  maps: Record<string, NonNullable<SiteContext['links']>>,
  shared: SiteContext['serviceLinks'],
  domainIds: Readonly<Record<string, string>> | undefined,
  link: (content: string, domainId: string) => ReturnType<NonNullable<SiteContext['serviceLinks']>['link']>,
): LocaleSettings {
  return Object.fromEntries(Object.entries(maps).map(([locale, links]) => {
    const domainId = locale === '' ? undefined : domainIds?.[locale];
    const serviceLinks = shared === undefined || domainId === undefined ? undefined : { ...shared, domainId, link: (content: string) => link(content, domainId) };
    return [locale, { links, ...(serviceLinks === undefined ? {} : { serviceLinks }) }];
  }));
}

/** The service's internal links, with its answers kept in the committed cache: a rebuild never pays for the same article again. */
function serviceLinks(scope: CollectionScope, cache: OutputCache, service: ArticleService): Pick<SiteContext, 'serviceLinks'> {
  const internalLinks = scope.options.internalLinks;
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
function downloadSettings(options: ResolvedLoaderOptions, service: ArticleService): ResolvedLoaderOptions['downloadImages'] {
  return options.downloadImages ?? (service.settings.mode === 'offline' ? OFFLINE_DOWNLOADS : undefined);
}

/** Image downloads into the site's public directory, through the service's fetch (offline: the emulator on this machine). */
function imageDownloads(scope: CollectionScope, cache: OutputCache, service: ArticleService, entryFile: string): Pick<SiteContext, 'downloadImages' | 'astroImages'> {
  const downloadImages = downloadSettings(scope.options, service);
  if (downloadImages === undefined) return {};
  const dir = resolve(scope.root, downloadImages.dir);
  return {
    downloadImages: { ...downloadImages, dir, cache: cache.keyedStore<string>('images'), fetch: service.fetchImage, allowPrivateHosts: service.settings.mode === 'offline' },
    // Import paths are relative to the entries' filePath, the manifest (or the lock file of an inline one).
    ...(scope.options.optimizeImages ? { astroImages: { dir, publicPath: downloadImages.publicPath, from: dirname(resolve(scope.root, entryFile)) } } : {}),
  };
}

/** The file entries come from, relative to the site root: the manifest, or the lock file of an inline manifest. */
function entryFileOf(scope: CollectionScope): string {
  const { manifest, lockFile } = scope.paths();
  return relative(scope.root, manifest ?? lockFile).split(sep).join('/');
}
