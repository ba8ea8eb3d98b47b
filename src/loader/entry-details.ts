// What `articleDetails()` answers for one entry of a collection this process loaded: the details the slim entry leaves out,
// from where the build keeps them (the pass's findings book, its manifest's request, the article's processed record).
import type { ArticleSpec } from '../manifest/index.js';
import { ArticleLoaderError } from '../errors.js';
import { ProcessedStore } from '../sync/index.js';
import { entryConfig } from './article-entry.js';
import type { ArticleDetails } from './runtime.js';
import type { CollectionScope } from './collection-scope.js';
import { findingsBook, ownDigest } from './findings-book.js';
import { parseRecord } from './processed-entries.js';

/** The specs of each scope's last pass, by slug: the requests `articleDetails()` gives. */
const passSpecs = new WeakMap<CollectionScope, ReadonlyMap<string, ArticleSpec>>();

/** Called by each pass with the manifest it read. */
export function rememberSpecs(scope: CollectionScope, specs: readonly ArticleSpec[]): void {
  passSpecs.set(scope, new Map(specs.map((spec) => [spec.slug, spec])));
}

/** The details of the entry `slug` in the scope's store; undefined when the store has no such entry. */
export async function readEntryDetails(scope: CollectionScope, slug: string): Promise<ArticleDetails | undefined> {
  const entry = scope.context.store.get(slug);
  if (entry === undefined) return undefined;
  const spec = passSpecs.get(scope)?.get(slug);
  const findings = (await findingsBook(scope)).get(slug, ownDigest(entry.digest)) ?? [];
  const details: ArticleDetails = { slug, findings: [...findings], request: spec === undefined ? null : entryConfig(spec.request), headings: [], images: [], links: [] };
  // A placeholder (dev) has no processed article yet.
  if ((entry.data as { status?: unknown }).status !== 'finished') return details;
  const store = new ProcessedStore(scope.paths().cacheDir);
  const latest = await store.latest(slug);
  const record = latest === undefined ? undefined : parseRecord(latest.value);
  if (record === undefined) {
    throw new ArticleLoaderError(
      'details_unavailable',
      `articleDetails(): the processed record of "${slug}" (${store.file(slug)}) is missing or damaged; run the build again, which processes the article and writes it`,
    );
  }
  const { headings, images, links } = record.article;
  return { ...details, headings, images, links };
}
