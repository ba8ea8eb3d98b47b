// The model's Markdown → HTML (remark → rehype), shaped to sit under the writer's own headings; raw HTML and images dropped.
import type { Heading, Nodes, Paragraph, Root, RootContent } from 'mdast';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';

export interface PartShapeOptions {
  /** The shallowest heading level the part may use: 3 under the writer's h2, 2 for parts that bring their own. */
  minDepth: 2 | 3;
  /** Drop the headings the answer opens with, of this level or higher (models repeat the heading they were given); 0 drops none. */
  dropLeadingHeadings: number;
  /** A paragraph that is only bold text ending in "?" becomes a heading (FAQ questions, as small models write them). */
  boldQuestionsAsHeadings: boolean;
}

function withoutImages(node: Nodes): void {
  if (!('children' in node)) return;
  (node.children as Nodes[]) = (node.children as Nodes[]).filter((child) => child.type !== 'image' && child.type !== 'imageReference');
  for (const child of node.children as Nodes[]) withoutImages(child);
}

/** A paragraph holding only `**Question?**`, as a heading of `depth`. */
function boldQuestion(node: RootContent, depth: Heading['depth']): Heading | undefined {
  if (node.type !== 'paragraph') return undefined;
  const [only] = (node as Paragraph).children;
  if ((node as Paragraph).children.length !== 1 || only?.type !== 'strong') return undefined;
  const text = only.children.map((child) => ('value' in child ? child.value : '')).join('').trim();
  return /[?？]$/.test(text) ? { type: 'heading', depth, children: [{ type: 'text', value: text }] } : undefined;
}

/**
 * The parts of GFM models write: tables and ~~strikethrough~~. Not all of remark-gfm: its literal
 * autolinks (a bare `www.`, `http…` or e-mail address becomes a link) more than doubled the time to
 * parse prose, and an address a model made up should not become a link on the site; footnotes are
 * never asked for, and task lists have no place in an article.
 */
function remarkModelGfm(this: Processor): void {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown());
}

/** The remark plugin: settings resolved once, the transform per tree. */
function shapePart(options: PartShapeOptions) {
  return (tree: Root): void => {
    withoutImages(tree);
    for (let first = tree.children[0]; first?.type === 'thematicBreak' || (first?.type === 'heading' && first.depth <= options.dropLeadingHeadings); first = tree.children[0]) {
      tree.children.shift();
    }
    tree.children = tree.children.map((node) => (options.boldQuestionsAsHeadings ? (boldQuestion(node, options.minDepth) ?? node) : node));
    for (const node of tree.children) {
      if (node.type === 'heading' && node.depth < options.minDepth) node.depth = options.minDepth;
    }
  };
}

/** One frozen processor per shape: building one costs more than using it. */
const processors = new Map<string, ReturnType<typeof processorFor>>();

function processorFor(options: PartShapeOptions) {
  return unified().use(remarkParse).use(remarkModelGfm).use(shapePart, options).use(remarkRehype).use(rehypeStringify).freeze();
}

/** HTML of one part's Markdown. Raw HTML in the answer is dropped (remark-rehype's default), so is every image. */
export function markdownToHtml(markdown: string, options: PartShapeOptions): string {
  const key = `${options.minDepth}:${options.dropLeadingHeadings}:${options.boldQuestionsAsHeadings}`;
  let processor = processors.get(key);
  if (processor === undefined) processors.set(key, (processor = processorFor({ ...options })));
  return String(processor.processSync(markdown)).trim();
}
