// repeated_text: a paragraph or a sentence written twice, or a word twice in a row (retext). Loaded only when checks run.
import { ParseLatin } from 'parse-latin';
import retextRepeatedWords from 'retext-repeated-words';
import { VFile } from 'vfile';
import { hasWords } from '../contract/word-count.js';
import { quote, where, type TextBlock } from './article-reading.js';
import type { Check } from './check-context.js';
import { capped } from './check-context.js';
import type { Observation } from './finding.js';

/** Where the two copies are: `(under the heading "A" and under the heading "B")`, or once when both are in one place (`before the first heading`). */
function bothPlaces(first: string, second: string): string {
  return first === second ? second : `(${first} and ${second})`;
}

/** Prose, where a repeat is a mistake; table cells, captions and code repeat by design ("Yes", "4/5"). */
const PROSE = new Set(['p', 'li', 'blockquote', 'dd']);

const parser = new ParseLatin();
const repeatedWords = retextRepeatedWords();

/** Closing punctuation, quotes and spaces: not part of what a sentence says. */
const TRAILING = new Set([...' \t\n.!?…。！？"\'”’)']);

/** Case, spacing and the closing punctuation do not make two sentences different. (A loop: an anchored regex backtracks on long text.) */
function sameKey(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.has(text[end - 1]!)) end--;
  return text.slice(0, end).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** `.!?。！？` by code unit: a Set of one-character strings, asked at every character, was most of the split's cost. */
function isStop(unit: number): boolean {
  return unit === 0x2e || unit === 0x21 || unit === 0x3f || unit === 0x3002 || unit === 0xff01 || unit === 0xff1f;
}

const CLOSING = new Set([...'.!?。！？"\'”’)']);

/**
 * A sentence: text up to a full stop, question or exclamation mark (Latin or CJK) and any closing
 * quote (a "." only before a space, so "3.5" stays whole). parse-latin splits better ("e.g." stays whole) but costs more than every other
 * check together on a long article; a wrong split here only cuts one repeated sentence into two
 * shorter ones, each still compared.
 */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isStop(text.charCodeAt(i))) continue;
    // "3.5" and "example.com" go on: a Latin stop ends a sentence before a space or the end.
    if (text[i] === '.' && i + 1 < text.length && !/[\s"'”’)]/.test(text[i + 1]!)) continue;
    while (i + 1 < text.length && CLOSING.has(text[i + 1]!)) i++;
    sentences.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** A word written twice in a row, as a cheap scan sees it; retext-repeated-words then decides ("had had" is fine). */
const DOUBLED_WORD = /(?<![\p{L}\p{N}])([\p{L}\p{N}]+)\s+\1(?![\p{L}\p{N}])/iu;

/**
 * The blocks worth parsing: parse-latin is the costliest step of the checks, and most blocks
 * repeat nothing. A sentence of `min` words written twice means a run of `min` words written
 * twice, so a block none of whose `min`-word runs occurs elsewhere cannot hold a repeated sentence.
 */
function blocksWithRepeatedRuns(blocks: readonly TextBlock[], min: number): Set<TextBlock> {
  const owners = new Map<number, TextBlock>();
  const candidates = new Set<TextBlock>();
  for (const block of blocks) {
    const words = wordHashes(block.text.toLowerCase());
    for (let i = 0; i + min <= words.length; i++) {
      let run = 0;
      for (let j = i; j < i + min; j++) run = Math.imul(run ^ words[j]!, 0x9e3779b1);
      // A collision only makes one more candidate: parse-latin still decides.
      const owner = owners.get(run);
      if (owner === undefined) owners.set(run, block);
      else (candidates.add(owner), candidates.add(block));
    }
  }
  return candidates;
}

function wordChar(code: number): boolean {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
  return WORD_CHAR.test(String.fromCodePoint(code));
}

/**
 * The FNV-1a hash of each word of `text` (a run of letters, digits and marks, by code point), in order: what hashing
 * each match of `/[\p{L}\p{N}\p{M}]+/gu` gives, without making each word a string (this runs on every paragraph).
 */
function wordHashes(text: string): number[] {
  const hashes: number[] = [];
  let hash = 0;
  let inWord = false;
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    if (wordChar(code)) {
      if (!inWord) (hash = 0x811c9dc5), (inWord = true);
      for (let unit = index; unit < index + width; unit++) hash = Math.imul(hash ^ text.charCodeAt(unit), 0x01000193);
    } else if (inWord) {
      hashes.push(hash);
      inWord = false;
    }
    index += width;
  }
  if (inWord) hashes.push(hash);
  return hashes;
}

function asciiWordUnit(unit: number): boolean {
  return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x30 && unit <= 0x39);
}

