// Word count and reading time that work for space-separated languages and for Japanese and Chinese.

// Han, Hiragana and Katakana (with the prolonged sound mark): written without spaces between words.
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]$/u;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

const SEPARATOR = 0;
const WORD = 1;
/** `'`, `’`, `-`, `.`: inside a word when a word character follows ("don't", "e-mail", "3.5"). */
const JOINER = 2;
const CJK = 3;

export interface WordCount {
  /** Words of space-separated scripts. */
  words: number;
  /** Chinese/Japanese characters, each counted on its own. */
  cjkCharacters: number;
  /** `words + cjkCharacters`: the figure shown as the word count, as word processors count CJK text. */
  total: number;
}

/**
 * Count words. Japanese and Chinese have no spaces between words and no cheap, reliable word
 * segmentation, so each Han, Hiragana or Katakana character counts as one, the convention of word
 * processors and of CJK reading-speed figures (characters per minute). Everything else counts as
 * runs of letters, marks and digits, joined across `'`, `’`, `-` and `.`. (Thai, Lao, Khmer and
 * Burmese runs count as one word per run.)
 *
 * One pass over the characters, with the common ranges decided without a regex: this runs on every
 * article, and the regex version was the pipeline's largest cost after parsing.
 */
export function countWords(text: string): WordCount {
  let words = 0;
  let cjkCharacters = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.codePointAt(index)!;
    const kind = classify(code);
    if (code > 0xffff) index++;
    if (kind === WORD) {
      if (!inWord) words++;
      inWord = true;
    } else if (kind === JOINER) {
      if (inWord) {
        const next = text.codePointAt(index + 1);
        inWord = next !== undefined && classify(next) === WORD;
      }
    } else {
      inWord = false;
      if (kind === CJK) cjkCharacters++;
    }
  }
  return { words, cjkCharacters, total: words + cjkCharacters };
}

function classify(code: number): number {
  if (code < 0x80) {
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39)) return WORD;
    return code === 0x27 || code === 0x2d || code === 0x2e ? JOINER : SEPARATOR;
  }
  if (code === 0x2019) return JOINER;
  // Latin-1 and Latin Extended letters, except × and ÷.
  if (code >= 0xc0 && code <= 0x24f) return code === 0xd7 || code === 0xf7 ? SEPARATOR : WORD;
  // General punctuation (dashes, quotes, ellipsis, spaces), CJK spaces, commas, stops and brackets.
  if ((code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x3004) || (code >= 0x3008 && code <= 0x3020)) return SEPARATOR;
  // Hiragana, Katakana (with ー), CJK unified ideographs and extension A.
  if ((code >= 0x3041 && code <= 0x3096) || (code >= 0x30a1 && code <= 0x30fa) || code === 0x30fc || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf)) {
    return CJK;
  }
  const char = String.fromCodePoint(code);
  if (CJK_CHAR.test(char)) return CJK;
  return WORD_CHAR.test(char) ? WORD : SEPARATOR;
}

/** Whole minutes, rounded up; 0 only for an article without a single word. */
export function readingMinutes(count: WordCount, wordsPerMinute: number, cjkCharactersPerMinute: number): number {
  if (count.total === 0) return 0;
  return Math.max(1, Math.ceil(count.words / wordsPerMinute + count.cjkCharacters / cjkCharactersPerMinute));
}
