// Test harness: articleLoader() run in this process against Astro's own data store, in a temp site, as Astro's content layer calls it.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
// Astro's data store is not among its package exports; the content layer uses this class for every collection.
import { MutableDataStore } from '../../node_modules/astro/dist/content/mutable-data-store.js';
import { articleEntrySchema } from '../../src/loader/entry-schema.js';

export interface LoggedLine {
  level: 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

/** Every `store.set` the loader made that changed the store (Astro skips a set whose digest is unchanged). */
export interface StoreWrite {
  id: string;
  status: unknown;
  progress: unknown;
}

export interface TestSite {
  root: string;
  /** Astro's data store, shared by every collection of the site (as in one content layer). */
  store: MutableDataStore;
  lines: LoggedLine[];
  writes: StoreWrite[];
  /** The dev server's file watcher stand-in: `emit('change', path)` is a file saved. */
  watcher: EventEmitter & { add(paths: string | readonly string[]): void };
  /** The context Astro gives `load()` for one collection; `dev` adds the watcher. */
  context(collection: string, options?: { dev?: boolean }): LoaderContext;
  write(file: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createTestSite(): Promise<TestSite> {
  const root = await mkdtemp(join(tmpdir(), 'aal-inprocess-'));
  await mkdir(join(root, 'node_modules/.astro'), { recursive: true });
  const store = new MutableDataStore();
  const lines: LoggedLine[] = [];
  const writes: StoreWrite[] = [];
  const watcher = Object.assign(new EventEmitter(), { add: (): void => {} });
  const logger = (label: string) => {
    const log = (level: LoggedLine['level']) => (message: string) => void lines.push({ level, message: `[${label}] ${message}` });
    return { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug'), label, options: { dest: undefined, level: 'debug' }, fork: () => logger(label) };
  };
  const context = (collection: string, options: { dev?: boolean } = {}): LoaderContext => {
    const scoped = store.scopedStore(collection);
    const recorded: typeof scoped = {
      ...scoped,
      set: (entry) => {
        const changed = scoped.set(entry);
        if (changed) writes.push({ id: entry.id, status: entry.data.status, progress: entry.data.progress });
        return changed;
      },
    };
    return {
      collection,
      store: recorded,
      meta: store.metaStore(collection),
      logger: logger('astro-article-loader') as unknown as LoaderContext['logger'],
      config: { root: pathToFileURL(`${root}/`), cacheDir: pathToFileURL(join(root, 'node_modules/.astro/')), base: '/', site: 'https://site.example' } as unknown as LoaderContext['config'],
      // What Astro's parseData does with the loader's schema and no user schema.
      parseData: async ({ data }) => (await articleEntrySchema.parseAsync(data)) as unknown as typeof data,
      renderMarkdown: () => Promise.reject(new Error('not used by the article loader')),
      generateDigest: (data) => createHash('sha256').update(typeof data === 'string' ? data : JSON.stringify(data)).digest('hex').slice(0, 16),
      ...(options.dev === true ? { watcher: watcher as unknown as NonNullable<LoaderContext['watcher']> } : {}),
    };
  };
  return {
    root,
    store,
    lines,
    writes,
    watcher,
    context,
    write: (file, text) => writeFile(join(root, file), text),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
