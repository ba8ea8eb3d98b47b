// Reading the service's status record of one of our articles: is it ours, what failed, what to cache and record.
import { articleRequestSchema } from '../contract/request-schema.js';
import type { ArticleStatus, FinishedArticleStatus } from '../contract/response-schema.js';
import { ArticleLoaderError } from '../errors.js';
import { billedWords, type BilledWords } from './billed-words.js';
import type { LockEntryError } from './lock-file.js';
import { normalizedKeyword } from './lock-integrity.js';
import type { CachedOutput } from './output-cache.js';
import type { SyncSpec } from './plan.js';

/**
 * An `invalid_response` error when a status record is for another article (its `config.targetKeyword`
 * is not this spec's: a mixed-up id on the service side), so its output is never served as ours.
 */
export function otherArticleError(slug: string, articleId: string, spec: SyncSpec | undefined, status: ArticleStatus): ArticleLoaderError | undefined {
  if (spec === undefined) return undefined;
  const ours = typeof spec.request.targetKeyword === 'string' ? spec.request.targetKeyword : spec.keyword;
  const theirs = status.config.targetKeyword;
  if (normalizedKeyword(ours) === normalizedKeyword(theirs)) return undefined;
  const shown = theirs.length > 200 ? `${theirs.slice(0, 200)}…` : theirs;
  return new ArticleLoaderError(
    'invalid_response',
    `The service answered for article ${articleId} of "${slug}" with a record for the keyword ${JSON.stringify(shown)}, not ${JSON.stringify(ours)}: ` +
      'it is another article, so it was neither cached nor recorded. If it persists, the id in the lock file is wrong for this slug; ' +
      "check it with the service; removing this slug's entry from the lock file makes the next build create it again (a new, paid article).",
  );
}

/** The service's `error` of a failed article: shape not shown by the spec, so only ever kept as text. */
export function serviceErrorOf(value: unknown): LockEntryError {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  const code = typeof record?.code === 'string' && /^[\w.-]{1,64}$/.test(record.code) ? record.code : 'article_failed';
  const raw = typeof record?.message === 'string' ? record.message : value === null || value === undefined ? 'the service reported the article failed' : JSON.stringify(value);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return { code, message: `the service reported the article failed: ${message}` };
}

/** A finished status record as cached: with the article it was fetched for. */
export function outputOf(status: FinishedArticleStatus, articleId: string): CachedOutput {
  return { html: status.output.html, polishedHtml: status.output.polishedHtml, updatedAt: status.updatedAt, articleId, targetKeyword: status.config.targetKeyword };
}

/** What the service billed for a finished output of `request`; undefined when the request cannot be read (never blocks a sync). */
export function billedFor(html: string, request: SyncSpec['request'] | undefined): BilledWords | undefined {
  const parsed = request === undefined ? undefined : articleRequestSchema.safeParse(request);
  return parsed?.success === true ? billedWords(html, parsed.data) : undefined;
}
