// broken_internal_link: a link into the collection's path that is no article of the collection.
import { quote, where } from './article-reading.js';
import type { Check, CollectionPaths } from './check-context.js';
import { capped } from './check-context.js';
import type { Observation } from './finding.js';

const SELF = 'http://article.invalid';
/** A file, not a page: "/blog/feed.xml", "/blog/cover.png". */
const FILE_PATH = /\/[^/]+\.[a-z0-9]{1,5}$/i;

/** "/blog/a/" and "/blog/a" are one page; percent-encoding is read. */
function pageKey(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // Not valid percent-encoding: compare it as it is.
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The longest directory every path shares: "/blog/a/" and "/blog/b/" → "/blog/". */
export function sharedPrefix(paths: readonly string[]): string {
  if (paths.length === 0) return '/';
  let prefix = paths[0]!;
  for (const path of paths) {
    let i = 0;
    while (i < prefix.length && i < path.length && prefix[i] === path[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix.slice(0, prefix.lastIndexOf('/') + 1) || '/';
}

interface PathIndex {
  prefix: string;
  pages: Set<string>;
  origins: Set<string>;
}

const indexes = new WeakMap<CollectionPaths, PathIndex>();

/** Built once per collection object, however many of its articles are checked. */
function indexOf(collection: CollectionPaths): PathIndex {
  let index = indexes.get(collection);
  if (index === undefined) {
    const origins = new Set((collection.origins ?? []).flatMap((origin) => (URL.canParse(origin) ? [new URL(origin).origin] : [])));
    index = { prefix: collection.prefix ?? sharedPrefix(collection.paths), pages: new Set(collection.paths.map(pageKey)), origins };
    indexes.set(collection, index);
  }
  return index;
}

/** The page key of an internal link, or undefined for an external one, a fragment or a file. */
function internalPage(href: string, origins: ReadonlySet<string>): string | undefined {
  if (href.startsWith('#') || !URL.canParse(href, SELF)) return undefined;
  const url = new URL(href, SELF);
  if (url.origin !== SELF && !origins.has(url.origin)) return undefined;
  if (FILE_PATH.test(url.pathname)) return undefined;
  return pageKey(url.pathname);
}

export const internalLinkCheck: Check = ({ article, reading }) => {
  const { collection } = article;
  if (collection === undefined) return [];
  const { prefix, pages, origins } = indexOf(collection);
  // With no shared directory every page of the site would look like an article: nothing to judge.
  if (prefix === '/' && collection.prefix === undefined) return [];
  const found: Observation[] = [];
  for (const link of reading.links) {
    const page = internalPage(link.href, origins);
    if (page === undefined || !`${page}/`.startsWith(prefix) || `${page}/` === prefix || pages.has(page)) continue;
    found.push({
      code: 'broken_internal_link',
      message: `the link ${quote(link.text, 40)} ${where(link.under)} goes to "${link.href}", which is no article of this collection; edit the link, or add the article to the manifest`,
    });
  }
  return capped(found);
};
