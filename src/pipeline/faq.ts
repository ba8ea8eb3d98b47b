// The article's FAQ: the question/answer pairs under a "Frequently Asked Questions" heading (questions as sub-headings, or <details>/<summary>), for FAQPage JSON-LD.
import type { Element, Parents, Root } from 'hast';
import { plainText } from './plain-text.js';

/** One question of the FAQ and its answer, as plain text. */
export interface FaqItem {
  question: string;
  answer: string;
}

/** Headings that open a FAQ section, in the languages the service writes most. */
const FAQ_HEADING =
  /\b(?:faqs?|frequently asked questions|common questions|häufig gestellte fragen|häufige fragen|preguntas frecuentes|questions fréquentes|foire aux questions|domande frequenti|perguntas frequentes|veelgestelde vragen)\b/i;
const HEADING = /^h([1-6])$/;
/** Elements whose text is one piece of an answer: read whole, not descended into. */
const TEXT_BLOCKS = new Set(['p', 'li', 'dd', 'dt', 'td', 'th', 'pre']);

type Block = { kind: 'heading'; depth: number; text: string } | { kind: 'text'; text: string } | { kind: 'details'; question: string; answer: string };

/** The body as a flat sequence of headings, text blocks and <details> elements, in document order. */
function blocks(parent: Parents, out: Block[]): Block[] {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    const depth = HEADING.exec(child.tagName)?.[1];
    if (depth !== undefined) out.push({ kind: 'heading', depth: Number(depth), text: plainText(child) });
    else if (child.tagName === 'details') out.push(detailsBlock(child));
    else if (TEXT_BLOCKS.has(child.tagName)) out.push({ kind: 'text', text: plainText(child) });
    else blocks(child, out);
  }
  return out;
}

function detailsBlock(node: Element): Block {
  const summary = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'summary');
  const rest = node.children.filter((child) => child !== summary);
  return { kind: 'details', question: summary === undefined ? '' : plainText(summary), answer: plainText({ type: 'root', children: rest } as Root) };
}

function hasFaqHeading(parent: Parents): boolean {
  for (const child of parent.children) {
    if (child.type !== 'element') continue;
    if (HEADING.test(child.tagName) ? FAQ_HEADING.test(plainText(child)) : !TEXT_BLOCKS.has(child.tagName) && hasFaqHeading(child)) return true;
  }
  return false;
}

const clean = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The FAQ of an article: after a heading that names it, each deeper heading is a question and the
 * text up to the next heading its answer (or each <details> a question and answer), until a
 * heading as high as the FAQ's own. Questions without an answer are left out. Empty when there is
 * no such section.
 */
export function faqOf(tree: Root): FaqItem[] {
  // Most articles have no FAQ: find its heading before reading any text.
  if (!hasFaqHeading(tree)) return [];
  const sequence = blocks(tree, []);
  const start = sequence.findIndex((block) => block.kind === 'heading' && FAQ_HEADING.test(block.text));
  if (start === -1) return [];
  const faqDepth = (sequence[start] as { depth: number }).depth;
  const items: FaqItem[] = [];
  let current: { question: string; answer: string[] } | undefined;
  const close = () => {
    if (current !== undefined && clean(current.question) !== '' && clean(current.answer.join(' ')) !== '') items.push({ question: clean(current.question), answer: clean(current.answer.join(' ')) });
    current = undefined;
  };
  for (const block of sequence.slice(start + 1)) {
    if (block.kind === 'heading') {
      close();
      if (block.depth <= faqDepth) break;
      current = { question: block.text, answer: [] };
    } else if (block.kind === 'details') {
      close();
      current = { question: block.question, answer: [block.answer] };
      close();
    } else current?.answer.push(block.text);
  }
  close();
  return items;
}
