// A real `astro build` of a site in three languages (English, Arabic right to left, Russian in Cyrillic) under Astro's i18n
// routing: a page per keyword and language at its URL, complete and reciprocal hreflang sets with x-default, links within
// a language, dir="rtl" on the Arabic pages, JSON-LD in the page's language, a sitemap whose alternates match the pages, and each
// page's og:image a generated cover card whose pixels show its title (Arabic from the right margin, Cyrillic in its letters).
//
// ONE build (the suite is over its time budget); every case reads what it left in dist/.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Element } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';
import { inkDifference, inkOf, MARGIN, SITE_NAME_AREA, TITLE_AREA } from '../cover/card-pixels.js';
import { directionOf } from '../../src/cover/card-drawing.js';

const SITE = 'https://languages.example';
const LOCALES = ['en', 'ar', 'ru'];
/** The documented URL of an entry id `{locale}/{slug}`: Astro's i18n routing, English (the defaultLocale) without a prefix; an Arabic slug percent-encoded, as a URL carries it. */
const urlOf = (id: string) => {
  const [locale, slug] = id.split('/') as [string, string];
  return new URL(`${SITE}/${locale === 'en' ? '' : `${locale}/`}articles/${slug}/`).href;
};

interface Page {
  id: string;
  url: string;
  locale: string;
  /** The entry's translationKey, which the page shows in a meta tag: the oracle of which pages are one group. */
  key: string | undefined;
  html: { lang: string | undefined; dir: string | undefined };
  /** hreflang → href of the head's <link rel="alternate">. */
  alternates: Record<string, string>;
  /** Every href inside <article>. */
  links: string[];
  /** dir attributes inside <article>. */
  articleDirs: string[];
  /** The text of <article>. */
  text: string;
  jsonLd: Record<string, unknown>[];
  /** The <title>, and the og:image's URL. */
  title: string;
  ogImage: string | undefined;
}

let site: Site;
let build: RunResult;
let ids: string[] = [];
/** The built pages by URL. */
const pages = new Map<string, Page>();

const attr = (node: Element, name: string) => (node.properties[name] === undefined ? undefined : String(node.properties[name]));

function readBuiltPage(text: string, id: string): Page {
  const tree = unified().use(rehypeParse).parse(text);
  const page: Page = { id, url: urlOf(id), locale: id.split('/')[0]!, key: undefined, html: { lang: undefined, dir: undefined }, alternates: {}, links: [], articleDirs: [], text: '', jsonLd: [], title: '', ogImage: undefined };
  visit(tree, 'element', (node) => {
    if (node.tagName === 'meta' && attr(node, 'name') === 'translation-key') page.key = attr(node, 'content');
    if (node.tagName === 'meta' && attr(node, 'property') === 'og:image') page.ogImage = attr(node, 'content');
    if (node.tagName === 'title') visit(node, 'text', (inner) => void (page.title += inner.value));
    if (node.tagName === 'html') page.html = { lang: attr(node, 'lang'), dir: attr(node, 'dir') };
    const rel = node.properties.rel;
    if (node.tagName === 'link' && Array.isArray(rel) && rel.includes('alternate') && attr(node, 'hrefLang') !== undefined) {
      expect(page.alternates, `${page.url}: one link per hreflang`).not.toHaveProperty(attr(node, 'hrefLang')!);
      page.alternates[attr(node, 'hrefLang')!] = attr(node, 'href')!;
    }
    if (node.tagName === 'script' && attr(node, 'type') === 'application/ld+json') {
      const value = node.children[0];
      if (value?.type === 'text') page.jsonLd = JSON.parse(value.value) as Record<string, unknown>[];
    }
    if (node.tagName === 'article') {
      visit(node, 'text', (inner) => void (page.text += inner.value));
      visit(node, 'element', (inner) => {
        if (inner.tagName === 'a' && attr(inner, 'href') !== undefined) page.links.push(attr(inner, 'href')!);
        if (attr(inner, 'dir') !== undefined) page.articleDirs.push(attr(inner, 'dir')!);
      });
    }
  });
  return page;
}

