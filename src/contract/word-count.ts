// The one word counter: what the service bills, what the emulator bills, what sync records and estimates, and the word count and reading time an article shows.

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
  /** `words + cjkCharacters`: the word count, as word processors count CJK text, and what is billed. */
  total: number;
}

/** Called for each word, with its `[start, end)` UTF-16 offsets; `cjk` for a Chinese/Japanese character. */
type OnWord = (start: number, end: number, cjk: boolean) => void;

/**
 * The words of `text`, in order. Japanese and Chinese have no spaces between words and no cheap,
 * reliable word segmentation, so each Han, Hiragana or Katakana character counts as one, the
 * convention of word processors and of CJK reading-speed figures (characters per minute).
 * Everything else counts as runs of letters, marks and digits, joined across `'`, `’`, `-` and
 * `.` when a word character follows. (Thai, Lao, Khmer and Burmese runs count as one word per run.)
 *
 * One pass over the characters, with the common ranges decided without a regex: this runs on every
 * article, and the regex version was the pipeline's largest cost after parsing.
 */
function scanWords(text: string, onWord: OnWord): void {
  let start = -1;
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    const kind = classify(code);
    if (kind === WORD) {
      if (start < 0) start = index;
    } else if (kind === JOINER && start >= 0) {
      const next = text.codePointAt(index + width);
      if (next === undefined || classify(next) !== WORD) {
        onWord(start, index, false);
        start = -1;
      }
    } else {
      if (start >= 0) onWord(start, index, false);
      start = -1;
      if (kind === CJK) onWord(index, index + width, true);
    }
    index += width;
  }
  if (start >= 0) onWord(start, text.length, false);
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

/**
 * The words of `text` counted as {@link scanWords} finds them, stopping once there are `least`: the same walk, with
 * counters instead of a callback. The checks and the pipeline count every article, paragraph and sentence, and
 * scanWords's call site, given a callback from each of its callers, ran the count about 2.5 times slower.
 */
function tally(text: string, least: number): WordCount {
  let words = 0;
  let cjkCharacters = 0;
  let inWord = false;
  for (let index = 0; index < text.length && words + cjkCharacters < least; ) {
    const code = text.codePointAt(index)!;
    const width = code > 0xffff ? 2 : 1;
    const kind = classify(code);
    if (kind === WORD) {
      inWord = true;
    } else if (kind === JOINER && inWord) {
      const next = text.codePointAt(index + width);
      if (next === undefined || classify(next) !== WORD) (words++, (inWord = false));
    } else {
      if (inWord) words++;
      inWord = false;
      if (kind === CJK) cjkCharacters++;
    }
    index += width;
  }
  if (inWord) words++;
  return { words, cjkCharacters, total: words + cjkCharacters };
}

/** Count the words of plain text (see {@link scanWords}). */
export function countWords(text: string): WordCount {
  return tally(text, Infinity);
}

/** Whether `text` has at least `least` words as {@link countWords} counts them: the count stops there (the quality checks ask it of every sentence). */
export function hasWords(text: string, least: number): boolean {
  return tally(text, least).total >= least;
}

/** Calls `onWord` with the `[start, end)` UTF-16 offsets of each word in `text`, in order (as {@link wordSpans} lists them, without the list). */
export function forEachWord(text: string, onWord: (start: number, end: number) => void): void {
  scanWords(text, onWord);
}

/** The `[start, end)` UTF-16 offsets of each word in `text`, in order; each counts one in {@link countWords}'s total. */
export function wordSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  scanWords(text, (start, end) => spans.push({ start, end }));
  return spans;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The visible text of an HTML string: every tag separates words (so `one<br>two` is two words);
 * tags, comments, scripts, styles, templates and the head dropped; entities decoded.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style|head|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      const code = name[0] !== '#' ? undefined : name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** The words a reader sees in an HTML string: what is billed for it. */
export function countHtmlWords(html: string): number {
  return countWords(htmlToText(html)).total;
}
