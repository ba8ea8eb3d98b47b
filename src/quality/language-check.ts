// language_mismatch: franc's reading of the visible text against the request's language. Loaded only when checks run.
import { franc } from 'franc';
import { countWords } from '../contract/word-count.js';
import type { Check } from './check-context.js';
import { languageCodes, LANGUAGE_CODES } from './language-codes.js';

/** franc reads trigrams; more text than this adds time (it reads every trigram), not certainty. */
const SAMPLE_CHARACTERS = 600;
/** A page of tables and headings may have little prose: franc needs a few sentences to tell. */
const MIN_PROSE_WORDS = 20;
/** Languages franc tells apart only by a hair: one requested, another of its group read, is no mismatch. */
const CLOSE_GROUPS: readonly (readonly string[])[] = [
  ['dan', 'nob', 'nno'],
  ['ind', 'zlm'],
  ['hrv', 'srp', 'bos'],
  ['ces', 'slk'],
];
/** franc knows about 190 languages; asked to choose among the service's only, it does not read English as Scots. */
const KNOWN = Object.values(LANGUAGE_CODES).flat();

const NAME_OF_CODE = new Map(Object.entries(LANGUAGE_CODES).flatMap(([name, codes]) => codes.map((code) => [code, name.charAt(0).toUpperCase() + name.slice(1)] as const)));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The prose of the article (paragraphs and list items, not tables, headings or code), up to the
 * sample size, without the keyword's words: a keyword is often in another language or script than
 * the article ("running shoes" in a Japanese article), and written in every other sentence.
 */
function sampleOf(blocks: Parameters<Check>[0]['reading']['blocks'], keyword: string): string {
  const words = keyword.match(/[\p{L}\p{N}\p{M}]{2,}/gu) ?? [];
  const keywordPattern = words.length === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  let sample = '';
  for (const block of blocks) {
    if (block.kind !== 'text' || block.code || (block.tag !== 'p' && block.tag !== 'li' && block.tag !== 'blockquote')) continue;
    sample += `${keywordPattern === undefined ? block.text : block.text.replace(keywordPattern, ' ')}\n`;
    if (sample.length >= SAMPLE_CHARACTERS) break;
  }
  return sample;
}

/** Not judged: a language name we have no code for, fewer visible words than `minLanguageWords`, under MIN_PROSE_WORDS of prose, or text franc cannot place. */
export const languageCheck: Check = ({ article, reading, words, options }) => {
  const requested = article.request.language;
  const codes = languageCodes(requested);
  if (codes === undefined) return [];
  if (words < options.minLanguageWords) return [];
  const sample = sampleOf(reading.blocks, article.request.targetKeyword);
  if (countWords(sample).total < MIN_PROSE_WORDS) return [];
  const best = franc(sample, { minLength: 10, only: KNOWN });
  if (best === 'und' || codes.includes(best)) return [];
  if (CLOSE_GROUPS.some((group) => group.includes(best) && codes.some((code) => group.includes(code)))) return [];
  const detected = NAME_OF_CODE.get(best) ?? `ISO 639-3 "${best}"`;
  return [
    {
      code: 'language_mismatch',
      message: `the text reads as ${detected}, but the request asks for language "${requested}"; regenerate it (check that "${requested}" is a language the service writes), or change language`,
    },
  ];
};
