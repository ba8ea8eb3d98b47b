// articleAlternates: each translation's absolute URL by Astro's i18n routing, itself and x-default included; alternateLinkTags: the same as escaped <link> tags.
import { describe, expect, it } from 'vitest';
import { AlternatesError, alternateLinkTags, articleAlternates, type AlternatesEntry } from '../../src/index.js';

const translations = { en: 'en/pour-over-coffee', de: 'de/pour-over-kaffee', ar: 'ar/qhwt-albwr-awfr' };
const german: AlternatesEntry = { id: 'de/pour-over-kaffee', data: { locale: 'de', translations, translationKey: 'pour-over-coffee' } };
const site = 'https://brew.example';

describe('articleAlternates', () => {
  it('should give every translation, itself included, and x-default, each prefixed by its locale without an i18n config', () => {
    expect(articleAlternates(german, { site })).toEqual([
      { hreflang: 'en', href: 'https://brew.example/en/pour-over-coffee/' },
      { hreflang: 'de', href: 'https://brew.example/de/pour-over-kaffee/' },
      { hreflang: 'ar', href: 'https://brew.example/ar/qhwt-albwr-awfr/' },
      { hreflang: 'x-default', href: 'https://brew.example/de/pour-over-kaffee/' },
    ]);
  });

  it("should leave out the default locale's prefix and point x-default at its translation, as Astro's i18n routing does", () => {
    const i18n = { locales: ['en', 'de', 'ar'], defaultLocale: 'en' };
    expect(articleAlternates(german, { site, i18n })).toEqual([
      { hreflang: 'en', href: 'https://brew.example/pour-over-coffee/' },
      { hreflang: 'de', href: 'https://brew.example/de/pour-over-kaffee/' },
      { hreflang: 'ar', href: 'https://brew.example/ar/qhwt-albwr-awfr/' },
      { hreflang: 'x-default', href: 'https://brew.example/pour-over-coffee/' },
    ]);
  });

  it('should prefix the default locale too with prefixDefaultLocale, given at the top or under routing as in astro.config', () => {
    const top = articleAlternates(german, { site, i18n: { locales: ['en', 'de', 'ar'], defaultLocale: 'en', prefixDefaultLocale: true } });
    const routing = articleAlternates(german, { site, i18n: { locales: ['en', 'de', 'ar'], defaultLocale: 'en', routing: { prefixDefaultLocale: true } } });
    expect(top).toEqual(routing);
    expect(top[0]).toEqual({ hreflang: 'en', href: 'https://brew.example/en/pour-over-coffee/' });
    expect(top.at(-1)).toEqual({ hreflang: 'x-default', href: 'https://brew.example/en/pour-over-coffee/' });
  });

  it("should use a { path, codes } locale's path as the prefix and keep the entry's code as hreflang, matching codes as Astro does (case, _ and -)", () => {
    const entry: AlternatesEntry = { id: 'pt-BR/cafe-coado', data: { locale: 'pt-BR', translations: { en: 'en/pour-over-coffee', 'pt-BR': 'pt-BR/cafe-coado' } } };
    const i18n = { locales: ['en', { path: 'portugues', codes: ['pt_BR', 'pt'] }], defaultLocale: 'portugues' };
    expect(articleAlternates(entry, { site, i18n })).toEqual([
      { hreflang: 'en', href: 'https://brew.example/en/pour-over-coffee/' },
      { hreflang: 'pt-BR', href: 'https://brew.example/cafe-coado/' },
      { hreflang: 'x-default', href: 'https://brew.example/cafe-coado/' },
    ]);
  });

  it('should put base before every path and let path(page) give the part after the prefix', () => {
    const i18n = { locales: ['en', 'de', 'ar'], defaultLocale: 'en' };
    const alternates = articleAlternates(german, { site, base: '/docs', i18n, path: ({ slug, key, locale, id }) => `articles/${slug}/?key=${key}&locale=${locale}&id=${id}` });
    expect(alternates[1]).toEqual({ hreflang: 'de', href: 'https://brew.example/docs/de/articles/pour-over-kaffee/?key=pour-over-coffee&locale=de&id=de/pour-over-kaffee' });
    const plain = articleAlternates(german, { site, base: '/docs/', i18n, path: ({ slug }) => `articles/${slug}` });
    expect(plain.map(({ href }) => href)).toEqual([
      'https://brew.example/docs/articles/pour-over-coffee',
      'https://brew.example/docs/de/articles/pour-over-kaffee',
      'https://brew.example/docs/ar/articles/qhwt-albwr-awfr',
      'https://brew.example/docs/articles/pour-over-coffee',
    ]);
  });

  it("should point x-default at the entry itself when no translation is in the default locale, and list itself when translations lacks it", () => {
    const alone: AlternatesEntry = { id: 'ja/koohii', data: { locale: 'ja', translations: {} } };
    expect(articleAlternates(alone, { site, i18n: { locales: ['en', 'ja'], defaultLocale: 'en' } })).toEqual([
      { hreflang: 'ja', href: 'https://brew.example/ja/koohii/' },
      { hreflang: 'x-default', href: 'https://brew.example/ja/koohii/' },
    ]);
  });

  it('should leave out the translations without a page (a draft, a failed article) when told which have one, never the entry itself', () => {
    const i18n = { locales: ['en', 'de', 'ar'], defaultLocale: 'en' };
    const built = new Set(['ar/qhwt-albwr-awfr']);
    expect(articleAlternates(german, { site, i18n, hasPage: (id) => built.has(id) })).toEqual([
      { hreflang: 'de', href: 'https://brew.example/de/pour-over-kaffee/' },
      { hreflang: 'ar', href: 'https://brew.example/ar/qhwt-albwr-awfr/' },
      // No English page: x-default falls back to the entry itself.
      { hreflang: 'x-default', href: 'https://brew.example/de/pour-over-kaffee/' },
    ]);
  });

  it('should give an entry without a locale (a site without languages) no alternates', () => {
    expect(articleAlternates({ id: 'pour-over-coffee', data: { locale: null, translations: {} } }, { site })).toEqual([]);
  });

  it("should refuse a translation in a locale Astro's i18n does not route, naming the entry, the locale and what to do", () => {
    let error: unknown;
    try {
      articleAlternates(german, { site, i18n: { locales: ['en', { path: 'deutsch', codes: ['de'] }], defaultLocale: 'en' } });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AlternatesError);
    expect(error).toMatchObject({ code: 'alternate_locale_not_routed' });
    expect((error as Error).message).toContain('entry "de/pour-over-kaffee" has a translation in locale "ar"');
    expect((error as Error).message).toContain('i18n.locales (en, deutsch (de))');
    expect((error as Error).message).toContain('Add "ar" to i18n.locales in astro.config');
  });
});

describe('alternateLinkTags', () => {
  it('should write one escaped <link rel="alternate"> per alternate', () => {
    expect(alternateLinkTags([{ hreflang: 'de', href: 'https://brew.example/de/a/?x=1&y="2"' }, { hreflang: 'x-default', href: 'https://brew.example/a/' }])).toEqual([
      '<link rel="alternate" hreflang="de" href="https://brew.example/de/a/?x=1&amp;y=&quot;2&quot;">',
      '<link rel="alternate" hreflang="x-default" href="https://brew.example/a/">',
    ]);
  });
});
