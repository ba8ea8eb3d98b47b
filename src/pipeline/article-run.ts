// One article's pass through the processor: its settings and what each plugin learns on the way.

import type { Element } from 'hast';
import { ArticleLoaderError } from '../errors.js';
import type { ResolvedSettings } from './context.js';
import type { ServiceLinkSuggestions } from './service-links.js';

/** A heading for a table of contents, in Astro's `MarkdownHeading` shape. */
export interface ArticleHeading {
  depth: number;
  slug: string;
  text: string;
}

/** An image of the article, after the pipeline. */
export interface ArticleImage {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  /** The remote URL the image was downloaded from, when `downloadImages` stored it locally. */
  originalSrc?: string;
}

/** Where a link in the output came from. */
export type LinkSource = 'article' | 'local' | 'service';

/** A link of the article, after the pipeline. */
export interface ArticleLink {
  href: string;
  text: string;
  /** Relative, or to one of the site's origins (`site`, `serviceLinks.siteUrl`). */
  internal: boolean;
  /** `article`: written by the service; `local`: inserted from the link map; `service`: from the internal-links endpoint. */
  source: LinkSource;
}

export interface ArticleRun {
  settings: ResolvedSettings;
  /** `<title>` of a full document, used when there is no `<h1>`. */
  documentTitle?: string;
  title?: string;
  headings: ArticleHeading[];
  images: ArticleImage[];
  links: ArticleLink[];
  /** Links this run inserted, so metadata can tell them from the article's own. */
  insertedLinks: Map<Element, LinkSource>;
  /** Remote URL of each image `downloadImages` replaced. */
  downloadedFrom: Map<Element, string>;
  serviceSuggestions?: Promise<ServiceLinkSuggestions>;
  wordCount: number;
  readingTime: number;
  excerpt: string;
  warnings: string[];
}

const KEY = 'articleRun';

export function createRun(settings: ResolvedSettings): ArticleRun {
  return {
    settings,
    headings: [],
    images: [],
    links: [],
    insertedLinks: new Map(),
    downloadedFrom: new Map(),
    wordCount: 0,
    readingTime: 0,
    excerpt: '',
    warnings: [],
  };
}

/** The data record to hand to unified with the file, so every plugin finds the run. */
export function runData(run: ArticleRun): Record<string, unknown> {
  return { [KEY]: run };
}

/** The run of the file being processed; the plugins only work inside `processArticle`. */
export function runOf(file: { data: object }): ArticleRun {
  const run = (file.data as Record<string, unknown>)[KEY] as ArticleRun | undefined;
  if (!run) {
    throw new ArticleLoaderError(
      'pipeline_misuse',
      'The article pipeline plugins run only inside processArticle(), which supplies their settings; call processArticle(html, context).',
    );
  }
  return run;
}
