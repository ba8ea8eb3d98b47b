// Test harness: the entries of a collection as Astro stored them (node_modules/.astro/data-store.json, devalue's format), read as a page never does.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'devalue';

/** What the data store keeps of one entry. */
export interface StoredEntry {
  id: string;
  data: Record<string, unknown>;
  digest?: string;
  rendered?: { html: string; metadata?: Record<string, unknown> };
}

/** The entries of `collection` in the site's data store, by id. */
export async function storedEntries(root: string, collection = 'articles'): Promise<Map<string, StoredEntry>> {
  const store = parse(await readFile(join(root, 'node_modules/.astro/data-store.json'), 'utf8')) as Map<string, Map<string, StoredEntry>>;
  return store.get(collection) ?? new Map();
}
