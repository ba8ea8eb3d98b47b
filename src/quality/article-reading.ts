// What the checks read from an article's final HTML: its blocks in reading order (headings and text), links and images.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { parseArticleHtml } from '../pipeline/parse.js';
import { plainText } from '../pipeline/plain-text.js';

export interface HeadingBlock {
  kind: 'heading';
  level: number;
  text: string;
}

export interface TextBlock {
  kind: 'text';
  /** The element the text sits in (`p`, `li`, `td`, …): a paragraph is a `p`. */
  tag: string;
  text: string;
  /** Inside `<pre>` or `<code>`: source, where Markdown and `<…>` are meant. */
  code: boolean;
  /** The heading this block sits under, for messages; undefined before the first heading. */
  under: string | undefined;
}

export type ArticleBlock = HeadingBlock | TextBlock;

export interface LinkRef {
  href: string;
  text: string;
  under: string | undefined;
}

export interface ImageRef {
  src: string;
  /** undefined: no alt attribute at all. */
  alt: string | undefined;
  decorative: boolean;
  under: string | undefined;
}

export interface ArticleReading {
  blocks: ArticleBlock[];
  links: LinkRef[];
  images: ImageRef[];
  /** The visible text, one block per line. */
  text: string;
}

const HEADING = /^h([1-6])$/;
/** Elements a reader never sees as text. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'head', 'iframe', 'video', 'audio', 'object', 'svg', 'math']);
/** Block-level elements: a run of inline content between two of them is one block of text. */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'caption', 'details', 'dialog', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hgroup', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);

class Reader {
  readonly reading: ArticleReading = { blocks: [], links: [], images: [], text: '' };
  #under: string | undefined;

  /** Walk a container: runs of inline children become one block, block children are read on their own. */
  container(children: readonly (RootContent | ElementContent)[], tag: string, code: boolean): void {
    let run: (RootContent | ElementContent)[] = [];
    const flush = () => {
      if (run.length > 0) this.textBlock({ type: 'root', children: run } as Root, tag, code);
      run = [];
    };
    for (const child of children) {
      if (child.type === 'element' && HIDDEN.has(child.tagName)) continue;
      if (child.type === 'element' && BLOCK.has(child.tagName)) {
        flush();
        this.element(child, code);
      } else if (child.type === 'element' || child.type === 'text') {
        run.push(child);
      }
    }
    flush();
  }

  element(node: Element, code: boolean): void {
    const level = HEADING.exec(node.tagName)?.[1];
    if (level !== undefined) {
      const text = plainText(node);
      this.media(node);
      if (text === '') return;
      this.reading.blocks.push({ kind: 'heading', level: Number(level), text });
      this.#under = text;
      return;
    }
    const inCode = code || node.tagName === 'pre';
    if (hasBlockChild(node)) this.container(node.children, node.tagName, inCode);
    else this.textBlock(node, node.tagName, inCode);
  }

  textBlock(node: Element | Root, tag: string, code: boolean): void {
    this.media(node);
    const text = plainText(node);
    if (text === '') return;
    const inCode = code || (node.type === 'element' && node.tagName === 'code') || onlyCode(node);
    this.reading.blocks.push({ kind: 'text', tag, text, code: inCode, under: this.#under });
  }

  /** The links and images inside a block, under the current heading. */
  media(node: Element | Root): void {
    for (const child of node.children) {
      if (child.type !== 'element' || HIDDEN.has(child.tagName)) continue;
      if (child.tagName === 'a' && typeof child.properties.href === 'string') {
        this.reading.links.push({ href: child.properties.href, text: plainText(child), under: this.#under });
      } else if (child.tagName === 'img') {
        this.reading.images.push(imageRef(child, this.#under));
      }
      this.media(child);
    }
  }
}

function imageRef(node: Element, under: string | undefined): ImageRef {
  const { src, alt, role, ariaHidden } = node.properties;
  return {
    src: typeof src === 'string' ? src : '',
    alt: alt === undefined || alt === null ? undefined : String(alt),
    decorative: role === 'presentation' || role === 'none' || String(ariaHidden) === 'true',
    under,
  };
}

function hasBlockChild(node: Element): boolean {
  return node.children.some((child) => child.type === 'element' && (BLOCK.has(child.tagName) || (!HIDDEN.has(child.tagName) && hasBlockChild(child))));
}

/** A block whose only visible content is one `<code>` element. */
function onlyCode(node: Element | Root): boolean {
  const visible = node.children.filter((child) => child.type === 'element' || (child.type === 'text' && child.value.trim() !== ''));
  return visible.length === 1 && visible[0]!.type === 'element' && visible[0]!.tagName === 'code';
}

/** Read an article's HTML (a fragment, as the pipeline leaves it, or a whole document). */
export function readArticle(html: string): ArticleReading {
  return readArticleTree(parseArticleHtml(html).tree);
}

/** Read an article from its hast tree: the pipeline's final tree, which its HTML was written from (see `ArticleToCheck.tree`). */
export function readArticleTree(tree: Root): ArticleReading {
  const reader = new Reader();
  reader.container(tree.children, 'body', false);
  const { reading } = reader;
  reading.text = reading.blocks.map((block) => block.text).join('\n');
  return reading;
}

/** A short quote of a text for a message: the first words, with an ellipsis when cut. */
export function quote(text: string, max = 60): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return `"${clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`}"`;
}

/** "under the heading "X"" or "before the first heading", for messages. */
export function where(under: string | undefined): string {
  return under === undefined ? 'before the first heading' : `under the heading ${quote(under, 50)}`;
}