/** `\s` among the code units `mayDoubleWord` reads itself (ASCII, no-break space, General Punctuation). */
function spaceUnit(unit: number): boolean {
  return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d) || unit === 0xa0 || (unit >= 0x2000 && unit <= 0x200a) || unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f;
}

function foldedUnit(unit: number): number {
  return unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit;
}

function sameWordAt(text: string, first: number, second: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (foldedUnit(text.charCodeAt(first + k)) !== foldedUnit(text.charCodeAt(second + k))) return false;
  return true;
}

/**
 * Whether DOUBLED_WORD can match `text`: in ASCII text (with no-break and General Punctuation spaces, dashes and
 * quotes, none a letter or digit) its words are the runs of [A-Za-z0-9], and it matches exactly when one is followed,
 * across spaces only, by itself in any case: that is decided here. Any other character (another script, where
 * case folding is Unicode's) leaves it to the pattern. The pattern, run on every paragraph, cost several times this scan.
 */
function mayDoubleWord(text: string): boolean {
  let start = -1;
  let length = 0;
  let spacesOnly = false;
  for (let i = 0; i < text.length; ) {
    const unit = text.charCodeAt(i);
    if (asciiWordUnit(unit)) {
      let end = i + 1;
      while (end < text.length && asciiWordUnit(text.charCodeAt(end))) end++;
      if (start >= 0 && spacesOnly && end - i === length && sameWordAt(text, start, i, length)) return true;
      (start = i), (length = end - i), (spacesOnly = true), (i = end);
      continue;
    }
    if (unit >= 0x80 && unit !== 0xa0 && !(unit >= 0x2000 && unit <= 0x206f)) return true;
    if (!spaceUnit(unit)) spacesOnly = false;
    i++;
  }
  return false;
}

/** retext-repeated-words on one block's nlcst (parse-latin): it knows "had had" and "Duran Duran" are fine. */
function doubledWords(block: TextBlock): Observation[] {
  const file = new VFile();
  repeatedWords(parser.parse(block.text), file);
  return file.messages.map((message) => ({
    code: 'repeated_text',
    message: `the word "${message.expected?.[0] ?? ''}" twice in a row ${where(block.under)}: ${quote(message.actual ?? '', 40)}; edit the article to remove one`,
  }));
}

/** Each repeated paragraph once, each repeated sentence (outside a repeated paragraph) once, each doubled word. */
export const repeatedTextCheck: Check = ({ reading, options }) => {
  const min = options.minRepeatedWords;
  const prose = reading.blocks.filter((block): block is TextBlock => block.kind === 'text' && !block.code && PROSE.has(block.tag));
  const candidates = blocksWithRepeatedRuns(prose, min);
  const paragraphs = new Map<string, TextBlock>();
  const sentences = new Map<string, TextBlock>();
  const reported = new Set<string>();
  const found: Observation[] = [];
  for (const block of prose) {
    if (mayDoubleWord(block.text) && DOUBLED_WORD.test(block.text)) found.push(...doubledWords(block));
    if (!candidates.has(block)) continue;
    const key = sameKey(block.text);
    const earlier = paragraphs.get(key);
    if (earlier !== undefined) {
      if (!reported.has(key)) found.push({ code: 'repeated_text', message: `the paragraph ${quote(block.text)} appears twice ${bothPlaces(where(earlier.under), where(block.under))}; edit the article to remove one, or regenerate it` });
      reported.add(key);
      continue;
    }
    if (hasWords(block.text, min)) paragraphs.set(key, block);
    for (const sentence of sentencesOf(block.text)) {
      if (!hasWords(sentence, min)) continue;
      const sentenceKey = sameKey(sentence);
      const first = sentences.get(sentenceKey);
      if (first === undefined) sentences.set(sentenceKey, block);
      else if (!reported.has(sentenceKey)) {
        reported.add(sentenceKey);
        found.push({ code: 'repeated_text', message: `the sentence ${quote(sentence)} appears twice ${bothPlaces(where(first.under), where(block.under))}; edit the article to remove one, or regenerate it` });
      }
    }
  }
  return capped(found);
};
