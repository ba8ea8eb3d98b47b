// Links stay within a language: each locale's articles link only to each other, entries without languages only to each other, and a locale may have its own service domain.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { processArticle } from '../../src/pipeline/index.js';
import { articleContext } from '../../src/loader/article-entry.js';
import { localeLinkMaps, settingsOfLocale } from '../../src/loader/locale-links.js';

const { specs } = parseManifest(
  ['articles:', '  - keyword: { English: espresso, German: Espresso Maschine }', '    languages: [English, German]', '  - keyword: { English: milk frother, German: Milchaufschäumer }', '    languages: [English, German]', '  - grinder'].join('\n'),
  'articles.yaml',
);
const url = (slug: string) => `/articles/${slug}/`;

describe('links within a language', () => {
  it('should make one link map per locale, and one for the entries without languages', () => {
    const { links, byLocale } = localeLinkMaps(specs, url, { 'our shop': '/shop/' });
    const slugs = (map: typeof links) => map.entries.map((entry) => entry.slug ?? entry.url);
    expect(slugs(byLocale!.en!)).toEqual(['/shop/', 'en/espresso', 'en/milk-frother']);
    expect(slugs(byLocale!.de!)).toEqual(['/shop/', 'de/espresso-maschine', 'de/milchaufschaeumer']);
    expect(slugs(links)).toEqual(['/shop/', 'grinder']);
  });

  it('should make the one map it always made for a site without languages', () => {
    const { specs: plain } = parseManifest('articles:\n  - espresso\n  - grinder\n', 'articles.yaml');
    const made = localeLinkMaps(plain, url, undefined);
    expect(made.byLocale).toBeUndefined();
    expect(made.links.entries.map((entry) => entry.slug)).toEqual(['espresso', 'grinder']);
  });

  it('should link a German article only to German articles', async () => {
    const { links, byLocale } = localeLinkMaps(specs, url, undefined);
    const site = { links, byLocale: Object.fromEntries(Object.entries(byLocale!).map(([locale, map]) => [locale, { links: map }])) };
    const german = specs.find((spec) => spec.slug === 'de/espresso-maschine')!;
    const html = '<p>Ein Milchaufschäumer passt zur Espresso Maschine, auch zum milk frother und grinder.</p>';
    const { links: made } = await processArticle(html, articleContext(site, { ...german, url: url(german.slug), locale: 'de' }));
    expect(made.filter((link) => link.internal).map((link) => link.href)).toEqual(['/articles/de/milchaufschaeumer/']);
  });

  it('should give a locale its own service domain, and the others the shared one', () => {
    type ServiceLinks = NonNullable<Parameters<typeof settingsOfLocale>[0]['serviceLinks']>;
    const shared = { domainId: 'main' } as ServiceLinks;
    const site = { serviceLinks: shared, byLocale: { de: { serviceLinks: { domainId: 'main-de' } as ServiceLinks } } };
    expect(settingsOfLocale(site, 'de').serviceLinks?.domainId).toBe('main-de');
    expect(settingsOfLocale(site, 'en').serviceLinks?.domainId).toBe('main');
    expect(settingsOfLocale(site, undefined)).not.toHaveProperty('byLocale');
  });
});
