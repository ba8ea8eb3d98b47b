// The Astro content loader: `articleLoader(options)` maps Astro's loader context onto the manifest, sync and pipeline.
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import type { z } from 'astro/zod';
import { configLoadStarted, joinConfigLoad } from './config-load.js';
import { warnWhenDebugPrintsEnv } from './debug-env.js';
import { articleEntrySchema, entrySchemaWith, type EntryDetailShape } from './entry-schema.js';
import type { ArticleLoaderOptions, EntryDataPart } from './option-declarations.js';
import { LoaderOptionError, resolveLoaderOptions } from './options.js';
import { loaderRuntime, sharingLockFile } from './runtime.js';

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
export function articleLoader<Data extends z.ZodRawShape = {}, const Parts extends readonly EntryDataPart[] = []>(
  options: Omit<ArticleLoaderOptions, 'entryData'> & { dataSchema?: z.ZodObject<Data>; entryData?: Parts } = {},
) {
  const settings = resolveLoaderOptions(options);
  // The entry schema: the slim fields, the details `entryData` asks for, and the owner's own fields typed when a dataSchema
  // gives them. Its type is what Astro types `entry.data` with: a detail not asked for is not on it.
  const withDetails = entrySchemaWith(settings.entryData);
  const schema = (options.dataSchema === undefined ? withDetails : withDetails.extend(options.dataSchema.shape)) as unknown as ReturnType<
    typeof articleEntrySchema.extend<EntryDetailShape<Parts[number]> & Data>
  >;
  // The content config is being evaluated: the collections its loaders load are the ones it has.
  const member = joinConfigLoad();
  return {
    name: LOADER_NAME,
    schema,
    load: async (context: LoaderContext): Promise<void> => {
      // One session per collection: Astro calls load() again (often on a new loader, after the
      // content config changed), and the earlier session's dev watch and background wait must end.
      const sessions = loaderRuntime().sessions;
      const root = fileURLToPath(context.config.root);
      const key = `${root}#${context.collection}`;
      const settled = configLoadStarted(member, root, key);
      warnWhenDebugPrintsEnv((message) => context.logger.warn(message));
      try {
        await sessions.get(key)?.dispose();
        // The build machinery (manifest, sync, pipeline, service) is imported at the first load(), not
        // with the content config: Astro 6 and 7 keep the module runner open while loaders run.
        const { ArticleCollection } = await import('./article-collection.js');
        const session = new ArticleCollection(settings, context);
        const sharing = sharingLockFile(session);
        if (sharing !== undefined) {
          throw new LoaderOptionError(
            `the collections "${sharing.collection}" and "${context.collection}" would share the lock file ${session.lockFile}, and each would prune and rewrite the other's paid entries. ` +
              'Give each collection its own manifest file (guides.yaml → guides.lock.json), or its own `lockFile` option ' +
              "(a site whose manifest is not articles.yaml keeps its existing articles.lock.json: give a new collection lockFile: './guides.lock.json').",
          );
        }
        sessions.set(key, session);
        await session.load();
      } finally {
        // The last load of this evaluation ends the sessions of collections no longer in the config.
        await settled();
      }
    },
  } satisfies Loader;
}
