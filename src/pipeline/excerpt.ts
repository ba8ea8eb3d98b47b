// Excerpt: a description-sized piece of the first paragraph, cut on a word boundary.

const SENTENCE_END = /[.!?。！？]$/u;
const CJK_BREAK = /[。、，！？]/gu;

/**
 * Shorten text to at most `max` characters, ellipsis included. Cuts at the last space when one is
 * in the second half of the room; otherwise (Japanese, Chinese, a very long word) after the last
 * CJK punctuation, else at the limit. An excerpt that ends a sentence gets no ellipsis.
 */
export function excerptOf(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const room = Math.max(1, Math.floor(max) - 1);
  let cut = clean.slice(0, room);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  if (clean[room] !== ' ') {
    const space = cut.lastIndexOf(' ');
    if (space >= room / 2) {
      cut = cut.slice(0, space);
    } else {
      let lastBreak = -1;
      for (const match of cut.matchAll(CJK_BREAK)) lastBreak = match.index;
      if (lastBreak >= room / 2) cut = cut.slice(0, lastBreak + 1);
    }
  }
  if (SENTENCE_END.test(cut)) return cut;
  return cut.replace(/[\s,;:\-–—、，(（]+$/u, '') + '…';
}
