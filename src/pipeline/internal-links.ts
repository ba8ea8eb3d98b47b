// Internal links plugin: link phrases of the text to the site's pages, from the local map and the service.

import type { Element, ElementContent, Parents, Root, Text } from 'hast';
import type { Plugin } from 'unified';
import { runOf, type ArticleRun, type LinkSource } from './article-run.js';
import type { LinkEntry, LinkMap } from './link-map.js';
import { compilePhrases, type PhraseMatcher } from './phrase-matcher.js';
import { internalLinksFailure } from './service-links.js';
import { pageKey } from './url-policy.js';

/** No link is inserted inside these: links, headings, code, captions and controls. */
const BLOCKED = new Set(['a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'code', 'pre', 'kbd', 'samp', 'figcaption', 'summary', 'iframe']);

const compiledMaps = new WeakMap<LinkMap, PhraseMatcher>();

/** The compiled matcher of a link map, compiled on first use and kept as long as the map lives. */
export function matcherFor(map: LinkMap): PhraseMatcher {
  let matcher = compiledMaps.get(map);
  if (!matcher) {
    matcher = compilePhrases(map.entries);
    compiledMaps.set(map, matcher);
  }
  return matcher;
}

export interface LinkSourceMatcher {
  matcher: PhraseMatcher;
  source: LinkSource;
}

export interface InsertLinksOptions {
  /** Matchers in priority order: the longest match at the earliest position wins, an earlier source on a tie. */
  sources: readonly LinkSourceMatcher[];
  maxLinks: number;
  internalOrigins: ReadonlySet<string>;
  /** The article's own slug and URL: never linked. */
  selfSlug?: string | undefined;
  selfUrl?: string | undefined;
  /** Called for every inserted link. */
  onInsert?: (link: Element, source: LinkSource) => void;
}

/**
 * Insert internal links in one pass over the text, in document order:
 * - at each position the longest phrase wins (case-insensitive, Unicode word boundaries);
 * - each phrase is linked once, at its first linkable occurrence, keeping the text's casing (a
 *   phrase has one URL, and no page is linked twice, so this needs no rule of its own);
 * - never inside `a`, headings, `code`, `pre`, `figcaption` (see BLOCKED);
 * - never to the article itself, never to a page the article already links to or was linked to;
 * - at most `maxLinks` insertions.
 * Returns the number of links inserted.
 */
export function insertInternalLinks(tree: Root, options: InsertLinksOptions): number {
  if (options.maxLinks <= 0 || options.sources.length === 0) return 0;
  const { internalOrigins } = options;
  const usedPages = new Set<string>();
  collectLinkedPages(tree, usedPages, internalOrigins);
  const selfPage = options.selfUrl !== undefined ? pageKey(options.selfUrl, internalOrigins) : undefined;

  // A phrase is met again and again (the article's own keyword, a page already linked): key its URL once.
  const pages = new Map<LinkEntry, string>();
  const pageOf = (entry: LinkEntry): string => {
    let page = pages.get(entry);
    if (page === undefined) {
      page = pageKey(entry.url, internalOrigins);
      pages.set(entry, page);
    }
    return page;
  };
  const usable = (entry: LinkEntry): boolean => {
    if (options.selfSlug !== undefined && entry.slug === options.selfSlug) return false;
    const page = pageOf(entry);
    return !usedPages.has(page) && page !== selfPage;
  };

  let inserted = 0;
  const linkText = (node: Text): ElementContent[] | undefined => {
    const text = node.value;
    let position = 0;
    let pieces: ElementContent[] | undefined;
    while (inserted < options.maxLinks) {
      let best: { index: number; end: number; entry: LinkEntry; source: LinkSource } | undefined;
      for (const { matcher, source } of options.sources) {
        const match = matcher.find(text, position, usable);
        if (match && (!best || match.index < best.index || (match.index === best.index && match.end > best.end))) {
          best = { ...match, source };
        }
      }
      if (!best) break;
      pieces ??= [];
      if (best.index > position) pieces.push({ type: 'text', value: text.slice(position, best.index) });
      const link: Element = {
        type: 'element',
        tagName: 'a',
        properties: { href: best.entry.url },
        children: [{ type: 'text', value: text.slice(best.index, best.end) }],
      };
      pieces.push(link);
      usedPages.add(pageOf(best.entry));
      options.onInsert?.(link, best.source);
      inserted++;
      position = best.end;
    }
    if (pieces && position < text.length) pieces.push({ type: 'text', value: text.slice(position) });
    return pieces;
  };

  const walk = (parent: Parents): void => {
    const children = parent.children as ElementContent[];
    let replaced: ElementContent[] | undefined;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      let pieces: ElementContent[] | undefined;
      if (inserted < options.maxLinks) {
        if (child.type === 'text') pieces = linkText(child);
        else if (child.type === 'element' && !BLOCKED.has(child.tagName)) walk(child);
      }
      if (pieces) {
        replaced ??= children.slice(0, index);
        replaced.push(...pieces);
      } else if (replaced) {
        replaced.push(child);
      }
    }
    if (replaced) parent.children = replaced as typeof parent.children;
  };
  walk(tree);
  return inserted;
}

export const rehypeArticleInternalLinks: Plugin<[], Root> = function () {
  return async (tree, file) => {
    const run = runOf(file);
    const { settings } = run;
    const sources: LinkSourceMatcher[] = [];
    if (settings.links && settings.links.entries.length > 0) sources.push({ matcher: matcherFor(settings.links), source: 'local' });
    const service = await serviceSource(run);
    if (service) sources.push(service);
    insertInternalLinks(tree, {
      sources,
      maxLinks: settings.maxLinks,
      internalOrigins: settings.internalOrigins,
      selfSlug: settings.slug,
      selfUrl: settings.url,
      onInsert: (link, source) => run.insertedLinks.set(link, source),
    });
  };
};

async function serviceSource(run: ArticleRun): Promise<LinkSourceMatcher | undefined> {
  if (!run.serviceSuggestions) return undefined;
  const suggestions = await run.serviceSuggestions;
  if (suggestions.error !== undefined) {
    const failure = internalLinksFailure(suggestions.error, run.settings.slug);
    if (run.settings.serviceLinks?.onError === 'fail') throw failure;
    run.warnings.push(`${failure.message} The article has local links only. [${failure.code}]`);
    return undefined;
  }
  if (suggestions.cacheError !== undefined) {
    const reason = suggestions.cacheError instanceof Error ? suggestions.cacheError.message : String(suggestions.cacheError);
    const where = run.settings.slug ? ` of article "${run.settings.slug}"` : '';
    run.warnings.push(`The service's internal links${where} were used but could not be cached (${reason}); the next build pays for them again. Check serviceLinks.cache.`);
  }
  return suggestions.entries.length > 0 ? { matcher: compilePhrases(suggestions.entries), source: 'service' } : undefined;
}

function collectLinkedPages(parent: Parents, pages: Set<string>, internalOrigins: ReadonlySet<string>): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'a') {
      if (typeof child.properties.href === 'string') pages.add(pageKey(child.properties.href, internalOrigins));
    } else {
      collectLinkedPages(child, pages, internalOrigins);
    }
  }
}
