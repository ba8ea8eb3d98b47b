// `articleDetails(entry)`: what the slim entry leaves out (findings, request, headings, images, every link), read at build time
// from the loader session that loaded the entry's collection in this process. Light: the reading itself is the session's.
import { ArticleLoaderError } from '../errors.js';
import { loaderRuntime, type ArticleDetails } from './runtime.js';

export type { ArticleDetails };

/**
 * The details of an entry of an `articleLoader()` collection, in a page, endpoint or component while `astro build` or
 * `astro dev` runs (the loader that loaded the collection keeps them: the findings beside Astro's store, the request from
 * the manifest, the rest from the article's processed record in `articles.cache/processed/`).
 *
 * ```astro
 * ---
 * import { articleDetails } from 'astro-article-loader';
 * const { findings, request, images } = await articleDetails(entry);
 * ---
 * ```
 */
export async function articleDetails(entry: { id: string; collection: string }): Promise<ArticleDetails> {
  const sessions = [...loaderRuntime().sessions.values()].filter((session) => session.collection === entry.collection && session.details !== undefined);
  if (sessions.length === 0) {
    throw new ArticleLoaderError(
      'details_unavailable',
      `articleDetails(): no articleLoader() collection "${entry.collection}" was loaded in this process; call it from a page, endpoint or component while \`astro build\` or \`astro dev\` runs (in a script, read the records with \`astro-article-loader check --json\`)`,
    );
  }
  for (const session of sessions) {
    const details = await session.details!(entry.id);
    if (details !== undefined) return details;
  }
  throw new ArticleLoaderError('details_unavailable', `articleDetails(): the collection "${entry.collection}" has no entry "${entry.id}"; pass an entry from getCollection() or getEntry()`);
}
