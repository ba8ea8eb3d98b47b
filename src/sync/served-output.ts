// The output a slug serves after a sync: from the cache, checked against its entry, or fetched again with one GET.
import { basename, dirname } from 'node:path';
import type { ArticleStatus } from '../contract/response-schema.js';
import { SyncError } from './errors.js';
import type { LockEntry } from './lock-file.js';
import type { LockSession } from './lock-session.js';
import type { CachedOutput, OutputCache } from './output-cache.js';
import type { SyncSpec } from './plan.js';
import { entryErrorOf } from './run-record.js';
import { billedFor, otherArticleError, outputOf } from './status-record.js';
import type { ServedArticle, SyncArticleResult, SyncEvent } from './result-shape.js';

/** The finished article a lock entry serves: its own, or the earlier one while a changed request is written. */
export function servedOf(entry: LockEntry | undefined): ServedArticle | undefined {
  if (entry === undefined) return undefined;
  if (entry.status === 'finished' && entry.output !== undefined && entry.articleId !== undefined) {
    return { output: entry.output, articleId: entry.articleId, hash: entry.hash, current: true, emulator: entry.emulator === true };
  }
  const previous = entry.previous;
  if (previous !== undefined) return { output: previous.output, articleId: previous.articleId, hash: previous.hash, current: false, emulator: previous.emulator === true };
  return undefined;
}

export interface ServedOutputContext {
  cache: OutputCache;
  client: { getArticle(articleId: string): Promise<ArticleStatus> } | undefined;
  session: LockSession;
  emit: (event: SyncEvent) => void;
  /** The spec: its keyword is checked against the record's, and its request gives the bill when the lock lacks it. */
  spec: SyncSpec | undefined;
}

/**
 * The output `article` serves, verified against its lock entry (another article's output stops
 * with `corrupt_lock`). A missing or damaged file is fetched with one GET, cached, and the lock
 * entry follows what the service serves now. `undefined` when there is nothing to serve yet.
 */
export async function readServedOutput(article: SyncArticleResult | undefined, context: ServedOutputContext): Promise<CachedOutput | undefined> {
  const serve = article?.serve;
  if (article === undefined || serve === undefined) return undefined;
  const owner = { lockFile: context.session.file, slug: article.slug, articleId: serve.articleId, keyword: serve.current ? article.keyword : undefined };
  const cached = await context.cache.readFor(serve.output, owner);
  if (cached !== undefined) return cached;
  const output = await fetchServed(article, serve, context);
  const hash = await context.cache.put(output);
  const billed = serve.current && article.entry?.words === undefined ? billedFor(output.html, context.spec?.request) : undefined;
  if (hash !== serve.output || billed !== undefined) await repointEntry(context.session, article.slug, serve, hash, billed);
  context.emit({ type: 'fetched', slug: article.slug, articleId: serve.articleId });
  return output;
}

async function fetchServed(article: SyncArticleResult, serve: ServedArticle, context: ServedOutputContext): Promise<CachedOutput> {
  const unavailable = (why: string, cause?: unknown): SyncError =>
    new SyncError(
      'output_unavailable',
      `The output of "${article.slug}" (article ${serve.articleId}) is missing or damaged in ${context.cache.outputsDir} and ${why}. ` +
        `Restore the ${basename(dirname(context.cache.outputsDir))} directory from version control, or run the build again with the service reachable.`,
      cause === undefined ? undefined : { cause },
    );
  if (context.client === undefined) throw unavailable('no article service is configured to fetch it');
  let status: ArticleStatus;
  try {
    status = await context.client.getArticle(serve.articleId);
  } catch (error) {
    throw unavailable(`fetching it failed (${entryErrorOf(error).code})`, error);
  }
  if (status.status !== 'finished') throw unavailable(`the service says it is ${status.status}`);
  // A previous article's request is not kept, so only the current one can be checked.
  const mismatch = serve.current ? otherArticleError(article.slug, serve.articleId, context.spec, status) : undefined;
  if (mismatch !== undefined) throw unavailable('the service answered with another article', mismatch);
  return outputOf(status, serve.articleId);
}

/** Edited in the writing tool since (polished by hand): the lock now points at what the service serves. */
async function repointEntry(session: LockSession, slug: string, serve: ServedArticle, hash: string, billed: ReturnType<typeof billedFor>): Promise<void> {
  await session.update((lock) => {
    const entry = lock.articles[slug];
    if (entry === undefined) return false;
    if (serve.current && entry.articleId === serve.articleId) {
      entry.output = hash;
      if (entry.words === undefined && billed !== undefined) Object.assign(entry, billed);
    } else if (!serve.current && entry.previous?.articleId === serve.articleId) entry.previous.output = hash;
    else return false;
    entry.updatedAt = new Date().toISOString();
    return true;
  });
}
