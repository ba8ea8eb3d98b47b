// One pass of a collection: read the manifest, sync (in a build, wait for every article), put the articles in the store, report.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentTime } from '../lang/clock.js';
import { parsesOf } from '../lang/parse-counts.js';
import { loadManifest, resolveInlineManifest, withRecordedSlugs, type Manifest } from '../manifest/index.js';
import { ArticleService, secretEchoedWarning } from '../service/article-service.js';
import { editsDirFor, listEdits, OutputCache, recordedSlugs, syncArticles, type LockEntryError, type SyncResult } from '../sync/index.js';
import { readLockText, type CollectionScope } from './collection-scope.js';
import type { DevSession } from './dev-session.js';
import { withPassCalendar } from './pass-calendar.js';
import { checkEntryData } from './entry-data.js';
import { LOCK_CHECKS_STORE, lockMemo } from './lock-memo.js';
import { manifestMemo } from './manifest-memo.js';
import { NEAR_DUPLICATES_STORE } from '../quality/near-duplicate-memo.js';
import { rememberSpecs } from './entry-details.js';
import { findingsBook } from './findings-book.js';
import { applyNearDuplicates, passChecks, passFindings, passQuality } from './pass-quality.js';
import { reviewOutcome } from './review-gate.js';
import type { QualityOptions } from '../quality/index.js';
import { ArticlesNotReadyError } from './not-ready-error.js';
import { pipelineSettings, retries, syncOptions, type PassContext } from './pass-context.js';
import { passCovers } from './pass-covers.js';
import type { StoreWriter } from './store-writer.js';
import { SyncReporter } from './sync-report.js';
import { holdingStoreSave, withBatchedStore } from './store-batch.js';
import { applyResult, articleMarks, publishDates, unpublishedSlugs } from './sync-entries.js';
import { restRouteAdvice } from './rest-route.js';

/** One sync: read the manifest, create and (in a build) wait, then put every article in the store. In dev, a wait still needed goes on in the background. */
export async function runPass(scope: CollectionScope, writer: StoreWriter, dev: DevSession | undefined): Promise<void> {
  // Astro's save of its whole store waits until the pass is over (store-batch.ts): it is then made once, after load().
  await holdingStoreSave(scope.context, () => passOnce(scope, writer, dev));
}

