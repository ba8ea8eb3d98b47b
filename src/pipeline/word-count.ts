// Word count and reading time that work for space-separated languages and for Japanese and Chinese.

// Han, Hiragana and Katakana (with the prolonged sound mark): written without spaces between words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC]/gu;
// A run of letters or digits, joined across an apostrophe, hyphen or inner dot: "don't", "e-mail", "3.5".
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’.\-][\p{L}\p{N}\p{M}]+)*/gu;

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
 * runs of letters and digits. (Thai, Lao, Khmer and Burmese runs count as one word per run.)
 */
export function countWords(text: string): WordCount {
  let cjkCharacters = 0;
  CJK.lastIndex = 0;
  while (CJK.exec(text) !== null) cjkCharacters++;
  const latin = cjkCharacters > 0 ? text.replace(CJK, ' ') : text;
  let words = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(latin) !== null) words++;
  return { words, cjkCharacters, total: words + cjkCharacters };
}

/** Whole minutes, rounded up; 0 only for an article without a single word. */
export function readingMinutes(count: WordCount, wordsPerMinute: number, cjkCharactersPerMinute: number): number {
  if (count.total === 0) return 0;
  return Math.max(1, Math.ceil(count.words / wordsPerMinute + count.cjkCharacters / cjkCharactersPerMinute));
}
