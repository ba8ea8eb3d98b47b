// The processor: the plugins in order, and processArticle, the pipeline's entry point.

import type { Root } from 'hast';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { createRun, runData, type ArticleHeading, type ArticleImage, type ArticleLink } from './article-run.js';
import { resolveSettings, type ArticleContext } from './context.js';
import { PipelineOptionError } from './errors.js';
import { rehypeArticleExternalLinks } from './external-links.js';
import { rehypeArticleFinalSanitize } from './final-sanitize.js';
import { rehypeArticleHeadings } from './headings.js';
import { rehypeArticleImages } from './images.js';
import { rehypeArticleInternalLinks } from './internal-links.js';
import { rehypeArticleMetadata } from './metadata.js';
import { rehypeArticleParse } from './parse.js';
import { rehypeArticleSanitize } from './sanitize.js';
import { fetchServiceLinkSuggestions } from './service-links.js';

/** What `processArticle` returns. */
export interface ProcessedArticle {
  /** The article body: sanitized, without the title, with heading ids and links. */
  html: string;
  /** The first `<h1>`, else the document's `<title>`, else `context.title`, else the keyword. */
  title: string;
  /** The body's headings, for a table of contents (Astro's `MarkdownHeading` shape). */
  headings: ArticleHeading[];
  images: ArticleImage[];
  links: ArticleLink[];
  /** Words, with each Chinese/Japanese character counted as one (see `countWords`). */
  wordCount: number;
  /** Minutes, rounded up. */
  readingTime: number;
  /** Plain text of about `excerptLength` characters from the first paragraph, for a description. */
  excerpt: string;
  /** Things the site owner should know that did not stop the article: failed downloads, skipped service links. */
  warnings: string[];
}

/** The plugins in order. The processor is built once; per-article settings travel with each file. */
const processor = unified()
  .use(rehypeArticleParse)
  .use(rehypeArticleSanitize)
  .use(rehypeArticleHeadings)
  .use(rehypeArticleImages)
  .use(rehypeArticleInternalLinks)
  .use(rehypeArticleExternalLinks)
  .use(rehypeArticleMetadata)
  .use(rehypeArticleFinalSanitize)
  .use(rehypeStringify)
  .freeze();

/**
 * Turn untrusted article HTML (a fragment or a full document) into safe, structured, internally
 * linked HTML plus the metadata a page needs. Throws PipelineOptionError for a bad context and,
 * with `serviceLinks.onError: 'fail'`, InternalLinksError.
 */
export async function processArticle(html: string, context: ArticleContext): Promise<ProcessedArticle> {
  const settings = resolveSettings(context);
  if (typeof html !== 'string') {
    throw new PipelineOptionError(`processArticle needs the article HTML as a string${settings.slug ? ` (article "${settings.slug}")` : ''}.`);
  }
  const run = createRun(settings);
  // Started before parsing so the request overlaps the work; the raw HTML is the content, so the
  // cache key depends on the article alone, not on the site's other articles or this code.
  if (settings.serviceLinks && settings.maxLinks > 0) {
    run.serviceSuggestions = fetchServiceLinkSuggestions(html, settings.serviceLinks);
  }
  const file = await processor.process({ value: html, data: runData(run) });
  return {
    // Unwrapped chrome (a document's <article>, <header>…) leaves blank lines at the ends.
    html: String(file.value).trim(),
    title: run.title ?? settings.keyword,
    headings: run.headings,
    images: run.images,
    links: run.links,
    wordCount: run.wordCount,
    readingTime: run.readingTime,
    excerpt: run.excerpt,
    warnings: run.warnings,
  };
}

