// Metadata plugin: images and links lists, word count, reading time, excerpt and FAQ of the finished body.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { countWords } from '../contract/word-count.js';
import { articleData, type ArticleImage, type ArticleLink } from './article-data.js';
import { excerptOf } from './excerpt.js';
import { faqOf } from './faq.js';
import { linkSourceOf, originalSrcOf } from './node-marks.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { positiveNumberSchema } from './option-rules.js';
import { plainText, rawText } from './plain-text.js';
import { readingMinutes } from './reading-time.js';
import { isInternalHref, siteOrigins, siteSchema, type SiteOption } from './url-policy.js';

/** Reading speeds and excerpt length when not given. */
export const DEFAULT_WORDS_PER_MINUTE = 200;
export const DEFAULT_CJK_CHARACTERS_PER_MINUTE = 500;
export const DEFAULT_EXCERPT_LENGTH = 160;

// A paragraph inside these is not the article's opening paragraph.
const NOT_OPENING = new Set(['figure', 'blockquote', 'table', 'li', 'aside', 'details', 'dl']);
// Shorter paragraphs are bylines, dates, captions or labels ("Updated March 2025", "Contents"), not prose.
const OPENING_MIN_WORDS = 12;


export interface MetadataOptions {
  /** The site's origin(s): links to them are flagged `internal`. Relative links always are. Default: none. */
  site?: SiteOption;
  /** Reading speed for words in space-separated scripts. Default 200. */
  wordsPerMinute?: number;
  /** Reading speed for Chinese/Japanese characters, counted one by one. Default 500. */
  cjkCharactersPerMinute?: number;
  /** Longest excerpt, in characters, ellipsis included. Default 160. */
  excerptLength?: number;
}

const optionsSchema = optionsObject({
  site: siteSchema.optional(),
  wordsPerMinute: positiveNumberSchema.optional(),
  cjkCharactersPerMinute: positiveNumberSchema.optional(),
  excerptLength: positiveNumberSchema.optional(),
});

/**
 * Describe the finished body on `file.data.article`: `images`, `links` (with where each came from),
 * `wordCount`, `readingTime` and `excerpt`. Run it after every plugin that changes the body.
 */
export const rehypeArticleMetadata: Plugin<[(MetadataOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleMetadata'));
  const internalOrigins = siteOrigins(options?.site);
  const wordsPerMinute = options?.wordsPerMinute ?? DEFAULT_WORDS_PER_MINUTE;
  const cjkCharactersPerMinute = options?.cjkCharactersPerMinute ?? DEFAULT_CJK_CHARACTERS_PER_MINUTE;
  const excerptLength = options?.excerptLength ?? DEFAULT_EXCERPT_LENGTH;
  return (tree, file) => {
    const found: Found = { images: [], links: [] };
    collect(tree, internalOrigins, found, false);

    const text = rawText(tree);
    const count = countWords(text);
    const data = articleData(file);
    data.images = found.images;
    data.links = found.links;
    data.wordCount = count.total;
    data.readingTime = readingMinutes(count, wordsPerMinute, cjkCharactersPerMinute);
    data.excerpt = excerptOf(found.prose ?? found.first ?? text, excerptLength);
    data.faq = faqOf(tree);
  };
};

/** The images and links, the first paragraph that reads like prose, and the first non-empty one as a fallback. */
interface Found {
  images: ArticleImage[];
  links: ArticleLink[];
  prose?: string;
  first?: string;
}

function collect(parent: Parents, internalOrigins: ReadonlySet<string>, found: Found, nested: boolean): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') {
      found.images.push(image(child));
    } else if (child.tagName === 'a' && typeof child.properties.href === 'string') {
      found.links.push(link(child, internalOrigins));
    } else if (child.tagName === 'p' && !nested && found.prose === undefined) {
      const text = rawText(child);
      if (text.trim() !== '') found.first ??= text;
      if (countWords(text).total >= OPENING_MIN_WORDS) found.prose = text;
    }
    collect(child, internalOrigins, found, nested || NOT_OPENING.has(child.tagName));
  }
}

function image(node: Element): ArticleImage {
  const { src, alt, width, height } = node.properties;
  const result: ArticleImage = { src: String(src), alt: String(alt ?? '') };
  const w = Number(width);
  const h = Number(height);
  if (width !== undefined && Number.isFinite(w)) result.width = w;
  if (height !== undefined && Number.isFinite(h)) result.height = h;
  const original = originalSrcOf(node);
  if (original !== undefined) result.originalSrc = original;
  return result;
}

function link(node: Element, internalOrigins: ReadonlySet<string>): ArticleLink {
  const href = node.properties.href as string;
  return {
    href,
    text: plainText(node),
    internal: isInternalHref(href, internalOrigins),
    source: linkSourceOf(node) ?? 'article',
  };
}
