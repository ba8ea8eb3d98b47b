// Internal links plugin: link phrases of the text to the site's pages, from the local map and the service.

import type { Element, ElementContent, Parents, Root, Text } from 'hast';
import type { Plugin } from 'unified';
import type { VFile } from 'vfile';
import { z } from 'zod';
import { warn, type LinkSource } from './article-data.js';
import { linkMapSchema, type LinkEntry, type LinkMap } from './link-map.js';
import { markLinkSource } from './node-marks.js';
import { checkOptions, optionsObject, pluginOption, rule } from './option-check.js';
import { compilePhrases, type PhraseMatcher } from './phrase-matcher.js';
import {
  fetchServiceLinkSuggestions,
  internalLinksFailure,
  serviceLinksOptionsSchema,
  type ServiceLinkSuggestions,
} from './service-links.js';
import { maxLinksSchema, type InternalLinksOptions } from './internal-links-options.js';
import { pageKey, siteOrigins, siteSchema } from './url-policy.js';

/** Most internal links per article when `maxLinks` is not given. */
export const DEFAULT_MAX_LINKS = 10;

/** No link is inserted inside these: links, headings, code, captions and controls. */
const BLOCKED = new Set(['a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'code', 'pre', 'kbd', 'samp', 'figcaption', 'summary', 'iframe']);

export { maxLinksSchema, type InternalLinksOptions };

const optionsSchema = optionsObject({
  links: linkMapSchema.optional(),
  maxLinks: maxLinksSchema.optional(),
  site: siteSchema.optional(),
  slug: z.string({ error: 'must be a string' }).optional(),
  url: z.string({ error: 'must be a string' }).optional(),
  serviceLinks: serviceLinksOptionsSchema.optional(),
  serviceSuggestions: rule<Promise<ServiceLinkSuggestions>>((value) => (value instanceof Promise ? undefined : 'must be a promise')).optional(),
});

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
export function insertLinksInTree(tree: Root, options: InsertLinksOptions): number {
  if (options.maxLinks <= 0 || options.sources.length === 0) return 0;
  const insertion = new LinkInsertion(tree, options);
  insertion.walk(tree);
  return insertion.inserted;
}

interface Candidate {
  index: number;
  end: number;
  entry: LinkEntry;
  source: LinkSource;
}

/** One pass of `insertLinksInTree`: the pages already linked, and the links inserted so far. */
class LinkInsertion {
  inserted = 0;
  readonly #options: InsertLinksOptions;
  readonly #usedPages = new Set<string>();
  readonly #selfPage: string | undefined;
  // A phrase is met again and again (the article's own keyword, a page already linked): key its URL once.
  readonly #pages = new Map<LinkEntry, string>();

  constructor(tree: Root, options: InsertLinksOptions) {
    this.#options = options;
    collectLinkedPages(tree, this.#usedPages, options.internalOrigins);
    this.#selfPage = options.selfUrl !== undefined ? pageKey(options.selfUrl, options.internalOrigins) : undefined;
  }

  /** Link the text below `parent`, replacing each linked text node by its pieces. */
  walk(parent: Parents): void {
    const children = parent.children as ElementContent[];
    let replaced: ElementContent[] | undefined;
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      let pieces: ElementContent[] | undefined;
      if (this.inserted < this.#options.maxLinks) {
        if (child.type === 'text') pieces = this.#linkText(child);
        else if (child.type === 'element' && !BLOCKED.has(child.tagName)) this.walk(child);
      }
      if (pieces) {
        replaced ??= children.slice(0, index);
        replaced.push(...pieces);
      } else if (replaced) {
        replaced.push(child);
      }
    }
    if (replaced) parent.children = replaced as typeof parent.children;
  }

  /** The text node as text and links, or undefined when nothing in it is linked. */
  #linkText(node: Text): ElementContent[] | undefined {
    const text = node.value;
    let position = 0;
    let pieces: ElementContent[] | undefined;
    while (this.inserted < this.#options.maxLinks) {
      const best = this.#bestMatch(text, position);
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
      this.#usedPages.add(this.#pageOf(best.entry));
      this.#options.onInsert?.(link, best.source);
      this.inserted++;
      position = best.end;
    }
    if (pieces && position < text.length) pieces.push({ type: 'text', value: text.slice(position) });
    return pieces;
  }

  #bestMatch(text: string, position: number): Candidate | undefined {
    let best: Candidate | undefined;
    for (const { matcher, source } of this.#options.sources) {
      const match = matcher.find(text, position, this.#usable);
      if (match && (!best || match.index < best.index || (match.index === best.index && match.end > best.end))) {
        best = { ...match, source };
      }
    }
    return best;
  }

  readonly #usable = (entry: LinkEntry): boolean => {
    if (this.#options.selfSlug !== undefined && entry.slug === this.#options.selfSlug) return false;
    const page = this.#pageOf(entry);
    return !this.#usedPages.has(page) && page !== this.#selfPage;
  };

  #pageOf(entry: LinkEntry): string {
    let page = this.#pages.get(entry);
    if (page === undefined) {
      page = pageKey(entry.url, this.#options.internalOrigins);
      this.#pages.set(entry, page);
    }
    return page;
  }
}

/** Link phrases of the text to the site's pages (see `insertLinksInTree`), from `links` and the service. */
export const rehypeArticleInternalLinks: Plugin<[(InternalLinksOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleInternalLinks'));
  const links = options?.links;
  const local = links && links.entries.length > 0 ? matcherFor(links) : undefined;
  const maxLinks = options?.maxLinks ?? DEFAULT_MAX_LINKS;
  const internalOrigins = siteOrigins(options?.site, options?.serviceLinks?.siteUrl);
  return async (tree, file) => {
    const sources: LinkSourceMatcher[] = [];
    if (local) sources.push({ matcher: local, source: 'local' });
    const service = maxLinks > 0 ? await serviceSource(file, options ?? {}) : undefined;
    if (service) sources.push(service);
    insertLinksInTree(tree, {
      sources,
      maxLinks,
      internalOrigins,
      selfSlug: options?.slug,
      selfUrl: options?.url,
      onInsert: markLinkSource,
    });
  };
};

/** The service's suggestions as a link source; a failure warns (or, with `onError: 'fail'`, throws). */
async function serviceSource(file: VFile, options: InternalLinksOptions): Promise<LinkSourceMatcher | undefined> {
  const { serviceLinks, slug } = options;
  const pending = options.serviceSuggestions ?? (serviceLinks ? fetchServiceLinkSuggestions(String(file), serviceLinks) : undefined);
  if (!pending) return undefined;
  const suggestions = await pending;
  if (suggestions.error !== undefined) {
    const failure = internalLinksFailure(suggestions.error, slug);
    if (serviceLinks?.onError === 'fail') throw failure;
    warn(file, `${failure.message} The article has local links only. [${failure.code}]`, 'service-links');
    return undefined;
  }
  if (suggestions.cacheError !== undefined) {
    const reason = suggestions.cacheError instanceof Error ? suggestions.cacheError.message : String(suggestions.cacheError);
    const where = slug ? ` of article "${slug}"` : '';
    warn(file, `The service's internal links${where} were used but could not be cached (${reason}); the next build pays for them again. Check serviceLinks.cache.`, 'service-links');
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
