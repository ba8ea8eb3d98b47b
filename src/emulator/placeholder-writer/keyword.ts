// Reading a target keyword the way a writer would: its subject and a city it names (the count it states is the service's rule: contract/item-count.ts).

const LEADING_FILLER = /^(?:(?:the|best|top|greatest|\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty)\s+)+/i;

/** The subject of a keyword, without "best", "top" and counts: "best 7 hiking trails" → "hiking trails". */
export function topicOfKeyword(keyword: string): string {
  const trimmed = keyword.trim().replace(/\s+/g, ' ');
  const place = CITY_AT_END.exec(trimmed);
  const withoutCity = place !== null && cityOfKeyword(trimmed) !== undefined ? trimmed.slice(0, place.index) : trimmed;
  const topic = withoutCity.replace(LEADING_FILLER, '').trim();
  return topic.length > 0 ? topic : trimmed;
}

/** "… in Berlin", "… near lyon", "… in new york": one to three words after the last "in"/"near". */
const CITY_AT_END = /\s(?:in|near)\s+([\p{L}][\p{L}.'-]*(?:\s[\p{L}][\p{L}.'-]*){0,2})\s*$/u;
/** Words that start a phrase, not a place name: "in the morning", "in a french press", "near me". */
const NOT_A_PLACE = /^(?:a|an|the|my|your|our|me|you|it|this|that|winter|summer|spring|autumn|fall|cold|hot|one|two|under|less|bulk)\b/i;

/** A city named as "… in Berlin" / "… near lyon" at the end of a keyword, in title case; lower case is how keywords are typed. */
export function cityOfKeyword(keyword: string): string | undefined {
  const name = CITY_AT_END.exec(keyword.trim())?.[1];
  if (name === undefined || NOT_A_PLACE.test(name)) return undefined;
  return name.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);

/** English title case: "how to bake sourdough" → "How to Bake Sourdough". */
export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word, index) =>
      index > 0 && SMALL_WORDS.has(word.toLowerCase()) ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}

/** Upper-case the first letter only. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A naive English singular, good enough for "hiking trails" → "hiking trail". */
export function singular(text: string): string {
  if (/ies$/i.test(text)) return text.replace(/ies$/i, 'y');
  if (/(?:ss|us|is)$/i.test(text)) return text;
  return text.replace(/s$/i, '');
}

/** English number words a keyword may spell out where a title writes digits ("ten tips" → "10 Tips"). */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17',
  eighteen: '18', nineteen: '19', twenty: '20',
};
/** Words a writer may rephrase ("near" → "in"); the others of a keyword must all be there. */
export const LINKING_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'the', 'in', 'near', 'at', 'on', 'of', 'for', 'to', 'with', 'and', 'or', 'vs', 'versus', 'by', 'from']);
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** A word as a reader compares it: lower case, without a simple plural ending, a number word as digits. */
export function wordKey(word: string): string {
  const lower = word.toLowerCase();
  const number = NUMBER_WORDS[lower];
  if (number !== undefined) return number;
  if (lower.length <= 3 || /\d/.test(lower)) return lower;
  if (lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  if (/(?:s|x|z|ch|sh)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith('s') && !/(?:ss|us|is)$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

export function wordsOf(text: string): string[] {
  return text.normalize('NFKC').match(WORD) ?? [];
}

/**
 * Whether `text` says the keyword as a reader (and a search engine) would accept: its letters and
 * digits in a row, or each of its words (a plural for a singular, digits for a number word, linking
 * words like "in" or "vs" aside) within a run of `2 × words + 2` words. The writer puts the keyword
 * in the title, or its first paragraph, by this rule: never stricter than a site's quality check.
 */
export function mentionsKeyword(text: string, keyword: string): boolean {
  const flat = wordsOf(text).join('').toLowerCase();
  const wanted = wordsOf(keyword);
  if (wanted.length === 0 || flat.includes(wanted.join('').toLowerCase())) return true;
  const keys = new Set(wanted.map(wordKey).filter((key) => !LINKING_WORDS.has(key)));
  // A keyword in a script without spaces (Japanese, Chinese) has no words to look for one by one.
  if (keys.size === 0 || wanted.some((word) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word))) return false;
  const words = wordsOf(text).map(wordKey);
  const size = keys.size * 2 + 2;
  return words.some((_, start) => [...keys].every((key) => words.slice(start, start + size).includes(key)));
}
