// `languages` in the manifest: one spec per (entry, language), with its keyword, parameters, locale, direction and id.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest } from '../../src/manifest/index.js';
import { checkedLocale, LOCALE_TABLE, tableLocale, textDirection } from '../../src/manifest/locales.js';

const yaml = (...lines: string[]) => parseManifest(`${lines.join('\n')}\n`, 'articles.yaml');
const problems = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ManifestError) return error.message.split('\n').slice(1).map((line) => line.trim());
    throw error;
  }
  throw new Error('expected a ManifestError');
};

describe('the locale table', () => {
  it('should map every name to a code Node knows, in canonical form', () => {
    for (const [name, code] of Object.entries(LOCALE_TABLE)) expect(checkedLocale(code), name).toEqual({ locale: code });
  });

  it('should be the table docs/languages.md shows', () => {
    const doc = readFileSync(new URL('../../docs/languages.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('<!-- locale-table:start -->'), doc.indexOf('<!-- locale-table:end -->'));
    const rows = [...table.matchAll(/^\| (.+?) \| `(.+?)` \|$/gmu)].map((match) => [match[1], match[2]]);
    expect(rows).toEqual(Object.entries(LOCALE_TABLE));
  });

  it('should match names ignoring case and spacing', () => {
    expect(tableLocale(' brazilian   portuguese ')).toBe('pt-BR');
    expect(tableLocale('Traditional Chinese')).toBe('zh-Hant');
    expect(tableLocale('Elvish')).toBeUndefined();
  });

  it('should say Arabic, Hebrew, Persian and Urdu run right to left, and the others not', () => {
    for (const code of ['ar', 'he', 'fa', 'ur']) expect(textDirection(code)).toBe('rtl');
    for (const code of ['en', 'de', 'ja', 'zh-Hant', 'ru', 'tlh']) expect(textDirection(code)).toBe('ltr');
  });

  it('should refuse a malformed code and an unknown language', () => {
    expect(checkedLocale('EN-gb')).toEqual({ locale: 'en-GB' });
    expect(checkedLocale('english!')).toHaveProperty('problem');
    expect(checkedLocale('xx')).toHaveProperty('problem');
  });
});

describe('an entry with languages', () => {
  it('should make one spec per language, with its keyword, parameters, locale and id', () => {
    const { specs } = yaml(
      'defaults:',
      '  languages: [English, German, Arabic]',
      'articles:',
      '  - keyword: { English: pour over coffee, German: Pour-over-Kaffee, Arabic: قهوة مقطرة }',
      '    title: { German: Kaffee von Hand }',
    );
    expect(specs.map((spec) => [spec.slug, spec.keyword, spec.request.language, spec.request.title, spec.translation?.dir])).toEqual([
      ['en/pour-over-coffee', 'pour over coffee', 'English', undefined, 'ltr'],
      ['de/pour-over-kaffee', 'Pour-over-Kaffee', 'German', 'Kaffee von Hand', 'ltr'],
      ['ar/قهوة-مقطرة', 'قهوة مقطرة', 'Arabic', undefined, 'rtl'],
    ]);
    for (const spec of specs) {
      expect(spec.translation).toMatchObject({ key: 'pour-over-coffee', keywordFallback: false, translations: { en: 'en/pour-over-coffee', de: 'de/pour-over-kaffee', ar: 'ar/قهوة-مقطرة' } });
    }
  });

  it('should send the entry keyword in a language that has none of its own, and say so', () => {
    const { specs } = yaml('articles:', '  - keyword: best grinder', '    languages: [English, Japanese]');
    expect(specs.map((spec) => [spec.slug, spec.keyword, spec.request.language, spec.translation?.keywordFallback])).toEqual([
      ['en/best-grinder', 'best grinder', 'English', false],
      ['ja/best-grinder', 'best grinder', 'Japanese', true],
    ]);
  });

  it('should follow the manifest id pattern and keep Unicode slugs when asked', () => {
    const { specs } = yaml('translations:', '  id: "{key}-{locale}"', '  slugs: unicode', 'articles:', '  - keyword: { English: moscow hotels, Russian: москва отели }', '    languages: [English, Russian]');
    expect(specs.map((spec) => spec.slug)).toEqual(['moscow-hotels-en', 'moscow-hotels-ru']);
    const { specs: own } = yaml('translations:', '  slugs: unicode', 'articles:', '  - keyword: { English: moscow hotels, Russian: москва отели }', '    languages: [English, Russian]');
    expect(own.map((spec) => spec.slug)).toEqual(['en/moscow-hotels', 'ru/москва-отели']);
  });

  it('should take locale for a language the table lacks', () => {
    const { specs } = yaml('articles:', '  - keyword: best grinder', '    languages: [English, Klingon]', '    locale: { Klingon: tlh }');
    expect(specs.map((spec) => spec.slug)).toEqual(['en/best-grinder', 'tlh/best-grinder']);
  });

  it('should read keyword.<Language> columns and a languages column from a CSV', () => {
    const { specs } = parseManifest('keyword,languages,keyword.German,title.German\nbest trail shoes,English; German,Laufschuhe,Die Schuhe\n', 'articles.csv');
    expect(specs.map((spec) => [spec.slug, spec.keyword, spec.request.title])).toEqual([
      ['en/best-trail-shoes', 'best trail shoes', undefined],
      ['de/laufschuhe', 'Laufschuhe', 'Die Schuhe'],
    ]);
  });

  it('should allow the same keyword in two languages (two searches), but not two ids in one locale', () => {
    expect(yaml('articles:', '  - keyword: marketing', '    languages: [English, German]').specs).toHaveLength(2);
    expect(problems(() => yaml('defaults:', '  languages: [English, German]', 'articles:', '  - keyword: { English: a, German: b }', '  - keyword: { English: c, German: B! }'))).toEqual([
      'articles.yaml:5 articles[1] "B!" → slug: "de/b" is also the id, in German, of articles[0] "b" in German (line 4); ids must be unique (case is ignored), so add a different `slug:` to one of them',
    ]);
  });

  it('should refuse each mistake once, naming the entry and the field', () => {
    expect(problems(() => yaml('articles:', '  - keyword: a', '    languages: [English, English]'))).toEqual(['articles.yaml:3 articles[0] "a" → languages: lists "English" twice (as "English" before); give each language once']);
    expect(problems(() => yaml('articles:', '  - keyword: a', '    language: German', '    languages: [English]'))[0]).toContain('→ language: is given with `languages`');
    expect(problems(() => yaml('articles:', '  - keyword: { German: a }'))[0]).toContain('→ keyword: is given per language, but the entry has no `languages`');
    expect(problems(() => yaml('articles:', '  - keyword: a', '    languages: [Farsi, Persian]'))[0]).toContain('"Farsi" and "Persian", which are both locale fa');
    expect(problems(() => yaml('translations:', '  id: "{locale}"', 'articles:', '  - a'))[0]).toContain('→ translations.id: must contain {slug} or {key}');
    // A problem every language shares is said once.
    expect(problems(() => yaml('articles:', '  - keyword: a', '    articleType: nope', '    languages: [English, German]'))).toHaveLength(1);
  });
});
