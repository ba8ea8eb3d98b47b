// writer_leftover: text the writer left for itself or for us, visible to the reader.
import { quote, where } from './article-reading.js';
import type { Check } from './check-context.js';
import { capped } from './check-context.js';
import type { Observation } from './finding.js';

/** Each kind of leftover, with what a reader sees. Code blocks are left alone: there `**`, `##` and `<…>` are meant. */
const LEFTOVERS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'an AI self-reference', pattern: /\bas an? (?:ai|artificial intelligence)\b|\bas a (?:large )?language model\b|\bI(?:'m| am) (?:just )?an AI\b|\bmy (?:knowledge|training) cut-?off\b/i },
  { kind: "the writer's reply to its prompt", pattern: /^(?:certainly|sure|of course)[!,.]? here(?:'s| is) (?:the|your|an?) (?:article|blog post|draft|rewrite)/i },
  { kind: 'a "[…]" placeholder', pattern: /\[(?:insert|add|include|placeholder|your |image|link|citation needed|source|todo|tbd)[^\]]{0,80}\]/i },
  { kind: 'an unfilled "<…>" placeholder', pattern: /<\s*[A-Za-z][^<>]{0,40}>/ },
  { kind: 'an unfilled "{…}" placeholder', pattern: /\{\{?\s*[A-Za-z_][\w .-]{0,30}\}\}?/ },
  { kind: 'a "Title:" line', pattern: /^(?:title|meta title|seo title|meta description|slug|h[1-6]|keywords?)\s*:/i },
  { kind: 'a Markdown heading left as text', pattern: /^#{1,6}\s+\S/ },
  { kind: 'Markdown emphasis left as text', pattern: /\*\*[^*\n]+\*\*|(?<![\w])__[^_\n]+__(?![\w])/ },
  { kind: 'a Markdown link left as text', pattern: /\[[^\]\n]+\]\((?:https?:\/\/|\/)[^)\s]*\)/ },
  { kind: 'a Markdown table or code fence left as text', pattern: /\|\s*:?-{3,}:?\s*\||^```/ },
  { kind: 'lorem ipsum', pattern: /\blorem ipsum\b/i },
];

/** Any leftover at all: one scan per block, the kinds told apart only where it matches. */
// Without the `u` flag, as each pattern: with it, `i` folds Unicode case and the scan was ten times slower.
const ANY_LEFTOVER = new RegExp(LEFTOVERS.map(({ pattern }) => `(?:${pattern.source})`).join('|'), 'i');

/** The leftovers in one piece of text; `place` says where it is ("in the title", "under the heading …"). */
function leftoversIn(text: string, place: string): Observation[] {
  const found: Observation[] = [];
  if (!ANY_LEFTOVER.test(text)) return found;
  for (const { kind, pattern } of LEFTOVERS) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const context = text.slice(Math.max(0, match.index - 20), match.index + match[0].length + 30);
    found.push({ code: 'writer_leftover', message: `${kind} ${place}: ${quote(context, 90)}; edit the article to remove it, or regenerate it` });
  }
  return found;
}

export const writerLeftoverCheck: Check = ({ article, reading }) => {
  const found = leftoversIn(article.title, 'in the title');
  for (const block of reading.blocks) {
    if (block.kind === 'heading') found.push(...leftoversIn(block.text, `in the heading ${quote(block.text, 50)}`));
    else if (!block.code) found.push(...leftoversIn(block.text, where(block.under)));
  }
  return capped(found);
};
