// What the plugins find out about an article, on `file.data.article`: the title, headings, images, links and counts.

import type { VFile } from 'vfile';
import type { FaqItem } from './faq.js';

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

/**
 * The plugins' results, each field set by the plugin named beside it. Warnings (failed downloads,
 * skipped service links) are not here: they are `file.messages`, with `source` {@link WARNING_SOURCE}.
 */
export interface ArticleData {
  /** `<title>` of a full document (`rehypeArticleParse`), the title when there is no `<h1>`. */
  documentTitle?: string;
  /** The first `<h1>`, else the document's `<title>`, else the `title` option (`rehypeArticleHeadings`). */
  title?: string;
  /** The body's headings after renumbering (`rehypeArticleHeadings`). */
  headings?: ArticleHeading[];
  /** Images of the finished body (`rehypeArticleMetadata`). */
  images?: ArticleImage[];
  /** Links of the finished body (`rehypeArticleMetadata`). */
  links?: ArticleLink[];
  /** Words, each Chinese/Japanese character counted as one (`rehypeArticleMetadata`). */
  wordCount?: number;
  /** Minutes, rounded up (`rehypeArticleMetadata`). */
  readingTime?: number;
  /** Plain text from the opening paragraph (`rehypeArticleMetadata`). */
  excerpt?: string;
  /** The question/answer pairs of the FAQ section, as plain text (`rehypeArticleMetadata`). */
  faq?: FaqItem[];
  /** Import paths of the images handed to astro:assets, in order (`rehypeArticleAstroImages`). */
  imageImports?: string[];
}

declare module 'vfile' {
  interface DataMap {
    /** What the article plugins found (see `ArticleData`). */
    article: ArticleData;
  }
}

/** The `source` of the messages the article plugins add to a file. */
export const WARNING_SOURCE = 'astro-article-loader';

/** The file's article data, created on first use. */
export function articleData(file: VFile): ArticleData {
  return (file.data.article ??= {});
}

/** Tell the site owner something that did not stop the article: a non-fatal message on the file. */
export function warn(file: VFile, reason: string, ruleId: string): void {
  file.message(reason, { ruleId, source: WARNING_SOURCE });
}
