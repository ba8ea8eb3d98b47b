// A sync result into the store: each published article's entry or placeholder, the articles left out and why, and the entries no article claims deleted.
import pLimit from 'p-limit';
import type { ArticleSpec } from '../manifest/index.js';
import { InternalLinksError, PipelineOptionError } from '../pipeline/errors.js';
import type { LockEntryError, NotReadyArticle, SyncResult } from '../sync/index.js';
import type { CollectionScope } from './collection-scope.js';
import type { PassContext } from './pass-context.js';
import { logWaiting, waitingForReview } from './review-gate.js';
import { articleProcessor, type ArticleProcessor } from './pipeline-pool.js';
import { RECORD_TEXT } from './processed-entries.js';
import type { ArticleMark } from './runtime.js';
import type { OutputReader, Preparation, StoreWriter } from './store-writer.js';

type SyncedArticle = SyncResult['articles'][number];

/**
 * How far an article got before the pipeline: its entry unchanged, ready to write, stopped by an error while
 * preparing, or not served by the sync at all (pending, failed, unknown) with the reason.
 */
type Readiness = Preparation | { kind: 'failed'; error: Error } | { kind: 'not-served'; error: LockEntryError };

/** A draft or a future publish date: the marks that keep an article out of a build (unless `drafts` is on). */
function publishMarks(spec: ArticleSpec, now: number): ArticleMark[] {
  const marks: ArticleMark[] = [];
  if (spec.draft) marks.push('draft');
  if (spec.publishDate !== undefined && spec.publishDate.getTime() > now) marks.push('scheduled');
  return marks;
}

/** Drafts and articles whose publish date is later than `now`: a build leaves them out unless `drafts` is on. */
export function unpublishedSlugs(specs: readonly ArticleSpec[], now: number): Set<string> {
  return new Set(specs.filter((spec) => publishMarks(spec, now).length > 0).map((spec) => spec.slug));
}

/** Each article's marks for the queue: a draft, a future publish date, a hand edit. */
export function articleMarks(specs: readonly ArticleSpec[], edits: ReadonlySet<string>, now: number): Map<string, ArticleMark[]> {
  const marks = new Map<string, ArticleMark[]>();
  for (const spec of specs) {
    const mine = [...publishMarks(spec, now), ...(edits.has(spec.slug) ? (['edited'] as const) : [])];
    if (mine.length > 0) marks.set(spec.slug, mine);
  }
  return marks;
}

/** Each article's publish date (given, or from its schedule), ISO, for the panel. */
export function publishDates(specs: readonly ArticleSpec[]): Map<string, string> {
  return new Map(specs.flatMap((spec) => (spec.publishDate === undefined ? [] : [[spec.slug, spec.publishDate.toISOString()] as const])));
}

/** The errors that are mistakes in the setup, not in one article: they stop the build whatever `onFailure` says. */
function isSetupError(error: unknown): boolean {
  return error instanceof PipelineOptionError || error instanceof InternalLinksError;
}

/** A thrown error as an entry's error: its code when it has one. */
export function errorOf(error: unknown): LockEntryError {
  const code = (error as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : 'error', message: error instanceof Error ? error.message : String(error) };
}

/** Puts every article of a sync result in the store; returns the ones that could not be served. */
export async function applyResult(scope: CollectionScope, writer: StoreWriter, result: SyncResult, pass: PassContext): Promise<NotReadyArticle[]> {
  const bySlug = new Map(pass.specs.map((spec) => [spec.slug, spec]));
  const limit = pLimit(16);
  // Left out of the site: its entry (if any) is not claimed, and goes. So is, with the review gate on, an output nobody approved.
  const hold = waitingForReview(scope, pass, result.articles);
  logWaiting(scope, pass, hold);
  const published = result.articles.filter((article) => !pass.unpublished.has(article.slug) && !hold.leftOut.has(article.slug));
  const failures: NotReadyArticle[] = [];
  const place = async (article: SyncedArticle, readiness: Readiness, processor: ArticleProcessor | undefined): Promise<void> => {
    const item = { article, spec: bySlug.get(article.slug)!, readiness, read: () => result.readOutput(article.slug) };
    const failure = await placeArticle(scope, writer, item, processor, pass);
    if (failure !== undefined) failures.push(failure);
  };
  // An article that needs no pipeline is placed as soon as it is prepared, so its record is garbage at once: holding
  // every record until all were read cost a cold store's load() of 10,000 articles, outside Astro, 9.0 s and 694 MB
  // peak against 7.7 s and 490 MB.
  const misses: { article: SyncedArticle; readiness: Readiness }[] = [];
  const reading = readsAhead(scope, published) ? pass.processed.readAhead(published.map((article) => article.slug), { text: RECORD_TEXT }) : undefined;
  try {
    await Promise.all(
      published.map((article) =>
        limit(async () => {
          const readiness = await prepareOne(writer, article, bySlug, pass);
          if (readiness.kind === 'prepared' && readiness.entry.kept === undefined) misses.push({ article, readiness });
          else await place(article, readiness, undefined);
        }),
      ),
    );
  } finally {
    reading?.stop();
  }
  // How many need the pipeline decides where it runs.
  const processor = articleProcessor(pass.site, pass.checks, misses.length);
  try {
    await Promise.all(misses.map(({ article, readiness }) => limit(() => place(article, readiness, processor))));
  } finally {
    await processor.close();
  }
  const blocked: ArticleSpec[] = [];
  for (const [slug, error] of pass.blocked) {
    const spec = pass.manifest.specs.find((candidate) => candidate.slug === slug);
    if (spec === undefined) continue;
    blocked.push(spec);
    writer.failed(spec, error, undefined);
  }
  sweep(scope, claimedIds(published, failures, blocked));
  return failures;
}

