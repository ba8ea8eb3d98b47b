// Headings plugin: the title out of the body, a clean outline starting at h2, stable unique ids.

import type { Element, Parents, Root } from 'hast';
import GithubSlugger, { slug as slugOf } from 'github-slugger';
import type { Plugin } from 'unified';
import { z } from 'zod';
import { articleData, type ArticleHeading } from './article-data.js';
import { takeInputId } from './node-marks.js';
import { checkOptions, optionsObject, pluginOption } from './option-check.js';
import { headingIdPrefixSchema } from './option-rules.js';
import { plainText } from './plain-text.js';

const HEADING = /^h([1-6])$/;


export interface HeadingsOptions {
  /**
   * Prefix for the generated heading ids. Default `''` (ids are bare slugs, as Astro's Markdown
   * makes them). Set one (e.g. `'h-'`) if your page's scripts read globals that a heading id could shadow.
   */
  idPrefix?: string;
  /** The title when the body has no `<h1>` and the document no `<title>`. Default: none. */
  title?: string;
}

const optionsSchema = optionsObject({
  idPrefix: headingIdPrefixSchema.optional(),
  title: z.string({ error: 'must be a string' }).optional(),
});

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
    const inputId = takeInputId(node);
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

/**
 * Normalize the headings (see `normalizeHeadings`). Sets `file.data.article.title` (the `<h1>`, else
 * the document's `<title>`, else the `title` option) and `file.data.article.headings`.
 */
export const rehypeArticleHeadings: Plugin<[(HeadingsOptions | null | undefined)?], Root> = function (options) {
  checkOptions(optionsSchema, options ?? {}, pluginOption('rehypeArticleHeadings'));
  const idPrefix = options?.idPrefix ?? '';
  const fallbackTitle = options?.title;
  return (tree, file) => {
    const data = articleData(file);
    const { title, headings } = normalizeHeadings(tree, { idPrefix });
    const found = title ?? data.documentTitle ?? fallbackTitle;
    if (found !== undefined) data.title = found;
    data.headings = headings;
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
