// Every fixture article through the pipeline: output snapshots plus the invariants every output must keep.

import { readFile } from 'node:fs/promises';
import type { Root, RootContent } from 'hast';
import { describe, expect, test } from 'vitest';
import { buildLinkMap, processArticle, type ArticleContext, type ArticleType, type ProcessedArticle } from '../../src/pipeline/index.js';
import { parseArticleHtml } from '../../src/pipeline/parse.js';
import { findExecutableContent } from './executable-content.js';

interface FixtureEntry {
  file: string;
  slug: string;
  keyword: string;
  title?: string;
  articleType: ArticleType;
  imageSize: string;
}

const FIXTURES = new URL('../../fixtures/articles/', import.meta.url);
const { articles } = JSON.parse(await readFile(new URL('articles.json', FIXTURES), 'utf8')) as { articles: FixtureEntry[] };

const SITE = 'https://www.site.example';
const url = (slug: string) => `/articles/${slug}/`;
// One map for the whole site, as the loader builds it; each article skips itself by slug.
const links = buildLinkMap({
  articles,
  url,
  links: {
    'burr grinder': '/guides/burr-grinder/',
    'espresso machine': '/guides/espresso-machines/',
    'French press': '/guides/french-press/',
    'noise cancelling': '/guides/noise-cancelling/',
    'sourdough starter': '/guides/sourdough-starter/',
    'Dutch oven': '/guides/dutch-oven/',
    'virtual environment': '/guides/python-venv/',
    'lock file': '/guides/lock-files/',
    'cast iron': '/guides/cast-iron/',
    Filterkaffee: '/ratgeber/filterkaffee/',
    Siebträgermaschine: '/ratgeber/siebtraeger/',
    煎茶: '/ja/sencha/',
    抹茶: '/ja/matcha/',
    compost: '/guides/compost/',
    'raised beds': '/guides/raised-beds/',
  },
});

function contextOf(entry: FixtureEntry): ArticleContext {
  return { keyword: entry.keyword, title: entry.title, slug: entry.slug, url: url(entry.slug), articleType: entry.articleType, imageSize: entry.imageSize, site: SITE, links };
}

const results = new Map<string, ProcessedArticle>();
async function processed(entry: FixtureEntry): Promise<ProcessedArticle> {
  let result = results.get(entry.slug);
  if (!result) {
    result = await processArticle(await readFile(new URL(entry.file, FIXTURES), 'utf8'), contextOf(entry));
    results.set(entry.slug, result);
  }
  return result;
}

test('should cover every articleType, German, Japanese, a full document and a huge article', async () => {
  expect(new Set(articles.map((entry) => entry.articleType)).size).toBe(7);
  expect(articles.length).toBeGreaterThanOrEqual(12);
  const sources = await Promise.all(articles.map((entry) => readFile(new URL(entry.file, FIXTURES), 'utf8')));
  expect(sources.some((html) => /^<!DOCTYPE html>/i.test(html))).toBe(true);
  expect(sources.some((html) => html.length > 100_000)).toBe(true);
  expect(sources.some((html) => /[ぁ-ん]/.test(html))).toBe(true);
  expect(sources.some((html) => /[äöüß]/.test(html))).toBe(true);
});