/** The locale a URL of this site belongs to, by its prefix. */
function localeOfUrl(url: string): string {
  const [first] = new URL(url, SITE).pathname.split('/').filter(Boolean);
  return LOCALES.includes(first!) ? first! : 'en';
}

/** The sitemap's entries: url → hreflang → href of its xhtml:link alternates. */
async function sitemapEntries(): Promise<Map<string, Record<string, string>>> {
  const xml = await readFile(join(site.root, 'dist/sitemap-0.xml'), 'utf8');
  const entries = new Map<string, Record<string, string>>();
  for (const [, body] of xml.matchAll(/<url>(.*?)<\/url>/gs)) {
    const loc = /<loc>(.*?)<\/loc>/.exec(body!)![1]!;
    const links: Record<string, string> = {};
    for (const [, hreflang, href] of body!.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)) links[hreflang!] = href!;
    entries.set(loc, links);
  }
  return entries;
}

beforeAll(async () => {
  await buildPackage();
  site = await createSite('languages');
  build = await astro(site.root, ['build']);
  if (build.code !== 0) return;
  // The lock file's keys are the entry ids.
  ids = Object.keys((JSON.parse(await readFile(join(site.root, 'articles.lock.json'), 'utf8')) as { articles: Record<string, unknown> }).articles).sort();
  for (const id of ids) {
    const file = join(site.root, 'dist', decodeURIComponent(new URL(urlOf(id)).pathname), 'index.html');
    if (existsSync(file)) pages.set(urlOf(id), readBuiltPage(await readFile(file, 'utf8'), id));
  }
}, 300_000);

afterAll(async () => {
  await site?.cleanup();
});

