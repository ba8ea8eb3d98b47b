// Polish: the service's rewrite pass, applied per polishSettings so its effect is visible in the HTML.
import type { PolishSettings } from '../../contract/request-schema.js';
import type { ArticleDocument, Block } from './article-document.js';
import type { Sentence } from './prose.js';

/** Paragraphs longer than this many sentences are split (split-up-long-paragraphs). */
export const POLISH_MAX_PARAGRAPH_SENTENCES = 3;

const CONTRACTIONS: [RegExp, string][] = [
  [/\bdo not\b/g, "don't"],
  [/\bDo not\b/g, "Don't"],
  [/\bdoes not\b/g, "doesn't"],
  [/\bit is\b/g, "it's"],
  [/\bIt is\b/g, "It's"],
  [/\byou will\b/g, "you'll"],
  [/\bYou will\b/g, "You'll"],
  [/\bwe have\b/g, "we've"],
  [/\bWe have\b/g, "We've"],
];

/**
 * The polished version of a document. Always drops the empty paragraphs the writer leaves behind,
 * so a polished article differs from its draft even with every setting off.
 */
export function polishDocument(doc: ArticleDocument, settings: PolishSettings): ArticleDocument {
  const seen = new Set<string>();
  const blocks: Block[] = [];
  for (const block of doc.blocks) {
    if (block.kind === 'empty') continue;
    if (block.kind !== 'paragraph') {
      blocks.push(block);
      continue;
    }
    if (block.midConclusion === true && settings['remove-mid-article-conclusions']) continue;
    let sentences: Sentence[] = block.sentences.flatMap((sentence) => rewrite(sentence, settings));
    if (settings['remove-repetitive-sentences']) {
      sentences = sentences.filter((sentence) => {
        if (seen.has(sentence.html)) return false;
        seen.add(sentence.html);
        return true;
      });
    }
    if (sentences.length === 0) continue;
    if (settings['split-up-long-paragraphs'] && sentences.length > POLISH_MAX_PARAGRAPH_SENTENCES) {
      for (let i = 0; i < sentences.length; i += 2) blocks.push({ kind: 'paragraph', sentences: sentences.slice(i, i + 2) });
    } else {
      blocks.push({ kind: 'paragraph', sentences });
    }
  }
  return { ...doc, blocks };
}

function rewrite(sentence: Sentence, settings: PolishSettings): Sentence[] {
  if (settings['convert-passive-voice'] && sentence.active !== undefined) return [{ html: sentence.active }];
  if (settings['simplify-complex-sentences'] && sentence.simple !== undefined) return sentence.simple.map((html) => ({ html }));
  if (settings.humanize) {
    if (sentence.plain !== undefined) return [{ html: sentence.plain }];
    let html = sentence.html;
    for (const [pattern, replacement] of CONTRACTIONS) html = html.replace(pattern, replacement);
    return [{ ...sentence, html }];
  }
  return [sentence];
}