describe.each(articles)('$file', (entry) => {
  test('should match the output snapshot', async () => {
    const { html, ...metadata } = await processed(entry);
    await expect(html).toMatchFileSnapshot(`__snapshots__/articles/${entry.file}`);
    expect(metadata).toMatchSnapshot();
  });

  test('should contain nothing executable', async () => {
    const result = await processed(entry);
    expect(findExecutableContent(result.html, { headingIds: result.headings.map((heading) => heading.slug) })).toEqual([]);
  });

  test('should have no h1, and an outline from h2 without skipped levels', async () => {
    const { html, headings } = await processed(entry);
    expect(html).not.toMatch(/<h1[\s>]/);
    let previous = 1;
    for (const heading of headings) {
      expect(heading.depth).toBeGreaterThanOrEqual(2);
      expect(heading.depth).toBeLessThanOrEqual(previous + 1);
      previous = heading.depth;
    }
    if (headings.length > 0) expect(headings[0]!.depth).toBe(2);
  });

  test('should give every heading in the html its unique listed id', async () => {
    const { html, headings } = await processed(entry);
    const ids = [...html.matchAll(/<h([2-6]) id="([^"]+)">/g)].map((match) => ({ depth: Number(match[1]), slug: match[2] }));
    expect(ids).toEqual(headings.map(({ depth, slug }) => ({ depth, slug: escapeAttribute(slug) })));
    expect(new Set(headings.map((heading) => heading.slug)).size).toBe(headings.length);
  });

  test('should give every image alt text, a size and loading hints', async () => {
    const { images, html } = await processed(entry);
    for (const image of images) expect(image.alt.trim()).not.toBe('');
    const tags = html.match(/<img [^>]*>/g) ?? [];
    tags.forEach((tag, index) => {
      if (index === 0) expect(tag).toContain('fetchpriority="high"');
      else expect(tag).toContain('loading="lazy" decoding="async"');
    });
  });

  test('should mark every external link and no internal one', async () => {
    const { html, links: found } = await processed(entry);
    const anchors = [...html.matchAll(/<a href="([^"]*)"( rel="[^"]*")?/g)];
    expect(anchors).toHaveLength(found.length);
    anchors.forEach((anchor, index) => {
      const link = found[index]!;
      if (link.internal || link.href.startsWith('mailto:')) expect(anchor[2]).toBeUndefined();
      else expect(anchor[2]).toMatch(/^ rel="noopener (nofollow|sponsored)"$/);
    });
  });

  test('should never link to itself or twice to the same page', async () => {
    const { links: found } = await processed(entry);
    const inserted = found.filter((link) => link.source !== 'article');
    expect(inserted.map((link) => link.href)).not.toContain(url(entry.slug));
    expect(new Set(inserted.map((link) => link.href)).size).toBe(inserted.length);
    expect(inserted.length).toBeLessThanOrEqual(10);
  });

  test('should be stable when processed again', async () => {
    const again = await processArticle(await readFile(new URL(entry.file, FIXTURES), 'utf8'), contextOf(entry));
    expect(again).toEqual(await processed(entry));
  });
});

describe('fixture specifics', () => {
  const bySlug = (slug: string) => processed(articles.find((entry) => entry.slug === slug)!);

  test('should take a full document’s <title> when it has no h1, and keep its head out', async () => {
    const result = await bySlug('descale-espresso-machine');
    expect(result.title).toBe('How to Descale an Espresso Machine Without Damaging It');
    expect(result.html).not.toMatch(/dataLayer|font-family|tracker\.example/);
  });

  test('should keep the allowed video embeds and drop the other one', async () => {
    const { html } = await bySlug('sourdough-for-beginners');
    expect(html.match(/<iframe /g)).toHaveLength(2);
    expect(html).not.toContain('example-widgets');
  });

  test('should mark the affiliate links of a roundup sponsored', async () => {
    const { html } = await bySlug('best-espresso-machines-under-500');
    expect(html).toContain('href="https://www.amazon.com/dp/B07X1ABCDE?tag=examplesite-20" rel="noopener sponsored"');
  });

  test('should use context.title for an article without h1', async () => {
    expect((await bySlug('cast-iron-care')).title).toBe('How to Care for Cast Iron');
  });

  test('should not link inside code blocks', async () => {
    const { html } = await bySlug('python-virtual-environments');
    for (const block of html.match(/<(code|pre)>[\s\S]*?<\/\1>/g) ?? []) expect(block).not.toContain('<a ');
  });

  test('should link German and Japanese phrases', async () => {
    expect((await bySlug('cafes-berlin-kreuzberg')).links.some((link) => link.href === '/ratgeber/filterkaffee/')).toBe(true);
    expect((await bySlug('nihoncha-irekata')).links.some((link) => link.href === '/ja/sencha/')).toBe(true);
  });

  test('should count Japanese characters as words', async () => {
    const result = await bySlug('nihoncha-irekata');
    expect(result.wordCount).toBeGreaterThan(600);
    expect(result.excerpt.length).toBeLessThanOrEqual(160);
  });

  test('should process the huge article whole', async () => {
    const entry = articles.find((candidate) => candidate.slug === 'home-gardening-handbook')!;
    const source = await readFile(new URL(entry.file, FIXTURES), 'utf8');
    const result = await processed(entry);
    expect(result.wordCount).toBeGreaterThan(15_000);
    expect(result.headings.length).toBe((source.match(/<h[2-6]>/g) ?? []).length);
    expect(result.images.length).toBe((source.match(/<img /g) ?? []).length);
  });

  test('should produce html that parses back to the same headings', async () => {
    const result = await bySlug('remote-work-habits');
    const { tree } = parseArticleHtml(result.html);
    const ids: unknown[] = [];
    const visit = (node: Root | RootContent): void => {
      if (node.type === 'element' && /^h[2-6]$/.test(node.tagName)) ids.push(node.properties.id);
      if ('children' in node) node.children.forEach(visit);
    };
    visit(tree);
    expect(ids).toEqual(result.headings.map((heading) => heading.slug));
  });
});

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;');
}
