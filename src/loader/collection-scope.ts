// What every room of a collection's session reads: its options, Astro's context, its files, its log, queue and placeholders.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { lockPathsForManifest, resolveLockPaths } from '../sync/index.js';
import { CollectionLog } from './collection-log.js';
import type { ResolvedLoaderOptions } from './options.js';
import { PlaceholderProgress } from './placeholder-progress.js';
import { QueueTracker } from './queue-tracker.js';
import { collectionLogger } from './sync-report.js';

export interface CollectionPaths {
  /** The manifest file; undefined for an inline manifest. */
  manifest: string | undefined;
  lockFile: string;
  cacheDir: string;
}

export interface CollectionScope {
  readonly options: ResolvedLoaderOptions;
  readonly context: LoaderContext;
  readonly log: CollectionLog;
  /** The project root, a path. */
  readonly root: string;
  /** Astro gives a watcher to the dev server only. */
  readonly dev: boolean;
  readonly url: (slug: string) => string;
  /** The loader's folder in Astro's cache directory (node_modules/.astro/astro-article-loader/): the build notes (build-notes.ts) and the emulator's state. */
  readonly astroCacheDir: string;
  /** The embedded emulator's state, kept so a stopped build resumes. */
  readonly stateFile: string;
  readonly tracker: QueueTracker;
  /** What each pending article's placeholder shows: a store write reloads the dev server's pages, so only coarse steps are written. */
  readonly progress: PlaceholderProgress;
  /** The manifest file, and the lock file and cache: asked each time, since which lock file is a manifest's depends on the files beside it. */
  paths(): CollectionPaths;
  /** What the dev watch asks of the passes: is one running (or waiting), and the lock file as the last one began with. */
  readonly activity: { busy: number; lastLockText: string | undefined; disposed: boolean };
}

export function collectionScope(options: ResolvedLoaderOptions, context: LoaderContext): CollectionScope {
  const root = fileURLToPath(context.config.root);
  const base = (context.config.base ?? '/').replace(/\/+$/, '');
  const url = options.url ?? ((slug: string) => `${base}/articles/${slug}/`);
  const paths = (): CollectionPaths => collectionPaths(options, root);
  const { lockFile, cacheDir, manifest } = paths();
  const astroCacheDir = resolve(fileURLToPath(context.config.cacheDir), 'astro-article-loader');
  const dev = context.watcher !== undefined;
  const tracker = new QueueTracker(
    { collection: context.collection, mode: options.service.mode, frozen: options.frozen, budget: options.budget, manifest: manifest ?? 'inline', lockFile, cacheDir },
    url,
    { panel: dev },
  );
  return {
    options,
    context,
    log: new CollectionLog(collectionLogger(context.logger, root, context.collection), root),
    root,
    dev,
    url,
    astroCacheDir,
    stateFile: resolve(astroCacheDir, 'emulator-state.json'),
    tracker,
    progress: new PlaceholderProgress(),
    paths,
    activity: { busy: 0, lastLockText: undefined, disposed: false },
  };
}

/** The `lockFile` option, else the lock file named after the manifest, else the one in the project root. */
function collectionPaths(options: ResolvedLoaderOptions, root: string): CollectionPaths {
  const manifest = options.manifest.kind === 'file' ? resolve(root, options.manifest.path) : undefined;
  if (options.lockFile !== undefined) return { manifest, ...resolveLockPaths(resolve(root, options.lockFile)) };
  return { manifest, ...(manifest === undefined ? resolveLockPaths(root) : lockPathsForManifest(manifest)) };
}

/** The lock file's text, or undefined when there is none (yet): the dev watch compares it to tell our writes from others'. */
export async function readLockText(lockFile: string): Promise<string | undefined> {
  try {
    return await readFile(lockFile, 'utf8');
  } catch {
    return undefined;
  }
}
