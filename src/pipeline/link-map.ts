// The local link map: phrase → URL, built from the other articles of the manifest and the user's links.

import { PipelineOptionError } from './errors.js';
import { rule } from './option-check.js';

/** One linkable phrase. `slug` names the article it leads to, when it is one of ours. */
export interface LinkEntry {
  readonly phrase: string;
  readonly url: string;
  readonly slug?: string;
}

/** Phrases to link, in priority order. Build it once per site and pass the same object to every article. */
export interface LinkMap {
  readonly entries: readonly LinkEntry[];
}

/** The rule of a `links` option: a map from `buildLinkMap()` (its entries are checked there). */
export const linkMapSchema = rule<LinkMap>((value) =>
  Array.isArray((value as { entries?: unknown } | null)?.entries) ? undefined : 'must be a link map from buildLinkMap()',
);

export interface LinkableArticle {
  slug: string;
  keyword: string;
  title?: string | undefined;
}

export interface BuildLinkMapOptions {
  /** The articles of the manifest: each one's keyword and title link to `url(slug)`. */
  articles?: readonly LinkableArticle[];
  /** The URL of an article from its slug, e.g. `(slug) => '/articles/' + slug + '/'`. Required with `articles`. */
  url?: (slug: string) => string;
  /** The user's own phrases: `{ 'espresso': '/guides/espresso/' }` or `[{ phrase, url }]`. They win over article phrases. */
  links?: Readonly<Record<string, string>> | readonly { phrase: string; url: string }[];
  /**
   * The slug of the article this map is for: its phrases, and user phrases pointing at its URL,
   * are left out. Optional: `processArticle` also skips links to its own `slug` and `url`, so one
   * map can serve every article.
   */
  exclude?: string;
}

/** Phrases shorter than this (after trimming) are ignored: they would match everywhere. */
export const MIN_PHRASE_LENGTH = 2;

/**
 * Build the phrase → URL map. Priority when two phrases are the same (case-insensitively): the
 * user's links, then article keywords, then article titles, each in the order given.
 */
export function buildLinkMap(options: BuildLinkMapOptions): LinkMap {
  const { articles = [], url, links, exclude } = options;
  if (articles.length > 0 && typeof url !== 'function') {
    throw new PipelineOptionError('buildLinkMap needs `url(slug)` to link to articles: pass e.g. `url: (slug) => "/articles/" + slug + "/"`.');
  }
  const excludedUrl = exclude !== undefined && url ? samePageKey(url(exclude)) : undefined;
  const seen = new Set<string>();
  const entries: LinkEntry[] = [];
  const add = (phrase: unknown, target: unknown, slug: string | undefined, where: string) => {
    if (typeof phrase !== 'string' || typeof target !== 'string' || target.trim() === '') {
      throw new PipelineOptionError(`buildLinkMap: ${where} needs a phrase and a URL (strings).`);
    }
    const clean = phrase.replace(/\s+/g, ' ').trim();
    const key = clean.toLowerCase();
    if (clean.length < MIN_PHRASE_LENGTH || seen.has(key)) return;
    if (slug !== undefined && slug === exclude) return;
    if (excludedUrl !== undefined && samePageKey(target) === excludedUrl) return;
    seen.add(key);
    entries.push(slug === undefined ? { phrase: clean, url: target.trim() } : { phrase: clean, url: target.trim(), slug });
  };

  const userLinks = links === undefined ? [] : Array.isArray(links) ? links : Object.entries(links).map(([phrase, target]) => ({ phrase, url: target }));
  userLinks.forEach((link, index) => add(link?.phrase, link?.url, undefined, `links[${index}]`));
  for (const article of articles) add(article.keyword, url!(article.slug), article.slug, `the keyword of article "${article.slug}"`);
  for (const article of articles) {
    if (article.title !== undefined) add(article.title, url!(article.slug), article.slug, `the title of article "${article.slug}"`);
  }
  return Object.freeze({ entries: Object.freeze(entries) });
}

function samePageKey(url: string): string {
  return url.trim().replace(/#.*$/, '').replace(/(.)\/+$/, '$1');
}
