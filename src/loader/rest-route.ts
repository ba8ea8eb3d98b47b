// Ids with folders need a rest route: the page files that read a collection, looked at before Astro renders them, so the build names the page Astro would stop on (`Missing parameter: slug`) and the fix.
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { escapeRegExp } from '../lang/escape.js';

/** Files Astro builds routes from that can have `getStaticPaths` (a Markdown page has no parameters to fill). */
const ROUTE_FILE = /\.(astro|[cm]?[jt]s)$/;

/** What the build says about the pages of a collection whose ids have folders. */
export type RestRouteAdvice =
  /** A page reading the collection has a one-segment parameter and none that takes the rest: Astro stops on it. */
  | { kind: 'one-segment'; file: string; param: string }
  /** No page file names the collection in a `getCollection` call the loader can see: the owner may not know. */
  | { kind: 'no-page-found' };

/** `params: { slug: entry.id }`: a page that puts an entry's whole id in a parameter (named here), not a part of it, a tag or a page number. */
const ID_IN_PARAMS = /params\s*:\s*\{[^}]*?\b(\w+)\s*:\s*[\w.?]*\.id\s*[,}]/;

/**
 * The advice for a collection with these ids, or undefined when it needs none: no id has a folder, or no page that puts the
 * collection's ids in one-segment parameters and some page reading it takes the rest of the path (`[...slug]`). `pagesDir` is
 * Astro's `src/pages`; `file` is the page's path.
 */
export async function restRouteAdvice(ids: readonly string[], collection: string, pagesDir: string): Promise<RestRouteAdvice | undefined> {
  if (!ids.some((id) => id.includes('/'))) return undefined;
  const reads = new RegExp(`getCollection\\s*\\(\\s*(['"\`])${escapeRegExp(collection)}\\1`);
  let restPage = false;
  for (const file of await routeFiles(pagesDir)) {
    const params = [...file.matchAll(/\[(\.\.\.)?([^\]/\\]+)\]/g)].map(([, rest, name]) => ({ rest: rest !== undefined, name: name! }));
    const text = await readFile(join(pagesDir, file), 'utf8').catch(() => '');
    if (!reads.test(text)) continue;
    const named = ID_IN_PARAMS.exec(text)?.[1];
    if (params.some((param) => param.rest)) restPage = true;
    else if (named !== undefined) return { kind: 'one-segment', file: join(pagesDir, file), param: params.some((param) => param.name === named) ? named : params.at(-1)!.name };
  }
  return restPage ? undefined : { kind: 'no-page-found' };
}

/** The route files under `pagesDir` (relative, `/`-separated), none when it does not exist. */
async function routeFiles(pagesDir: string): Promise<string[]> {
  const names = await readdir(pagesDir, { recursive: true }).catch(() => [] as string[]);
  return names.map((name) => name.split(sep).join('/')).filter((name) => ROUTE_FILE.test(name) && name.includes('[')).sort();
}
