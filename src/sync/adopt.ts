// Adopting an article: attaching an id found in the service's queue to a lock entry, never creating.
import { articleRequestSchema } from '../contract/request-schema.js';
import { articleIdSchema, type ArticleStatus } from '../contract/response-schema.js';
import { billedWords } from './billed-words.js';
import { explicitParameters, requestHash } from './canonical-request.js';
import { AdoptError } from './errors.js';
import { normalizedKeyword } from './lock-integrity.js';
import { approvalOf, previousOf } from './lock-entry-records.js';
import { readLockFile, resolveLockPaths, type LockEntry } from './lock-file.js';
import { LockSession } from './lock-session.js';
import { OutputCache } from './output-cache.js';
import type { SyncSpec } from './plan.js';

/** Whether `text` has the shape of an id the service gives out (a UUID, as the spec says), so adopt can refuse a mistyped one before it reads or sends anything. */
export function isArticleId(text: string): boolean {
  return articleIdSchema.safeParse(text).success;
}

export interface AdoptOptions {
  /** The manifest's articles: the slug must be one of them. */
  specs: readonly SyncSpec[];
  /** Shown in messages (the manifest file, or "the manifest"). */
  manifest: string;
  lockFile: string;
  slug: string;
  articleId: string;
  /** Only `getArticle` is used: adopting never creates. */
  client: { getArticle(articleId: string, options?: { signal?: AbortSignal }): Promise<ArticleStatus> };
  signal?: AbortSignal;
}

export interface AdoptResult {
  slug: string;
  keyword: string;
  articleId: string;
  /** The article's status on the service: `finished` (its output is cached) or still being written. */
  status: 'finished' | 'queued' | 'processing';
  /** The lock entry's status before (`undefined`: no entry yet). */
  before: LockEntry['status'] | undefined;
  /** The article id the entry had before, when it had another one (a pending article it replaces). */
  replaced: string | undefined;
  /** The entry already had this article: nothing was written. */
  unchanged: boolean;
  lockFile: string;
}

/**
 * Records `articleId` as the article of `slug`, after checking with one GET that the service has it
 * and that it was written for the entry's keyword. A finished article's output is cached; one still
 * being written is waited for by the next build. Works on an entry that is `unknown`, `failed` or
 * `pending`, or has none; refuses an entry that already has another finished article.
 */
export async function adoptArticle(options: AdoptOptions): Promise<AdoptResult> {
  const { slug, articleId } = options;
  const { lockFile, cacheDir } = resolveLockPaths(options.lockFile);
  const spec = options.specs.find((candidate) => candidate.slug === slug);
  if (spec === undefined) throw unknownSlug(slug, options);
  // A lock file that can't be trusted stops us before the request, as it stops a build.
  refuseFinished(slug, articleId, (await readLockFile(lockFile)).articles[slug]);
  const record = await options.client.getArticle(articleId, options.signal === undefined ? {} : { signal: options.signal });
  checkRecord(spec, articleId, record);
  const output =
    record.status === 'finished'
      ? await new OutputCache(cacheDir).put({ ...record.output, updatedAt: record.updatedAt, articleId, targetKeyword: record.config.targetKeyword })
      : undefined;
  let before: LockEntry | undefined;
  const session = new LockSession(lockFile, options.signal === undefined ? {} : { signal: options.signal });
  await session.update((lock) => {
    before = lock.articles[slug];
    refuseFinished(slug, articleId, before);
    if (before?.articleId === articleId && before.status === record.status) return false;
    lock.articles[slug] = adoptedEntry(spec, articleId, record, output, before);
    return true;
  });
  return {
    slug,
    keyword: spec.keyword,
    articleId,
    status: record.status === 'finished' ? 'finished' : record.status === 'processing' ? 'processing' : 'queued',
    before: before?.status,
    replaced: before?.articleId !== undefined && before.articleId !== articleId ? before.articleId : undefined,
    unchanged: before?.articleId === articleId && before.status === record.status,
    lockFile,
  };
}

function unknownSlug(slug: string, options: AdoptOptions): AdoptError {
  const close = options.specs.filter((spec) => spec.slug.includes(slug) || slug.includes(spec.slug)).map((spec) => spec.slug);
  const hint = close.length > 0 ? ` Did you mean ${close.slice(0, 3).map((s) => `"${s}"`).join(', ')}?` : '';
  return new AdoptError(
    'adopt_unknown_slug',
    `"${slug}" is not an article of ${options.manifest}.${hint} Give the slug as \`astro-article-loader plan\` lists it; nothing was changed.`,
  );
}

function refuseFinished(slug: string, articleId: string, entry: LockEntry | undefined): void {
  if (entry?.status !== 'finished' || entry.articleId === articleId) return;
  throw new AdoptError(
    'adopt_finished_entry',
    `"${slug}" already has a finished article (${entry.articleId}); adopting ${articleId} would take it off the site. ` +
      'Adopt is for entries that are unknown, failed or pending. Nothing was changed.',
  );
}

/** The record must be an article the service has for this keyword, and one that can reach the site. */
function checkRecord(spec: SyncSpec, articleId: string, record: ArticleStatus): void {
  const theirs = record.config.targetKeyword;
  if (normalizedKeyword(theirs) !== normalizedKeyword(spec.keyword)) {
    const shown = theirs.length > 200 ? `${theirs.slice(0, 200)}…` : theirs;
    throw new AdoptError(
      'adopt_keyword_mismatch',
      `Article ${articleId} was written for the keyword ${JSON.stringify(shown)}, but "${spec.slug}" is the keyword ${JSON.stringify(spec.keyword)} ` +
        '(spacing and case are ignored). Check the id on the service\'s queue page; nothing was changed.',
    );
  }
  if (record.status === 'failed') {
    throw new AdoptError(
      'adopt_failed_article',
      `Article ${articleId} failed on the service, so adopting it would put nothing on the site. ` +
        `Look for another article for ${JSON.stringify(spec.keyword)} on the queue page, or pay for a new one: ` +
        `\`astro-article-loader sync --retry-unknown=${spec.slug}\` (or --retry-failed=${spec.slug}). Nothing was changed.`,
    );
  }
}

function adoptedEntry(spec: SyncSpec, articleId: string, record: ArticleStatus, output: string | undefined, before: LockEntry | undefined): LockEntry {
  const now = new Date().toISOString();
  const previous = previousOf(before);
  const entry: LockEntry = {
    keyword: spec.keyword,
    status: output === undefined ? 'pending' : 'finished',
    hash: requestHash(spec.request),
    articleId,
    attempt: before?.attempt ?? 1,
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
    request: explicitParameters(spec.request),
    ...(previous === undefined || previous.articleId === articleId ? {} : { previous }),
    ...approvalOf(before),
  };
  if (output === undefined || record.status !== 'finished') return entry;
  return { ...entry, finishedAt: now, output, ...billedWords(record.output.html, articleRequestSchema.parse(spec.request)) };
}
