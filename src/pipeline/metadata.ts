// Metadata plugin: images and links lists, word count, reading time and excerpt of the finished body.

import type { Element, Parents, Root } from 'hast';
import type { Plugin } from 'unified';
import { runOf, type ArticleImage, type ArticleLink, type ArticleRun } from './article-run.js';
import { excerptOf } from './excerpt.js';
import { isInternalHref } from './url-policy.js';
import { countWords, readingMinutes } from './word-count.js';
import { plainText, rawText } from './plain-text.js';

// A paragraph inside these is not the article's opening paragraph.
const NOT_OPENING = new Set(['figure', 'blockquote', 'table', 'li', 'aside', 'details', 'dl']);

export const rehypeArticleMetadata: Plugin<[], Root> = function () {
  return (tree, file) => {
    const run = runOf(file);
    const { settings } = run;
    const found: { opening?: Element } = {};
    collect(tree, run, found, false);

    const text = rawText(tree);
    const count = countWords(text);
    run.wordCount = count.total;
    run.readingTime = readingMinutes(count, settings.wordsPerMinute, settings.cjkCharactersPerMinute);
    run.excerpt = excerptOf(found.opening ? rawText(found.opening) : text, settings.excerptLength);
  };
};

function collect(parent: Parents, run: ArticleRun, found: { opening?: Element }, nested: boolean): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'img') {
      run.images.push(image(child, run));
    } else if (child.tagName === 'a' && typeof child.properties.href === 'string') {
      run.links.push(link(child, run));
    } else if (child.tagName === 'p' && !nested && found.opening === undefined && rawText(child).trim() !== '') {
      found.opening = child;
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
