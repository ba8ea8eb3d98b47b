// Metadata plugin: images and links lists, word count, reading time and excerpt of the finished body.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { runOf, type ArticleImage, type ArticleLink, type ArticleRun } from './article-run.js';
import { excerptOf } from './excerpt.js';
import { isInternalHref } from './url-policy.js';
import { countWords } from '../spec/word-count.js';
import { readingMinutes } from './reading-time.js';
import { plainText, rawText } from './plain-text.js';

// A paragraph inside these is not the article's opening paragraph.
const NOT_OPENING = new Set(['figure', 'blockquote', 'table', 'li', 'aside', 'details', 'dl']);
// Shorter paragraphs are bylines, dates, captions or labels ("Updated March 2025", "Contents"), not prose.
const OPENING_MIN_WORDS = 12;

export const rehypeArticleMetadata: Plugin<[], Root> = function () {
  return (tree, file) => {
    const run = runOf(file);
    const { settings } = run;
    const found: Opening = {};
    collect(tree, run, found, false);

    const text = rawText(tree);
    const count = countWords(text);
    run.wordCount = count.total;
    run.readingTime = readingMinutes(count, settings.wordsPerMinute, settings.cjkCharactersPerMinute);
    run.excerpt = excerptOf(found.prose ?? found.first ?? text, settings.excerptLength);
  };
};

/** The first paragraph that reads like prose, and the first non-empty one as a fallback. */
interface Opening {
  prose?: string;
  first?: string;
}

function collect(parent: Parents, run: ArticleRun, found: Opening, nested: boolean): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') {
      run.images.push(image(child, run));
    } else if (child.tagName === 'a' && typeof child.properties.href === 'string') {
      run.links.push(link(child, run));
    } else if (child.tagName === 'p' && !nested && found.prose === undefined) {
      const text = rawText(child);
      if (text.trim() !== '') found.first ??= text;
      if (countWords(text).total >= OPENING_MIN_WORDS) found.prose = text;
    }
    collect(child, run, found, nested || NOT_OPENING.has(child.tagName));
  }
}

function image(node: Element, run: ArticleRun): ArticleImage {
  const { src, alt, width, height } = node.properties;
  const result: ArticleImage = { src: String(src), alt: String(alt ?? '') };
  const w = Number(width);
  const h = Number(height);
  if (width !== undefined && Number.isFinite(w)) result.width = w;
  if (height !== undefined && Number.isFinite(h)) result.height = h;
  const original = run.downloadedFrom.get(node);
  if (original !== undefined) result.originalSrc = original;
  return result;
}

function link(node: Element, run: ArticleRun): ArticleLink {
  const href = node.properties.href as string;
  return {
    href,
    text: plainText(node),
    internal: isInternalHref(href, run.settings.internalOrigins),
    source: run.insertedLinks.get(node) ?? 'article',
  };
}