/** The pass itself: manifest, sync, the store batched, and the lock memo kept. */
async function passOnce(scope: CollectionScope, writer: StoreWriter, dev: DevSession | undefined): Promise<void> {
  writer.resetCounts();
  const { lockFile, cacheDir } = scope.paths();
  const checkedLock = lockMemo(new OutputCache(cacheDir).keyedStore(LOCK_CHECKS_STORE), scope.context.collection, lockFile);
  await checkedLock.trust();
  const { manifest, quality, now } = await readManifest(scope);
  rememberSpecs(scope, manifest.specs);
  const service = openService(scope);
  let handedOver = false;
  scope.activity.busy += 1;
  // What this pass starts from, for the dev watch (a build has none): a later change by another process is a reason to pass again.
  if (scope.dev) scope.activity.lastLockText = await readLockText(lockFile);
  scope.tracker.start();
  try {
    const { result, pass } = await syncPass(scope, { manifest, quality, now }, lockFile, service, dev);
    // Batched: each entry is set once and Astro's debounced save of the store runs after load(), not inside it (store-batch.ts).
    handedOver = await withBatchedStore(scope.context, () => settlePass(scope, writer, result, pass, dev));
    // Inside the pass: the dev watch does not take the loader's own cache writes for another process's.
    await checkedLock.keep();
  } catch (error) {
    scope.tracker.finish(undefined, error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    scope.activity.busy -= 1;
    if (!handedOver) await service.close();
  }
  const source = scope.options.manifest;
  scope.log.parses(source.kind === 'file' ? parsesOf('manifest', resolve(scope.root, source.path)) : undefined, parsesOf('lock', resolve(lockFile)));
}

/**
 * The manifest, checked against the owner's data schema, its warnings logged, and the pass's quality settings (checked before any
 * request); and the pass's one instant, which dates the calendar, what is published yet and the panel's marks alike.
 */
export async function readManifest(scope: CollectionScope): Promise<{ manifest: Manifest; quality: QualityOptions; now: Date }> {
  const now = currentTime();
  const source = scope.options.manifest;
  const read =
    source.kind === 'file'
      ? await loadManifest(resolve(scope.root, source.path), manifestMemo(scope.astroCacheDir, scope.context.collection))
      : resolveInlineManifest({ articles: source.articles, ...(source.defaults === undefined ? {} : { defaults: source.defaults }) }, 'astro content config (articles option)');
  // Before anything reads a slug: an article whose derived slug the rules changed keeps the one its lock entry records.
  const manifest = await withRecordedSlugs(read, () => recordedSlugs(scope.paths().lockFile));
  checkEntryData(manifest, scope.options.dataSchema);
  scope.log.manifestWarnings(manifest);
  await adviseRestRoute(scope, manifest);
  const scheduled = await withPassCalendar(manifest, { lockFile: scope.paths().lockFile, record: !scope.options.frozen, now }, scope.log);
  return { manifest: scheduled, quality: passQuality(scope, manifest), now };
}

/** Ids with folders (`de/x`) and no page that takes them whole: said before Astro renders the pages and stops on one. */
async function adviseRestRoute(scope: CollectionScope, manifest: Manifest): Promise<void> {
  if (scope.log.restRouteSaid) return;
  const ids = manifest.specs.map((spec) => spec.slug);
  const srcDir = scope.context.config.srcDir === undefined ? resolve(scope.root, 'src') : fileURLToPath(scope.context.config.srcDir);
  const advice = await restRouteAdvice(ids, scope.context.collection, resolve(srcDir, 'pages'));
  if (advice !== undefined) scope.log.restRoute(advice, scope.context.collection, ids.find((id) => id.includes('/'))!);
}

/** The service of one pass: the real one, or the embedded emulator, started only when an article needs it. */
export function openService(scope: CollectionScope): ArticleService {
  const { options, log, tracker, stateFile } = scope;
  return new ArticleService(options.service, {
    stateFile,
    onEmulatorStart: (url) => log.offline(url, options, stateFile),
    onLinkCredit: () => tracker.linkCredit(),
    idempotentCreates: options.idempotentCreates,
    timeoutMs: options.requestTimeoutMs,
    onSecretEchoed: ({ where }) => log.logger.warn(secretEchoedWarning(where)),
  });
}

/** The sync of one pass (in dev, less the creates it must not make), and what the pass settled from it. */
async function syncPass(scope: CollectionScope, { manifest, quality, now }: { manifest: Manifest; quality: QualityOptions; now: Date }, lockFile: string, service: ArticleService, dev: DevSession | undefined): Promise<{ result: SyncResult; pass: PassContext }> {
  const { options, log, tracker } = scope;
  const blocked = dev !== undefined ? await dev.blockedCreates(manifest.specs, lockFile, service, manifest.budget) : new Map<string, LockEntryError>();
  const specs = manifest.specs.filter((spec) => !blocked.has(spec.slug));
  // Left out of the sync, so the queue would never list them: the panel shows them as failed, as the pages do.
  tracker.block(manifest.specs.flatMap((spec) => (blocked.has(spec.slug) ? [{ slug: spec.slug, keyword: spec.keyword, error: blocked.get(spec.slug)! }] : [])));
  const reporter = new SyncReporter(log.logger, { offline: options.service.mode === 'offline' });
  const result = await syncArticles({
    ...syncOptions(scope, specs, lockFile, service, manifest.budget),
    ...retries(options),
    wait: !scope.dev,
    onEvent: (event) => {
      reporter.onEvent(event);
      tracker.onEvent(event);
    },
  });
  if (!service.connected && options.service.mode === 'offline') log.emulatorNotNeeded();
  reporter.summary(result, scope.root, { waiting: scope.dev });
  const editsDir = editsDirFor(lockFile);
  const settings = pipelineSettings(scope, manifest.specs, result.cache, service, quality);
  const pass: PassContext = {
    manifest,
    specs,
    blocked,
    entries: new Map(result.articles.map((article) => [article.slug, article.entry])),
    lockFile,
    service,
    editsDir,
    edits: new Set(await listEdits(editsDir)),
    servingEarlier: new Set(result.articles.filter((article) => article.serve?.current === false).map((article) => article.slug)),
    unpublished: scope.dev || options.drafts ? new Set<string>() : unpublishedSlugs(manifest.specs, now.getTime()),
    now,
    quality,
    checks: passChecks(scope, quality, manifest.specs),
    signatures: new Map(),
    nearDuplicateMemo: result.cache.keyedStore(NEAR_DUPLICATES_STORE),
    findings: await findingsBook(scope),
    ...settings,
    ...passCovers(scope, settings.processed.cacheDir, settings.downloads),
  };
  return { result, pass };
}

/** The pass's articles into the store, its closing lines, and what its failures do; true when a background wait took the service over. */
async function settlePass(scope: CollectionScope, writer: StoreWriter, result: SyncResult, pass: PassContext, dev: DevSession | undefined): Promise<boolean> {
  const { options, log, tracker } = scope;
  log.unpublished(pass.unpublished);
  const failures = await applyResult(scope, writer, result, pass);
  await applyNearDuplicates(scope, pass.quality, pass.signatures, pass.nearDuplicateMemo, pass.findings);
  const findings = passFindings(scope, pass.findings);
  await pass.findings.save(scope.context.store.keys());
  log.quality(findings, writer.counts.rendered + writer.counts.reused > 0);
  tracker.quality(findings);
  tracker.articleFindings(findings.all);
  tracker.review(reviewOutcome(scope, pass.findings));
  tracker.mark(articleMarks(pass.manifest.specs, pass.edits, pass.now.getTime()), publishDates(pass.manifest.specs));
  log.entries(writer.counts);
  const pending = result.articles.some((article) => article.outcome === 'pending');
  tracker.finish(result, pass.blocked.size > 0 ? [...pass.blocked.values()][0]!.message : null, { running: pending && dev !== undefined, requests: pass.service.stats.requests });
  let handedOver = false;
  if (dev !== undefined && pending && !scope.activity.disposed) {
    dev.startWaiting(pass);
    handedOver = true;
  }
  if (dev === undefined && failures.length > 0) {
    if (options.onFailure === 'fail') throw new ArticlesNotReadyError(failures);
    log.leftOut(failures);
  }
  return handedOver;
}
