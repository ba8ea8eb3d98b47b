// Parse plugin: article HTML (a fragment or a full document) to hast, without source positions.

import type { Element, Root, RootContent } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { parse, parseFragment } from 'parse5';
import type { Plugin } from 'unified';
import { articleData } from './article-data.js';

// A full document starts (after a BOM, whitespace and comments) with a doctype, <html>, <head> or <body>.
const FULL_DOCUMENT = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype|html|head|body)[\s>/]/i;

/**
 * Parse article HTML into a hast root holding the body's content.
 *
 * Stock `rehype-parse` records source positions for every node, which this pipeline never reads and
 * which cost about half the parse time; `hast-util-from-parse5` without a file records none.
 * A full document is parsed as one, so that `<head>` content cannot leak into the body; its
 * content is the body's single `<main>` or `<article>` when it has exactly one, else the body;
 * its `<title>` text is returned for the title fallback.
 */
export function parseArticleHtml(input: string): { tree: Root; documentTitle: string | undefined } {
  // A browser drops the byte order mark while decoding; parse5 would take it for body text.
  const html = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!FULL_DOCUMENT.test(html)) {
    return { tree: fromParse5(parseFragment(html)) as Root, documentTitle: undefined };
  }
  const documentTree = fromParse5(parse(html)) as Root;
  const htmlElement = documentTree.children.find(isElement('html'));
  const head = htmlElement?.children.find(isElement('head'));
  const body = htmlElement?.children.find(isElement('body'));
  const titleElement = head?.children.find(isElement('title'));
  const documentTitle = titleElement ? textOf(titleElement).replace(/\s+/g, ' ').trim() || undefined : undefined;
  const content = body ? (only(body, 'main') ?? only(body, 'article') ?? body) : undefined;
  return { tree: { type: 'root', children: (content?.children ?? []) as RootContent[] }, documentTitle };
}

/**
 * The one `<main>` (or `<article>`) of a page, if there is exactly one: a full document wraps the
 * article in site chrome (header, navigation, footer, forms) that is not the article's content.
 */
function only(body: Element, tagName: string): Element | undefined {
  const found: Element[] = [];
  const visit = (parent: Element): void => {
    for (const child of parent.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === tagName) found.push(child);
      else visit(child);
    }
  };
  visit(body);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * unified parser plugin: `processor.use(rehypeArticleParse)` instead of `rehype-parse`. No options.
 * A full document's `<title>` goes to `file.data.article.documentTitle`.
 */
export const rehypeArticleParse: Plugin<[], string, Root> = function () {
  this.parser = (document, file) => {
    const { tree, documentTitle } = parseArticleHtml(document);
    if (documentTitle) articleData(file).documentTitle = documentTitle;
    return tree;
  };
};

function isElement(tagName: string) {
  return (node: { type: string }): node is Element => node.type === 'element' && (node as Element).tagName === tagName;
}

function textOf(element: Element): string {
  let text = '';
  for (const child of element.children) if (child.type === 'text') text += child.value;
  return text;
}
