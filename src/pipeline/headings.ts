// Headings plugin: the title out of the body, a clean outline starting at h2, stable unique ids.

import type { Element, Parents, Root } from 'hast';
import GithubSlugger, { slug as slugOf } from 'github-slugger';
import type { Plugin } from 'unified';
import { runOf, type ArticleHeading } from './article-run.js';
import { plainText } from './plain-text.js';

const HEADING = /^h([1-6])$/;

/**
 * - The first non-empty `<h1>` (usually the leading one) is the title and leaves the body: the page
 *   template renders the title.
 * - Empty headings (no text) are removed.
 * - Levels are renumbered as an outline: the first heading and any heading at or above the body's
 *   top level become `<h2>`; a heading one source level deeper than its parent becomes one level
 *   deeper, and a skipped level is closed (h2 → h4 becomes h2 → h3). Nothing goes past `<h6>`.
 * - Each heading gets `id` = prefix + a github-slugger slug of its text, unique in the article.
 *   The article's `#fragment` links to a heading's input id are pointed at its new id.
 */
export function normalizeHeadings(
  tree: Root,
  options: { idPrefix: string },
): { title: string | undefined; headings: ArticleHeading[] } {
  const found: { node: Element; parent: Parents; level: number }[] = [];
  collect(tree, found);

  const removed = new Set<Element>();
  const parents = new Set<Parents>();
  let title: string | undefined;
  const slugger = new GithubSlugger();
  const headings: ArticleHeading[] = [];
  // The outline: source level and output level of each open ancestor heading.
  const stack: { source: number; output: number }[] = [];

  // Input heading id → our id, for the article's own `#fragment` links (a table of contents).
  const renamed = new Map<string, string>();

  for (const { node, parent, level } of found) {
    const inputId = (node.data as { inputId?: string } | undefined)?.inputId;
    if (inputId !== undefined) delete node.data;
    const text = plainText(node);
    if (text === '' || (title === undefined && level === 1)) {
      if (text !== '') title = text;
      removed.add(node);
      parents.add(parent);
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.source >= level) stack.pop();
    const output = Math.min(stack.length === 0 ? 2 : stack[stack.length - 1]!.output + 1, 6);
    stack.push({ source: level, output });

    const id = options.idPrefix + slugger.slug(slugOf(text) === '' ? 'section' : text);
    node.tagName = `h${output}`;
    node.properties = { ...node.properties, id };
    headings.push({ depth: output, slug: id, text });
    if (inputId !== undefined && !renamed.has(inputId)) renamed.set(inputId, id);
  }

  for (const parent of parents) {
    parent.children = parent.children.filter((child) => !removed.has(child as Element)) as typeof parent.children;
  }
  if (renamed.size > 0) retargetFragmentLinks(tree, renamed);
  return { title, headings };
}

export const rehypeArticleHeadings: Plugin<[], Root> = function () {
  return (tree, file) => {
    const run = runOf(file);
    const { title, headings } = normalizeHeadings(tree, { idPrefix: run.settings.headingIdPrefix });
    run.title = title ?? run.documentTitle ?? run.settings.title ?? run.settings.keyword;
    run.headings = headings;
  };
};

function retargetFragmentLinks(parent: Parents, renamed: ReadonlyMap<string, string>): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    const href = child.properties.href;
    if (child.tagName === 'a' && typeof href === 'string' && href.startsWith('#')) {
      let fragment = href.slice(1);
      try {
        fragment = decodeURIComponent(fragment);
      } catch {
        // Not percent-encoded text: compare it as it is.
      }
      const id = renamed.get(fragment);
      if (id !== undefined) child.properties.href = '#' + id;
    }
    retargetFragmentLinks(child, renamed);
  }
}

function collect(parent: Parents, found: { node: Element; parent: Parents; level: number }[]): void {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    const match = HEADING.exec(child.tagName);
    if (match) found.push({ node: child, parent, level: Number(match[1]) });
    else collect(child, found);
  }
}
