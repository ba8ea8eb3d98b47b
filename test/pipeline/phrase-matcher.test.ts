// The phrase matcher against its definition: a brute-force search of every span and phrase, on seeded mixed-script text.

import { describe, expect, test } from 'vitest';
import type { LinkEntry } from '../../src/pipeline/link-map.js';
import { compilePhrases, foldPhrase, type PhraseMatch } from '../../src/pipeline/phrase-matcher.js';

const PHRASES = [
  'coffee', 'coffee grinder', 'coffee grind', 'grinder', 'café', 'caf', 'über', 'Übersicht', 'Straße', 'οδος', 'οδοσημανση',
  '煎茶', '東京', 'iPhone', 'C++', 'Node.js (LTS)', '🙂 party', 'party', 'a b c', 'COFFEE', 'kaffee',
];
const ENTRIES: LinkEntry[] = PHRASES.map((phrase, index) => ({ phrase, url: `/p/${index}/` }));

// The text is built from these: phrases in several casings, near misses, and every kind of separator.
const WORDS = [
  ...PHRASES.flatMap((phrase) => [phrase, phrase.toUpperCase(), phrase.toLowerCase()]),
  'Coffee', 'GRINDER', 'Filterkaffee', 'coffeegrinder', 'écoffee', 'coffeeé', 'ſtraße', 'STRASSE', 'ΟΔΟΣ', 'ΟΔΟΣΗΜΑΝΣΗ', 'οδοσ',
  'Kaffee', 'caféine', '煎茶は', 'で', '𝒜coffee', 'coffee𝒜', '_coffee', 'coffee_', '2coffee', 'party🙂',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', '\u00a0', ', ', '. ', '-', '', '\t '];

/** Letters, digits, marks and _ of scripts written with spaces: the definition of a word character. */
const WORD_CHAR = /^(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC])[\p{L}\p{N}\p{M}_]$/u;

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

function wordChar(text: string, index: number): boolean {
  const code = text.codePointAt(index);
  return code !== undefined && WORD_CHAR.test(String.fromCodePoint(code));
}

function codePointBefore(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

/**
 * The rules, spelled out: the earliest position where a usable phrase matches (case-insensitively,
 * any white space for a space), starting and ending on word boundaries; the longest one there.
 */
function reference(text: string, from: number, usable: (entry: LinkEntry) => boolean): PhraseMatch | undefined {
  const phrases = new Map<string, { entry: LinkEntry; pattern: RegExp }>();
  for (const entry of ENTRIES) {
    const fold = foldPhrase(entry.phrase.trim());
    if (phrases.has(fold)) continue;
    const source = fold.split(' ').map((word) => word.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&')).join(String.raw`\s+`);
    phrases.set(fold, { entry, pattern: new RegExp(`^${source}$`, 'iu') });
  }
  for (let start = from; start < text.length; start++) {
    if (codePointBefore(text, start + 1) !== start) continue; // the second half of a surrogate pair
    if (start > 0 && wordChar(text, start) && wordChar(text, codePointBefore(text, start))) continue;
    for (let end = text.length; end > start; end--) {
      if (end < text.length && wordChar(text, end) && wordChar(text, codePointBefore(text, end))) continue;
      const span = text.slice(start, end);
      const phrase = phrases.get(foldPhrase(span));
      if (phrase && phrase.pattern.test(span) && usable(phrase.entry)) return { index: start, end, entry: phrase.entry };
    }
  }
  return undefined;
}

describe('compilePhrases', () => {
  test('should find, match after match, what a brute-force search of every span and phrase finds', () => {
    const matcher = compilePhrases(ENTRIES);
    const next = random(20_240_601);
    const differences: string[] = [];
    let matches = 0;
    for (let round = 0; round < 400; round++) {
      let text = '';
      const words = 3 + Math.floor(next() * 8);
      for (let i = 0; i < words; i++) text += WORDS[Math.floor(next() * WORDS.length)]! + SEPARATORS[Math.floor(next() * SEPARATORS.length)]!;
      const unusable = new Set(ENTRIES.filter(() => next() < 0.3));
      const usable = (entry: LinkEntry): boolean => !unusable.has(entry);
      for (let from = 0; ; ) {
        const found = matcher.find(text, from, usable);
        const expected = reference(text, from, usable);
        if (JSON.stringify(found) !== JSON.stringify(expected)) {
          differences.push(`${JSON.stringify(text)} from ${from}: found ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
          break;
        }
        if (found === undefined) break;
        matches += 1;
        from = found.end;
      }
    }
    expect(differences).toEqual([]);
    // The corpus must have exercised the rules, not just found nothing.
    expect(matches).toBeGreaterThan(400);
  });

  test('should not start a phrase right after a letter outside ASCII', () => {
    const matcher = compilePhrases([{ phrase: 'spresso', url: '/s/' }]);
    expect(matcher.find('éspresso, then spresso', 0, () => true)?.index).toBe(15);
  });

  test('should link a Greek phrase whose lower case ends in a final sigma, and a longer phrase through that letter', () => {
    const matcher = compilePhrases([
      { phrase: 'ΟΔΟΣ', url: '/road/' },
      { phrase: 'ΟΔΟΣΗΜΑΝΣΗ', url: '/road-signs/' },
    ]);
    expect(matcher.find('Η ΟΔΟΣ και η ΟΔΟΣΗΜΑΝΣΗ', 0, () => true)).toMatchObject({ index: 2, end: 6, entry: { url: '/road/' } });
    expect(matcher.find('Η ΟΔΟΣ και η ΟΔΟΣΗΜΑΝΣΗ', 6, () => true)).toMatchObject({ index: 13, end: 23, entry: { url: '/road-signs/' } });
  });

  test('should keep the first of two phrases that fold the same', () => {
    const matcher = compilePhrases([
      { phrase: 'Coffee  Grinder', url: '/first/' },
      { phrase: 'coffee grinder', url: '/second/' },
    ]);
    expect(matcher.find('a coffee grinder', 0, () => true)?.entry.url).toBe('/first/');
  });

  test('should match phrases made of characters outside the Basic Multilingual Plane', () => {
    const matcher = compilePhrases([{ phrase: '𝒜𝒷𝒸', url: '/script/' }]);
    expect(matcher.find('x 𝒜𝒷𝒸 y', 0, () => true)).toMatchObject({ index: 2, end: 8 });
  });
});
