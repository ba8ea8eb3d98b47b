// What every check is given: the article as asked for and as written, read once, and the resolved settings.
import type { Root } from 'hast';
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ArticleReading } from './article-reading.js';
import type { Observation } from './finding.js';
import type { QualityOptions } from './quality-options.js';

/** The collection around the article, for `broken_internal_link`. */
export interface CollectionPaths {
  /** The URL path of every article of the collection, e.g. `/blog/best-hiking-boots/`. */
  paths: readonly string[];
  /**
   * The path every article lives under, e.g. `/blog/`. Default: the longest directory the paths
   * share; when that is `/`, links are not judged (every page of the site would look like an article).
   */
  prefix?: string | undefined;
  /** The site's own origins (e.g. `https://example.com`): absolute links to them are internal too. */
  origins?: readonly string[] | undefined;
}

/** One article to check: its final HTML (after the pipeline, hand edits included) and what was asked for. */
export interface ArticleToCheck {
  slug: string;
  /** The article body's final HTML, as the page shows it. */
  html: string;
  /** The title the page shows (the pipeline takes it out of the body). */
  title: string;
  /** The parsed request (defaults applied); its `targetKeyword` is the keyword checked. */
  request: ArticleRequest;
  collection?: CollectionPaths | undefined;
  /**
   * The hast tree `html` was written from, when the caller has it (the loader, straight from the
   * pipeline): read instead of parsing `html` again. It must be the tree of exactly this HTML.
   */
  tree?: Root | undefined;
}

export interface CheckContext {
  article: ArticleToCheck;
  reading: ArticleReading;
  /** Visible words, as the word counter counts them (billing, reading time). */
  words: number;
  options: QualityOptions;
}

/** One check: what it saw, as observations; the settings decide the severity. */
export type Check = (context: CheckContext) => Observation[];

/** Findings of one code beyond this many in one article are summed up in the last one. */
export const MAX_FINDINGS_PER_CODE = 5;

/**
 * Observations capped at MAX_FINDINGS_PER_CODE, the last one saying how many more there were (of `total`, when more
 * were seen than given; `atLeast` when `total` is a lower bound).
 */
export function capped(observations: Observation[], total = observations.length, atLeast = false): Observation[] {
  if (total <= MAX_FINDINGS_PER_CODE) return observations;
  const kept = observations.slice(0, MAX_FINDINGS_PER_CODE);
  const last = kept[kept.length - 1]!;
  kept[kept.length - 1] = { ...last, message: `${last.message} (and ${atLeast ? 'at least ' : ''}${total - MAX_FINDINGS_PER_CODE} more like it)` };
  return kept;
}
