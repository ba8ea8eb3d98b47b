// Articles a run could not put on the site: the one list and the one advice the sync error and the loader's error (and its skip warning) give.
import type { LockEntry, LockEntryError } from './lock-file.js';
import { unknownCreatesLines } from './unknown-creates.js';

/** An article left out; `status`: its lock entry's status after the run (undefined: never created). */
export interface NotReadyArticle {
  slug: string;
  keyword?: string;
  error?: LockEntryError;
  status: LockEntry['status'] | undefined;
}

/** At most this many articles are listed; the rest are counted. */
const LISTED = 20;

/** One line per article (at most 20): `  - slug: message (code)`. */
export function notReadyLines(articles: readonly NotReadyArticle[]): string[] {
  const lines = articles.slice(0, LISTED).map((a) => `  - ${a.slug}: ${a.error === undefined ? (a.status ?? 'not created') : `${a.error.message} (${a.error.code})`}`);
  if (articles.length > LISTED) lines.push(`  - … and ${articles.length - LISTED} more`);
  return lines;
}

/**
 * What becomes of the articles left out, by their lock entry: one with an id that is not finished
 * is resumed by a later run; a failed one waits for `retryFailed`; an unknown create for adopt or
 * `retryUnknown` (never resolved by itself); one never created is tried again.
 */
export function notReadyAdvice(articles: readonly NotReadyArticle[], unknownListed: 'above' | 'below' = 'below'): string {
  const statuses = new Set(articles.map((a) => a.status));
  const advice: string[] = [];
  if (statuses.has('pending')) advice.push('articles with an id keep it, and the next build resumes them');
  if (statuses.has('failed')) advice.push('failed articles are created again only when asked (retryFailed, CLI --retry-failed; a new, paid article)');
  if (statuses.has('unknown')) advice.push(`unknown creates stay off the site until adopted or paid for again (see the list ${unknownListed})`);
  if (statuses.has(undefined) || statuses.has('finished')) advice.push('the others are tried again by the next build');
  return `${advice.join('; ').replace(/^./, (c) => c.toUpperCase())}.`;
}

/**
 * The whole message: the headline, the list, the advice and what `onFailure` would change. Each
 * unknown create's two ways out follow, unless the caller has printed them already (`unknownListed: 'above'`).
 */
export function notReadyMessage(articles: readonly NotReadyArticle[], headline: string, onFailureHint: string, unknownListed: 'above' | 'below' = 'below'): string {
  const unknown = articles.filter((a) => a.status === 'unknown').map((a) => ({ slug: a.slug, keyword: a.keyword ?? a.slug }));
  const lines = [headline, ...notReadyLines(articles), `${notReadyAdvice(articles, unknownListed)} ${onFailureHint}`];
  if (unknownListed === 'below') lines.push(...unknownCreatesLines(unknown));
  return lines.join('\n');
}
