// The Astro content loader: `articleLoader(options)` maps Astro's loader context onto the manifest, sync and pipeline.
import type { Loader, LoaderContext } from 'astro/loaders';
import { ArticleCollection } from './loader/article-collection.js';
import { articleEntrySchema } from './loader/entry-schema.js';
import { resolveLoaderOptions, type ArticleLoaderOptions } from './loader/options.js';

/** The loader's name in Astro's logs (`[astro-article-loader]`). */
export const LOADER_NAME = 'astro-article-loader';

/**
 * A content loader whose entries are the articles of a manifest of keywords.
 *
 * ```ts
 * // src/content.config.ts
 * import { defineCollection } from 'astro:content';
 * import { ARTICLES_API_KEY } from 'astro:env/server';
 * import { articleLoader } from 'astro-article-loader';
 *
 * export const collections = {
 *   articles: defineCollection({ loader: articleLoader({ manifest: './articles.yaml', apiKey: ARTICLES_API_KEY, baseUrl: 'https://…' }) }),
 * };
 * ```
 *
 * Options are checked here, when the content config is read: a mistake throws a LoaderOptionError
 * naming the option and the fix.
 */
export function articleLoader(options: ArticleLoaderOptions = {}) {
  const settings = resolveLoaderOptions(options);
  // One collection session per load(): Astro calls load() again when the content config changes.
  let session: ArticleCollection | undefined;
  return {
    name: LOADER_NAME,
    schema: articleEntrySchema,
    load: async (context: LoaderContext): Promise<void> => {
      await session?.dispose();
      session = new ArticleCollection(settings, context);
      await session.load();
    },
  } satisfies Loader;
}
