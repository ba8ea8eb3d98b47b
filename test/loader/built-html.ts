// Reading a built page: its TOC, the article's headings, links and any executable markup, parsed (not grepped).
import { readFile } from 'node:fs/promises';
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

export interface BuiltPage {
  title: string;
  status: string | undefined;
  /** `href`s of the TOC (`nav.toc`). */
  toc: string[];
  /** ids of headings inside `<article>`. */
  headingIds: string[];
  /** Every `href` inside `<article>`. */
  links: string[];
  /** Script elements, `on*` attributes and `javascript:` URLs inside `<article>`. */
  executable: string[];
  articleHtml: Element | undefined;
  /** Text of the dev server's placeholder (`.article-placeholder`), when the article is not ready. */
  placeholder: string | undefined;
  /** Text of the article's `<h1>`. */
  heading: string | undefined;
  /** Paragraphs inside `<article>`. */
  paragraphs: number;
}

function classes(node: Element): string[] {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function textOf(node: Element | Root): string {
  let text = '';
  visit(node, 'text', (child) => {
    text += child.value;
  });
  return text;
}

export function parsePage(html: string): BuiltPage {
  const tree = unified().use(rehypeParse).parse(html);
  let article: Element | undefined;
  let toc: Element | undefined;
  let title = '';
  let status: string | undefined;
  let placeholder: string | undefined;
  visit(tree, 'element', (node) => {
    if (classes(node).includes('article-placeholder') && placeholder === undefined) placeholder = textOf(node);
    if (node.tagName === 'article' && article === undefined) article = node;
    if (node.tagName === 'nav' && classes(node).includes('toc')) toc = node;
    if (node.tagName === 'title') title = textOf(node);
    if (node.tagName === 'body') status = node.properties.dataStatus === undefined ? undefined : String(node.properties.dataStatus);
  });
  const tocLinks: string[] = [];
  if (toc) visit(toc, 'element', (node) => void (node.tagName === 'a' && tocLinks.push(String(node.properties.href))));
  const headingIds: string[] = [];
  const links: string[] = [];
  const executable: string[] = [];
  let heading: string | undefined;
  let paragraphs = 0;
  if (article) {
    visit(article, 'element', (node) => {
      if (/^h[1-6]$/.test(node.tagName) && node.properties.id !== undefined) headingIds.push(String(node.properties.id));
      if (node.tagName === 'h1' && heading === undefined) heading = textOf(node);
      if (node.tagName === 'p') paragraphs += 1;
      if (node.tagName === 'a' && node.properties.href !== undefined) links.push(String(node.properties.href));
      if (['script', 'object', 'embed'].includes(node.tagName)) executable.push(`<${node.tagName}>`);
      for (const [name, value] of Object.entries(node.properties)) {
        if (/^on/i.test(name)) executable.push(`${node.tagName}[${name}]`);
        if (typeof value === 'string' && /^\s*javascript:/i.test(value)) executable.push(`${node.tagName}[${name}=javascript:]`);
      }
    });
  }
  return { title, status, toc: tocLinks, headingIds, links, executable, articleHtml: article, placeholder, heading, paragraphs };
}

export async function readPage(file: string): Promise<BuiltPage> {
  return parsePage(await readFile(file, 'utf8'));
}
