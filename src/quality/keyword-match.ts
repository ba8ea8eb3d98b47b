// Whether a text contains a target keyword, with the tolerance a reader allows: case, spacing, simple plurals, word order, number words.

/** English number words a keyword may spell out where the article writes digits ("ten tips" → "10 Tips"). */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17',
  eighteen: '18', nineteen: '19', twenty: '20',
};
/**
 * Function words a writer rephrases freely ("coffee shops near Lyon" → "Coffee Shops in Lyon"):
 * a keyword's words of this list need not appear, unless the keyword has no other word.
 * English, German, Spanish and French, the languages the emulator writes besides Japanese.
 */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'in', 'near', 'at', 'on', 'of', 'for', 'to', 'with', 'and', 'or', 'vs', 'versus', 'by', 'from',
  'der', 'die', 'das', 'ein', 'eine', 'im', 'in', 'am', 'an', 'für', 'mit', 'und', 'oder', 'von', 'zu', 'bei',
  'el', 'la', 'los', 'las', 'un', 'una', 'en', 'de', 'del', 'para', 'con', 'y', 'o', 'cerca',
  'le', 'les', 'une', 'des', 'du', 'au', 'aux', 'pour', 'avec', 'et', 'ou', 'près',
]);
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** A token without a simple plural ending: "trails" → "trail", "boxes" → "box", "cities" → "city". */
export function singularOf(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  if (token.endsWith('ies')) return `${token.slice(0, -3)}y`;
  if (/(?:s|x|z|ch|sh)es$/.test(token)) return token.slice(0, -2);
  if (token.endsWith('s') && !/(?:ss|us|is)$/.test(token)) return token.slice(0, -1);
  return token;
}

function tokensOf(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []).map((token) => NUMBER_WORDS[token] ?? singularOf(token));
}

/** Letters and digits only: "Pour-over" and "pourover" are the same. */
function compact(text: string): string {
  return (text.normalize('NFKC').toLowerCase().match(TOKEN) ?? []).join('');
}

/** A keyword prepared once for many texts. */
export interface KeywordPattern {
  keyword: string;
  /** The keyword's distinct tokens, singular, written in spaced scripts, without function words. */
  words: readonly string[];
  /** Tokens in Chinese, Japanese or Korean script, matched as substrings (no spaces to split on). */
  cjk: readonly string[];
  compact: string;
}

export function keywordPattern(keyword: string): KeywordPattern {
  const words = new Set<string>();
  const cjk = new Set<string>();
  for (const token of tokensOf(keyword)) (CJK.test(token) ? cjk : words).add(token);
  const content = [...words].filter((word) => !FUNCTION_WORDS.has(word));
  return { keyword, words: content.length > 0 ? content : [...words], cjk: [...cjk], compact: compact(keyword) };
}

/**
 * Whether `text` contains the keyword. Either its letters and digits appear in a row (case, spaces
 * and hyphens ignored: "pourover" matches "pour over"), or every word of the keyword appears, in any
 * order, within `2 × words + 2` consecutive words of the text, a word and its simple plural (-s,
 * -es, -ies) counting as the same, English number words as digits, and function words ("in",
 * "near", "the", "for", …) not needed. Chinese, Japanese and Korean
 * parts of a keyword are matched as substrings, as those scripts put no spaces between words.
 */
export function containsKeyword(text: string, pattern: KeywordPattern): boolean {
  if (pattern.compact === '') return true;
  const flat = compact(text);
  if (flat.includes(pattern.compact)) return true;
  if (!pattern.cjk.every((part) => flat.includes(part))) return false;
  if (pattern.words.length === 0) return true;
  return withinWindow(tokensOf(text), pattern.words, pattern.words.length * 2 + 2);
}

/** Whether every one of `wanted` occurs in some run of `size` consecutive tokens: one pass, a sliding window. */
function withinWindow(tokens: readonly string[], wanted: readonly string[], size: number): boolean {
  const want = new Set(wanted);
  const inWindow = new Map<string, number>();
  for (let end = 0; end < tokens.length; end++) {
    const entering = tokens[end]!;
    if (want.has(entering)) inWindow.set(entering, (inWindow.get(entering) ?? 0) + 1);
    const leaving = end - size >= 0 ? tokens[end - size]! : undefined;
    if (leaving !== undefined && want.has(leaving)) {
      const left = inWindow.get(leaving)! - 1;
      if (left === 0) inWindow.delete(leaving);
      else inWindow.set(leaving, left);
    }
    if (inWindow.size === want.size) return true;
  }
  return false;
}
