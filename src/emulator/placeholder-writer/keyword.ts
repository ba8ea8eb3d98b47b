// Reading a target keyword the way a writer would: its subject and a city it names (the count it states is the service's rule: contract/item-count.ts).

const LEADING_FILLER = /^(?:(?:the|best|top|greatest|\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+)+/i;

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
