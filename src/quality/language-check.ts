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

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

function letterOrDigit(code: number | undefined): boolean {
  if (code === undefined) return false;
  // ASCII without the pattern: most of what is tested before and after a keyword's word.
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(code));
}

/** The code point that ends just before `offset`, if any. */
function codePointBefore(text: string, offset: number): number | undefined {
  if (offset === 0) return undefined;
  const low = text.charCodeAt(offset - 1);
  return text.codePointAt(low >= 0xdc00 && low <= 0xdfff && offset >= 2 ? offset - 2 : offset - 1);
}

/**
 * Replaces each whole-word occurrence of one of `words` (case ignored) with a space: what
 * `/(?<![\p{L}\p{N}])(?:w1|w2|…)(?![\p{L}\p{N}])/giu` does, word boundaries checked by hand,
 * since a pattern with `\p{…}` classes costs about a millisecond to compile, once per article (it
 * was the checks' largest single cost in a build). Same semantics: the leftmost position where an
 * alternative fits, the alternatives tried in their order there.
 */
function keywordRemover(words: readonly string[]): (text: string) => string {
  const any = new RegExp(words.map(escapeRegExp).join('|'), 'giu');
  const each = words.map((word) => new RegExp(escapeRegExp(word), 'iuy'));
  return (text) => {
    let out = '';
    let copied = 0;
    any.lastIndex = 0;
    for (let found = any.exec(text); found !== null; found = any.exec(text)) {
      const at = found.index;
      const length = letterOrDigit(codePointBefore(text, at)) ? undefined : fittingLength(text, at, each);
      if (length === undefined) {
        any.lastIndex = at + (text.codePointAt(at)! > 0xffff ? 2 : 1);
        continue;
      }
      out += `${text.slice(copied, at)} `;
      copied = at + length;
      any.lastIndex = copied;
    }
    return out + text.slice(copied);
  };
}

/** The length of the first of `each` (sticky patterns) that matches at `at` and is not followed by a letter or digit. */
function fittingLength(text: string, at: number, each: readonly RegExp[]): number | undefined {
  for (const pattern of each) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (match !== null && !letterOrDigit(text.codePointAt(at + match[0].length))) return match[0].length;
  }
  return undefined;
}

/**
 * The prose of the article (paragraphs and list items, not tables, headings or code), up to the
 * sample size, without the keyword's words: a keyword is often in another language or script than
 * the article ("running shoes" in a Japanese article), and written in every other sentence.
 */
function sampleOf(blocks: Parameters<Check>[0]['reading']['blocks'], keyword: string): string {
  const words = keyword.match(/[\p{L}\p{N}\p{M}]{2,}/gu) ?? [];
  const remover = words.length === 0 ? undefined : keywordRemover(words);
  let sample = '';
  for (const block of blocks) {
    if (block.kind !== 'text' || block.code || (block.tag !== 'p' && block.tag !== 'li' && block.tag !== 'blockquote')) continue;
    sample += `${remover === undefined ? block.text : remover(block.text)}\n`;
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