describe('a site in three languages built with Astro i18n routing', () => {
  it('should build one page per keyword and language at the documented URL, its id transliterated from Cyrillic and kept in Arabic script', () => {
    expect(build.code, build.output).toBe(0);
    expect(ids).toHaveLength(9);
    for (const locale of LOCALES) expect(ids.filter((id) => id.startsWith(`${locale}/`)), locale).toHaveLength(3);
    expect(ids.filter((id) => id.startsWith('en/'))).toEqual(['en/cold-brew-coffee', 'en/pour-over-coffee', 'en/pour-over-coffee-ratio']);
    // The default per script: Cyrillic transliterated (it reads), Arabic as written (transliterated, it would lose its vowels).
    for (const id of ids.filter((each) => !each.startsWith('ar/'))) expect(id).toMatch(/^(en|ru)\/[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(ids.filter((id) => id.startsWith('ar/'))).toEqual(['ar/القهوة-الباردة', 'ar/قهوة-بالتقطير', 'ar/نسبة-قهوة-بالتقطير']);
    expect([...pages.keys()].sort()).toEqual(ids.map(urlOf).sort());
    for (const page of pages.values()) expect(page.html.lang, page.url).toBe(page.locale);
  });

  it("should give every page the complete hreflang set of its group, x-default the English page's", () => {
    const groups = new Map<string | undefined, Page[]>();
    for (const page of pages.values()) groups.set(page.key, [...(groups.get(page.key) ?? []), page]);
    expect([...groups.keys()].sort()).toEqual(['cold-brew-coffee', 'pour-over-coffee', 'pour-over-coffee-ratio']);
    for (const group of groups.values()) {
      expect(group.map((page) => page.locale).sort()).toEqual([...LOCALES].sort());
      const expected = { ...Object.fromEntries(group.map((page) => [page.locale, page.url])), 'x-default': group.find((page) => page.locale === 'en')!.url };
      for (const page of group) expect(page.alternates, page.url).toEqual(expected);
    }
  });

  it('should make every alternate a built page that points back', () => {
    expect(pages.size).toBe(9);
    for (const page of pages.values()) {
      for (const [hreflang, href] of Object.entries(page.alternates)) {
        if (hreflang === 'x-default') continue;
        const other = pages.get(href);
        expect(other, `${page.url} → ${href}`).toBeDefined();
        expect(other!.locale).toBe(hreflang);
        expect(other!.alternates[page.locale], `${href} ← ${page.url}`).toBe(page.url);
      }
    }
  });

  it('should keep every internal link of an article within its language', () => {
    const internal = [...pages.values()].flatMap((page) =>
      page.links.filter((href) => href.startsWith('/') || href.startsWith(SITE)).map((href) => ({ from: page.url, locale: page.locale, href })),
    );
    expect(internal.filter(({ locale, href }) => localeOfUrl(href) !== locale)).toEqual([]);
    // The ratio article links the pour-over one in English and Arabic: the rule had links to keep in.
    for (const locale of ['en', 'ar']) expect(internal.filter((link) => link.locale === locale).length, locale).toBeGreaterThan(0);
    // The Russian one, sent the English keyword, names the English article's keyword: a link it must not make.
    const russian = pages.get(urlOf('ru/pour-over-coffee-ratio'));
    expect(russian?.text.toLowerCase()).toContain('pour over coffee');
  });

  it('should mark the Arabic pages right to left, and only them', () => {
    for (const page of pages.values()) {
      expect(page.html.dir, page.url).toBe(page.locale === 'ar' ? 'rtl' : 'ltr');
      if (page.locale === 'ar') expect(page.articleDirs, page.url).toContain('rtl');
      else expect(page.articleDirs, page.url).not.toContain('rtl');
    }
  });

  it('should give each page JSON-LD in its language that names its translations by URL', () => {
    for (const page of pages.values()) {
      const [article] = page.jsonLd;
      const others = Object.entries(page.alternates).filter(([hreflang]) => hreflang !== 'x-default' && hreflang !== page.locale);
      expect(article, page.url).toMatchObject({ '@id': page.url, url: page.url, inLanguage: page.locale });
      expect(article!.workTranslation).toEqual(others.map(([, href]) => ({ '@id': href })));
    }
  });

  it('should list every page in the sitemap with the alternates its head declares', async () => {
    const sitemap = await sitemapEntries();
    for (const page of pages.values()) expect(sitemap.get(page.url), page.url).toEqual(page.alternates);
  });

  it("should give each page an og:image that is its cover card, showing its title in its script, and warn of no missing font", async () => {
    expect(build.output).not.toContain('no font for');
    const inks = [];
    for (const page of pages.values()) {
      expect(page.ogImage, page.url).toMatch(new RegExp(`^${SITE}/_articles/covers/${page.locale}/[^/]+-[0-9a-f]{16}\\.png$`));
      const png = await readFile(join(site.root, 'dist', decodeURIComponent(new URL(page.ogImage!).pathname)));
      const title = await inkOf(png, TITLE_AREA);
      expect(title.width, page.url).toBe(1200);
      expect(title.pixels, `${page.url}: the title "${page.title}" has ink`).toBeGreaterThan(2000);
      // Arabic titles start at the right margin; the others (and an English phrase with an Arabic keyword) at the left.
      if (directionOf(page.title) === 'rtl') expect(1200 - MARGIN - title.right, `${page.url}: "${page.title}" ends at the right margin`).toBeLessThanOrEqual(8);
      else expect(title.left - MARGIN, `${page.url}: "${page.title}" starts at the left margin`).toBeLessThanOrEqual(14);
      expect((await inkOf(png, SITE_NAME_AREA)).pixels, `${page.url}: the site name`).toBeGreaterThan(200);
      inks.push({ url: page.url, title });
    }
    // Nine titles, nine drawings: letters drawn as boxes would make titles of one script look alike.
    for (const [index, a] of inks.entries()) for (const b of inks.slice(index + 1)) expect(inkDifference(a.title, b.title), `${a.url} vs ${b.url}`).toBeGreaterThan(0.2);
  });
});
