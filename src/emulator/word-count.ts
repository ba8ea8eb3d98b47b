// Counting words the way the emulator bills them, for space-separated and CJK scripts alike.

// Scripts written without spaces between words need a dictionary-based segmenter.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu;
let segmenter: Intl.Segmenter | undefined;

/** The `[start, end)` UTF-16 offsets of each word in `text`, in order. */
export function* wordSpans(text: string): Generator<{ start: number; end: number }> {
  if (!CJK.test(text)) {
    for (const match of text.matchAll(WORD)) yield { start: match.index, end: match.index + match[0].length };
    return;
  }
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const segment of segmenter.segment(text)) {
    if (segment.isWordLike) yield { start: segment.index, end: segment.index + segment.segment.length };
  }
}

/** Number of words in plain text. */
export function countWords(text: string): number {
  let count = 0;
  for (const _ of wordSpans(text)) count++;
  return count;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The visible text of an HTML string: tags, comments, scripts and styles dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** Number of words a reader sees in an HTML string. */
export function countHtmlWords(html: string): number {
  return countWords(htmlToText(html));
}
