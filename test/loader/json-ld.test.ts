// articleJsonLd: a schema.org Article from an entry's data, a FAQPage when it has a FAQ, safe to put in a script element.
import { describe, expect, it } from 'vitest';
import { articleJsonLd, jsonLdScript } from '../../src/index.js';

const data = {
  title: 'How to Lace Boots',
  description: 'Lacing boots well keeps heels in place.',
  wordCount: 812,
  keyword: 'how to lace boots',
  createdAt: new Date('2026-11-01T10:00:00Z'),
  updatedAt: new Date('2026-11-02T10:00:00Z'),
  publishDate: null,
  image: { src: '/_articles/ab12.webp', alt: 'Laced boots', width: 1024, height: 683 },
  faq: [] as { question: string; answer: string }[],
};

describe('articleJsonLd', () => {
  it('should describe the article with absolute URLs and the dates it knows', () => {
    const [article, ...rest] = articleJsonLd({ id: 'how-to-lace-boots', data }, { site: 'https://boots.example', publisher: 'Boots Weekly' });
    expect(rest).toEqual([]);
    expect(article).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: 'How to Lace Boots',
      description: 'Lacing boots well keeps heels in place.',
      keywords: 'how to lace boots',
      wordCount: 812,
      url: 'https://boots.example/how-to-lace-boots/',
      mainEntityOfPage: 'https://boots.example/how-to-lace-boots/',
      datePublished: '2026-11-01T10:00:00.000Z',
      dateModified: '2026-11-02T10:00:00.000Z',
      image: { '@type': 'ImageObject', url: 'https://boots.example/_articles/ab12.webp', width: 1024, height: 683 },
      publisher: { '@type': 'Organization', name: 'Boots Weekly' },
    });
  });

  it("should use the cover for image: the generated card of an article without images", () => {
    const card = { src: '/_articles/covers/how-to-lace-boots-0123456789abcdef.png', alt: 'How to Lace Boots', width: 1200, height: 630, generated: true };
    const [article] = articleJsonLd({ id: 'how-to-lace-boots', data: { ...data, image: null, cover: card } }, { site: 'https://boots.example' });
    expect(article!.image).toEqual({ '@type': 'ImageObject', url: 'https://boots.example/_articles/covers/how-to-lace-boots-0123456789abcdef.png', width: 1200, height: 630 });
    const [bare] = articleJsonLd({ data: { ...data, image: null, cover: null } }, { site: 'https://boots.example' });
    expect(bare).not.toHaveProperty('image');
  });

  it('should prefer the publish date, and add a FAQPage for an article with a FAQ', () => {
    const withFaq = { ...data, publishDate: new Date('2026-12-01T00:00:00Z'), faq: [{ question: 'Do laces matter?', answer: 'Yes, for fit.' }] };
    const [article, faq] = articleJsonLd({ data: withFaq }, { site: new URL('https://boots.example'), url: 'https://boots.example/guides/lace/' });
    expect(article).toMatchObject({ datePublished: '2026-12-01T00:00:00.000Z', url: 'https://boots.example/guides/lace/' });
    expect(faq).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      url: 'https://boots.example/guides/lace/',
      mainEntity: [{ '@type': 'Question', name: 'Do laces matter?', acceptedAnswer: { '@type': 'Answer', text: 'Yes, for fit.' } }],
    });
  });

  it('should serialize so that no text can close the script element', () => {
    const hostile = { ...data, title: '</script><script>alert(1)</script>' };
    const text = jsonLdScript(articleJsonLd({ id: 'x', data: hostile }, { site: 'https://boots.example' }));
    expect(text).not.toContain('</script');
    expect(JSON.parse(text)[0].headline).toBe('</script><script>alert(1)</script>');
  });

  it('should leave the JSON-LD of an entry without a locale exactly as it was before languages', () => {
    const options = { site: 'https://boots.example', publisher: 'Boots Weekly', i18n: { locales: ['en', 'de'], defaultLocale: 'en' } };
    const before = articleJsonLd({ id: 'how-to-lace-boots', data }, options);
    expect(articleJsonLd({ id: 'how-to-lace-boots', data: { ...data, locale: null, translations: {}, translationKey: null } }, options)).toEqual(before);
    expect(Object.keys(before[0]!)).not.toContain('inLanguage');
    expect(Object.keys(before[0]!)).not.toContain('@id');
  });

  it("should give a translated article its language, its URL as @id and its other translations as workTranslation by their URLs", () => {
    const translations = { en: 'en/how-to-lace-boots', de: 'de/stiefel-schnueren', ar: 'ar/rbt-alahdhyt' };
    const german = { id: 'de/stiefel-schnueren', data: { ...data, locale: 'de', translations, translationKey: 'how-to-lace-boots' } };
    const i18n = { locales: ['en', 'de', 'ar'], defaultLocale: 'en' };
    const [article] = articleJsonLd(german, { site: 'https://boots.example', i18n, path: ({ slug }) => `articles/${slug}/` });
    expect(article).toMatchObject({
      '@id': 'https://boots.example/de/articles/stiefel-schnueren/',
      url: 'https://boots.example/de/articles/stiefel-schnueren/',
      inLanguage: 'de',
      workTranslation: [{ '@id': 'https://boots.example/articles/how-to-lace-boots/' }, { '@id': 'https://boots.example/ar/articles/rbt-alahdhyt/' }],
    });
    expect(article).not.toHaveProperty('translationOfWork');
    // The page's own URL wins when given; an article alone in its group links no translation.
    const [alone] = articleJsonLd({ id: 'ja/kutsu', data: { ...data, locale: 'ja', translations: { ja: 'ja/kutsu' } } }, { site: 'https://boots.example', url: '/ja/kutsu/' });
    expect(alone).toMatchObject({ '@id': 'https://boots.example/ja/kutsu/', inLanguage: 'ja' });
    expect(alone).not.toHaveProperty('workTranslation');
  });
});
