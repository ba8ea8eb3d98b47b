// Slugs: derived from the keyword alone, transliterated or kept in their own script, and refused when unsafe.
import slugify from '@sindresorhus/slugify';
import { describe, expect, it } from 'vitest';
import { deriveSlug, validateSlug } from '../../src/manifest/index.js';

describe('deriveSlug', () => {
  it('should lower-case and join words with "-"', () => {
    expect(deriveSlug('  Best Running Shoes  ')).toBe('best-running-shoes');
  });

  it('should transliterate German umlauts and ß', () => {
    expect(deriveSlug('Größe Schuhe für Männer')).toBe('groesse-schuhe-fuer-maenner');
  });

  it('should transliterate accents and Cyrillic', () => {
    expect(deriveSlug('Déjà vu')).toBe('deja-vu');
    expect(deriveSlug('Москва отели')).toBe('moskva-oteli');
  });

  it('should keep brand names whole instead of splitting camel case', () => {
    expect(deriveSlug('iPhone 15 cases')).toBe('iphone-15-cases');
    expect(deriveSlug('YouTube SEO')).toBe('youtube-seo');
  });

  it('should keep Japanese as written, since it has no Latin transliteration', () => {
    expect(deriveSlug('東京 ラーメン おすすめ')).toBe('東京-ラーメン-おすすめ');
  });

  it('should keep every word of a mixed Japanese and Latin keyword, width forms folded', () => {
    expect(deriveSlug('ｉＰｈｏｎｅ　15 ケース')).toBe('iphone-15-ケース');
  });

  it('should keep the combining marks of scripts such as Devanagari', () => {
    expect(deriveSlug('कृत्रिम बुद्धि')).toBe('कृत्रिम-बुद्धि');
  });

  it('should give a keyword of plain ASCII words the slug the library gives it, without the library', () => {
    // deriveSlug makes these itself (PLAIN_KEYWORD); the library's own result is the reference, for every case and separator.
    let seed = 42;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const keywords = ['APIs guide', 'FOO360 bar', 'iPhone 15 cases', 'e-bike tips', 'Top-10 SEO tools 2026', 'x', '0'];
    for (let i = 0; i < 2000; i++) {
      const words = Array.from({ length: 1 + next(6) }, () => Array.from({ length: 1 + next(9) }, () => letters[next(letters.length)]).join(''));
      keywords.push(words.reduce((text, word) => `${text}${next(3) === 0 ? '-' : ' '}${word}`));
    }
    for (const keyword of keywords) expect(deriveSlug(keyword), keyword).toBe(slugify(keyword, { decamelize: false }));
    expect(deriveSlug('Top-10 SEO tools 2026')).toBe('top-10-seo-tools-2026');
  });

  it('should give the same slug for the same keyword every time', () => {
    expect(deriveSlug('Größe Schuhe für Männer')).toBe(deriveSlug('Größe Schuhe für Männer'));
    expect(deriveSlug('東京 ラーメン')).toBe(deriveSlug('東京 ラーメン'));
  });

  it('should give the same slug for canonically equal spellings (NFC and NFD)', () => {
    expect(deriveSlug('Mu\u0308nchen')).toBe(deriveSlug('M\u00fcnchen'));
  });

  it('should return an empty string when the keyword has nothing to make a slug from', () => {
    expect(deriveSlug('!!! ???')).toBe('');
  });

  it('should always derive a safe slug from an ordinary keyword', () => {
    for (const keyword of ['a/b c', '..', 'C:\\path', 'tab\there', 'Ärger & Freude', '東京/大阪']) {
      const slug = deriveSlug(keyword);
      expect(slug === '' || validateSlug(slug) === undefined, `${keyword} → ${slug}`).toBe(true);
    }
  });
});

describe('validateSlug', () => {
  it('should accept letters, digits, "-", "_" and "." in any script', () => {
    for (const slug of ['best-shoes', 'Hand-Made_Slug.v2', '東京-ラーメン', 'groesse-2024']) expect(validateSlug(slug)).toBeUndefined();
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['a/b', 'contains "/"'],
    ['a\\b', 'contains "\\"'],
    ['../x', 'contains ".."'],
    ['a..b', 'contains ".."'],
    ['a\nb', 'control character U+000A'],
    ['a\u200bb', 'control character U+200B'],
    ['a b', 'contains whitespace'],
    ['.hidden', 'starts with "."'],
    ['-dash', 'must start with a letter or a digit'],
    ['trailing.', 'ends with "."'],
    ['what?', 'contains "?"'],
    ['100%', 'contains "%"'],
    ['index', 'is reserved'],
    ['Index', 'is reserved'],
    ['nul', 'is reserved'],
    ['com1.html', 'is reserved'],
    ['a'.repeat(201), 'is 201 characters long'],
    ['東'.repeat(84), 'is 252 bytes in UTF-8'],
  ])('should refuse %j: %s', (slug, reason) => {
    expect(validateSlug(slug)).toContain(reason);
  });

  it('should accept a slug of exactly 200 characters', () => {
    expect(validateSlug('a'.repeat(200))).toBeUndefined();
  });

  it('should accept names that only start like reserved ones', () => {
    expect(validateSlug('index-of-shoes')).toBeUndefined();
    expect(validateSlug('console')).toBeUndefined();
    expect(validateSlug('index.v2')).toBeUndefined();
  });
});
