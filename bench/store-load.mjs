// One articleLoader load() outside Astro, over a site's manifest, lock file and cache, into a store that keeps ids and digests only: what the loader itself costs at a scale no page build reaches (no Vite, no data store file, no pages).
//
// Run: node bench/store-load.mjs <site dir>   (ARTICLES_API_URL/KEY as for a build; prints one JSON line: { ms, entries, log })
// The context has what load() reads: the collection, the config's root and cache directory, a logger, generateDigest,
// parseData (the data as it is: Astro's schema check is left out, as every page is) and the store. The store keeps each
// entry's digest and data and drops its HTML, so 100,000 entries fit in memory.

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importDist } from './dist-location.mjs';

/** Astro's DataStore as the loader uses it, keeping each entry's id, digest and data (the loader reads its entries' data back), not its HTML. */
function digestStore() {
  const entries = new Map();
  return {
    get: (id) => entries.get(id),
    set: (entry) => {
      if (entry.digest !== undefined && entries.get(entry.id)?.digest === entry.digest) return false;
      entries.set(entry.id, { id: entry.id, digest: entry.digest, data: entry.data });
      return true;
    },
    delete: (id) => void entries.delete(id),
    clear: () => entries.clear(),
    has: (id) => entries.has(id),
    keys: () => [...entries.keys()],
    values: () => [...entries.values()],
    entries: () => [...entries.entries()],
    addModuleImport: () => undefined,
    size: () => entries.size,
  };
}

function logger(lines) {
  const log = (level) => (message) => lines.push(`${level} ${message}`);
  const self = { label: 'astro-article-loader', info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug'), options: { level: 'info' } };
  self.fork = () => self;
  return self;
}

/** Runs one load() of the site's `articles` collection; resolves with its time and counts. */
export async function storeLoad(site) {
  const { articleLoader } = await importDist('index.js');
  // No cover cards: drawing one takes about 80 ms here (resvg), which would be most of a first load() at this scale.
  const loader = articleLoader({ manifest: './articles.yaml', coverCard: false });
  const store = digestStore();
  const lines = [];
  const root = pathToFileURL(`${site}/`);
  const context = {
    collection: 'articles',
    config: { root, cacheDir: pathToFileURL(join(site, 'node_modules/.astro/')), base: '/', publicDir: pathToFileURL(join(site, 'public/')), site: undefined },
    logger: logger(lines),
    generateDigest: (data) => createHash('sha256').update(typeof data === 'string' ? data : JSON.stringify(data)).digest('hex').slice(0, 16),
    parseData: async ({ data }) => data,
    store,
    meta: new Map(),
    renderMarkdown: async () => ({ html: '' }),
    watcher: undefined,
  };
  const started = performance.now();
  await loader.load(context);
  const ms = performance.now() - started;
  const entriesLine = lines.find((line) => /entries/.test(line)) ?? '';
  return { ms, entries: store.size(), log: entriesLine };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await storeLoad(process.argv[2]);
  console.log(JSON.stringify(result));
}
