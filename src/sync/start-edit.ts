// Starting a hand edit: a finished article's HTML copied from the cache to its edits file, for the CLI's `edit` and the dev toolbar's Edit alike.
import { ArticleLoaderError } from '../errors.js';
import { editsDirFor, writeEdit } from './edits.js';
import { readLockState } from './maintenance.js';

export interface StartedEdit {
  /** The edit file written (absolute). */
  file: string;
  articleId: string;
  /** The service's polished HTML was copied (else its unpolished HTML). */
  polished: boolean;
}

export interface StartEditOptions {
  /** Copy the unpolished HTML even when a polished one exists. */
  unpolished?: boolean;
  /** How a path is shown in a message (relative to where the user is). */
  shown(path: string): string;
}

/**
 * Writes `articles.edits/<slug>.html` from the slug's finished article in the cache. Reads the
 * lock file and the cache only: no service. Refused, with what to do, when the slug has no
 * finished article, its output is not in the cache, or an edit exists (never written over).
 * The slug is assumed to be the manifest's: callers say "not a slug of…" in their own terms.
 */
export async function startEdit(lockFile: string, slug: string, options: StartEditOptions): Promise<StartedEdit> {
  const state = await readLockState(lockFile);
  const entry = state.lock.articles[slug];
  if (entry?.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) {
    throw new ArticleLoaderError('edit_not_finished', `"${slug}" has no finished article to edit yet (${entry?.status ?? 'never created'}); run a build or sync first.`);
  }
  const cached = await state.cache.readFor(entry.output, { lockFile: state.lockFile, slug, articleId: entry.articleId, keyword: entry.keyword });
  if (cached === undefined) {
    throw new ArticleLoaderError('output_unavailable', `the article of "${slug}" is not in ${options.shown(state.cacheDir)}/; run \`astro-article-loader sync\` (one GET fetches it), then edit.`);
  }
  const polished = options.unpolished !== true && typeof cached.polishedHtml === 'string' && cached.polishedHtml.trim() !== '';
  const { file, written } = await writeEdit(editsDirFor(state.lockFile), slug, entry.articleId, polished ? cached.polishedHtml! : cached.html);
  if (!written) throw new ArticleLoaderError('edit_exists', `${options.shown(file)} exists already and is never written over; edit it, or delete it first to start again from the article.`);
  return { file, articleId: entry.articleId, polished };
}