/**
 * Below this many articles the pass reads its records itself. Not measured as a break-even: in a bare loop of `get` over
 * records already in the page cache, the thread cost 25-45 ms more than it saved at 1,000-4,000 records (the loop outran it),
 * while a 10,000-article cold build, which does far more for each record, gained 0.5-0.7 s (docs/builds.md, "The fifth part").
 */
const READ_AHEAD_MIN = 200;

/**
 * Whether the pass reads its records ahead: a cold data store (none of the collection's entries in it, as in CI or a
 * fresh clone), where each published article's record is read. Measured on 10,000 records not in the page cache: the
 * loader's thread spent 0.6 s in `read` alone, which the floor's reads, on the thread pool, do not block on.
 */
function readsAhead(scope: CollectionScope, published: readonly SyncedArticle[]): boolean {
  return published.length >= READ_AHEAD_MIN && scope.context.store.keys().length === 0;
}

/** The ids whose entries this pass keeps: its published articles, less a build's failures, and the dev server's blocked creates. */
function claimedIds(published: readonly SyncedArticle[], failures: readonly NotReadyArticle[], blocked: readonly ArticleSpec[]): Set<string> {
  const failed = new Set(failures.map((failure) => failure.slug));
  return new Set([...published.map((article) => article.slug).filter((slug) => !failed.has(slug)), ...blocked.map((spec) => spec.slug)]);
}

/** As Astro's own loaders do: an entry no article of this pass claims (removed, unpublished, failed in a build) leaves the store. */
function sweep(scope: CollectionScope, claimed: ReadonlySet<string>): void {
  const { store } = scope.context;
  for (const id of [...store.keys()]) if (!claimed.has(id)) store.delete(id);
}

/** An article's readiness: prepared when it is servable, else why not. */
async function prepareOne(writer: StoreWriter, article: SyncedArticle, bySlug: ReadonlyMap<string, ArticleSpec>, pass: PassContext): Promise<Readiness> {
  if (article.serve === undefined) return { kind: 'not-served', error: article.error ?? { code: article.outcome, message: `the article is ${article.outcome}` } };
  try {
    return await writer.prepare(bySlug.get(article.slug)!, article.serve, article.entry, pass);
  } catch (cause) {
    return { kind: 'failed', error: cause instanceof Error ? cause : new Error(String(cause)) };
  }
}

/** One published article into the store: its entry when it is served, else its placeholder (dev) or its failure (a build). */
async function placeArticle(
  scope: CollectionScope,
  writer: StoreWriter,
  item: { article: SyncedArticle; spec: ArticleSpec; readiness: Readiness; read: OutputReader },
  processor: ArticleProcessor | undefined,
  pass: PassContext,
): Promise<NotReadyArticle | undefined> {
  const { article, spec, readiness } = item;
  let error: LockEntryError;
  switch (readiness.kind) {
    case 'unchanged':
      return undefined;
    case 'prepared':
      try {
        await writer.finish(readiness.entry, item.read, processor, pass);
        return undefined;
      } catch (cause) {
        error = notProcessed(scope, spec, cause);
      }
      break;
    case 'failed':
      error = notProcessed(scope, spec, readiness.error);
      break;
    case 'not-served':
      error = readiness.error;
  }
  return notServed(scope, writer, spec, article, error);
}

/** An article the pipeline could not make an entry of, logged; a mistake in the setup stops the pass instead. */
function notProcessed(scope: CollectionScope, spec: ArticleSpec, cause: unknown): LockEntryError {
  if (isSetupError(cause)) throw cause;
  const error = errorOf(cause);
  scope.log.notProcessed(spec.slug, error.message);
  return error;
}

/** An article that could not be served: in dev its placeholder, in a build the failure to report. */
function notServed(scope: CollectionScope, writer: StoreWriter, spec: ArticleSpec, article: SyncedArticle, error: LockEntryError): NotReadyArticle | undefined {
  if (scope.dev && article.outcome === 'pending') {
    // As the background wait last showed it: unchanged, it is not written again.
    writer.pending(spec, scope.progress.shown(spec.slug), article.entry);
  } else if (scope.dev) {
    writer.failed(spec, error, article.entry);
  } else {
    return { slug: spec.slug, error, keyword: spec.keyword, status: article.entry?.status };
  }
  return undefined;
}
