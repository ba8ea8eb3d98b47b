// The processor: the plugins in order, with one article's options, and processArticle, the pipeline's entry point.

import type { Root } from 'hast';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import type { ArticleHeading, ArticleImage, ArticleLink } from './article-data.js';
import type { FaqItem } from './faq.js';
import { resolveSettings, type ArticleContext, type ArticleSettings } from './pipeline-options.js';
import { PipelineOptionError } from './errors.js';
import { alreadyChecked } from './option-check.js';
import { rehypeArticleAstroImages } from './astro-images.js';
import { rehypeArticleExternalLinks } from './external-links.js';
import { rehypeArticleFinalSanitize } from './final-sanitize.js';
import { rehypeArticleHeadings } from './headings.js';
import { rehypeArticleImageDownload } from './image-download.js';
import { rehypeArticleImages } from './images.js';
import { DEFAULT_MAX_LINKS, rehypeArticleInternalLinks } from './internal-links.js';
import { rehypeArticleMetadata } from './metadata.js';
import { rehypeArticleParse } from './parse.js';
import { rehypeArticleSanitize } from './sanitize.js';
import { fetchServiceLinkSuggestions, type ServiceLinkSuggestions } from './service-links.js';

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
  /** The question/answer pairs of the article's FAQ section (plain text); empty when it has none. */
  faq: FaqItem[];
  /** Import paths of the images handed to astro:assets (`context.astroImages`), for the entry's `assetImports`; else empty. */
  imageImports: string[];
  /** Things the site owner should know that did not stop the article: failed downloads, skipped service links. */
  warnings: string[];
}

/**
 * The plugins in order, each with its part of one article's settings. Building it is cheap next to
 * running it: the costly parts (link map matcher, embed policy, sanitize schemas) are memoised.
 */
function articleProcessor(settings: ArticleSettings, serviceSuggestions: Promise<ServiceLinkSuggestions> | undefined) {
  const internalLinks = serviceSuggestions ? alreadyChecked({ ...settings.internalLinks, serviceSuggestions }) : settings.internalLinks;
  return unified()
    .use(rehypeArticleParse)
    .use(rehypeArticleSanitize, settings.sanitize)
    .use(rehypeArticleHeadings, settings.headings)
    .use(rehypeArticleImages, settings.images)
    .use(settings.imageDownload ? [[rehypeArticleImageDownload, settings.imageDownload]] : [])
    .use(rehypeArticleInternalLinks, internalLinks)
    .use(rehypeArticleExternalLinks, settings.externalLinks)
    .use(rehypeArticleMetadata, settings.metadata)
    .use(rehypeArticleFinalSanitize, settings.finalSanitize)
    .use(settings.astroImages ? [[rehypeArticleAstroImages, settings.astroImages]] : [])
    .use(keepFinalTree)
    .use(rehypeStringify);
}

/**
 * Turn untrusted article HTML (a fragment or a full document) into safe, structured, internally
 * linked HTML plus the metadata a page needs. Throws PipelineOptionError for a bad context and,
 * with `serviceLinks.onError: 'fail'`, InternalLinksError.
 */
export async function processArticle(html: string, context: ArticleContext): Promise<ProcessedArticle> {
  return (await processArticleTree(html, context)).article;
}

/** The final tree, kept on the file before it is written out as HTML. */
const FINAL_TREE = new WeakMap<object, Root>();

function keepFinalTree() {
  return (tree: Root, file: object): void => {
    FINAL_TREE.set(file, tree);
  };
}

/**
 * `processArticle`, and the final hast tree its HTML was written from: the loader's quality checks
 * read the article from it instead of parsing the HTML once more (a parse was half their cost).
 */
export async function processArticleTree(html: string, context: ArticleContext): Promise<{ article: ProcessedArticle; tree: Root }> {
  const settings = resolveSettings(context);
  if (typeof html !== 'string') {
    throw new PipelineOptionError(`processArticle needs the article HTML as a string${settings.slug ? ` (article "${settings.slug}")` : ''}.`);
  }
  // Started before parsing so the request overlaps the work; the raw HTML is the content, so the
  // cache key depends on the article alone, not on the site's other articles or this code.
  const { serviceLinks, maxLinks } = settings.internalLinks;
  const serviceSuggestions = serviceLinks && (maxLinks ?? DEFAULT_MAX_LINKS) > 0 ? fetchServiceLinkSuggestions(html, serviceLinks) : undefined;
  const file = await articleProcessor(settings, serviceSuggestions).process(html);
  const data = file.data.article ?? {};
  const article: ProcessedArticle = {
    // Unwrapped chrome (a document's <article>, <header>…) leaves blank lines at the ends.
    html: String(file.value).trim(),
    title: data.title ?? settings.keyword,
    headings: data.headings ?? [],
    images: data.images ?? [],
    links: data.links ?? [],
    wordCount: data.wordCount ?? 0,
    readingTime: data.readingTime ?? 0,
    excerpt: data.excerpt ?? '',
    faq: data.faq ?? [],
    imageImports: data.imageImports ?? [],
    warnings: file.messages.map((message) => message.reason),
  };
  return { article, tree: FINAL_TREE.get(file)! };
}
