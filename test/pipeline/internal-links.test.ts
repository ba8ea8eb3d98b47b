// Local internal-link rules: each case fails if its rule is removed from the pipeline.

import { describe, expect, test } from 'vitest';
import { buildLinkMap, processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function link(html: string, links: Record<string, string>, context: Partial<ArticleContext> = {}) {
  return processArticle(html, { keyword: 'unrelated keyword', links: buildLinkMap({ links }), ...context });
}

describe('matching', () => {
  test('should prefer the longest phrase at a position', async () => {
    const result = await link('<p>Buy a coffee grinder today.</p>', { coffee: '/coffee/', 'coffee grinder': '/grinders/' });
    expect(result.html).toBe('<p>Buy a <a href="/grinders/">coffee grinder</a> today.</p>');
  });

  test('should prefer the longest phrase whatever the order of the map', async () => {
    const result = await link('<p>Buy a coffee grinder today.</p>', { 'coffee grinder': '/grinders/', coffee: '/coffee/' });
    expect(result.html).toBe('<p>Buy a <a href="/grinders/">coffee grinder</a> today.</p>');
  });

  test('should match case-insensitively and keep the text’s casing', async () => {
    const result = await link('<p>The COFFEE Grinder matters.</p>', { 'coffee grinder': '/grinders/' });
    expect(result.html).toBe('<p>The <a href="/grinders/">COFFEE Grinder</a> matters.</p>');
  });

  test('should match across line breaks and runs of spaces in the text', async () => {
    const result = await link('<p>A coffee\n   grinder.</p>', { 'coffee grinder': '/grinders/' });
    expect(result.links[0]).toMatchObject({ href: '/grinders/', text: 'coffee grinder' });
  });

  test('should fall back to a shorter phrase when the longest one ends inside a word', async () => {
    const result = await link('<p>A coffee grinder.</p>', { 'coffee grind': '/grind/', coffee: '/coffee/' });
    expect(result.html).toBe('<p>A <a href="/coffee/">coffee</a> grinder.</p>');
  });

  test('should not match inside a longer word', async () => {
    const result = await link('<p>Filterkaffee und Kaffeemaschine, dann Kaffee.</p>', { Kaffee: '/kaffee/' });
    expect(result.html).toBe('<p>Filterkaffee und Kaffeemaschine, dann <a href="/kaffee/">Kaffee</a>.</p>');
  });

  test('should use Unicode word boundaries, not ASCII \\b', async () => {
    // With ASCII \b, "caf" would match inside "café" and "über" would never match after a space.
    const result = await link('<p>Ein café. Die Übersicht über alles.</p>', { caf: '/caf/', übersicht: '/uebersicht/' });
    expect(result.html).toBe('<p>Ein café. Die <a href="/uebersicht/">Übersicht</a> über alles.</p>');
  });

  test('should link a Japanese phrase inside running Japanese text', async () => {
    const result = await link('<p>日本の煎茶は爽やかです。</p>', { 煎茶: '/ja/sencha/' });
    expect(result.html).toBe('<p>日本の<a href="/ja/sencha/">煎茶</a>は爽やかです。</p>');
  });

  test('should link a Latin phrase that touches Japanese characters', async () => {
    const result = await link('<p>東京でiPhoneを買う。</p>', { iphone: '/iphone/' });
    expect(result.html).toBe('<p>東京で<a href="/iphone/">iPhone</a>を買う。</p>');
  });

  test('should treat regex characters in a phrase literally', async () => {
    const result = await link('<p>C++ and Node.js (LTS) and Nodexjs.</p>', { 'c++': '/cpp/', 'node.js (lts)': '/node/' });
    expect(result.html).toBe('<p><a href="/cpp/">C++</a> and <a href="/node/">Node.js (LTS)</a> and Nodexjs.</p>');
  });

  test('should not match a phrase split across elements', async () => {
    const result = await link('<p>coffee <b>grinder</b></p>', { 'coffee grinder': '/grinders/' });
    expect(result.links).toEqual([]);
  });
});

describe('placement', () => {
  test('should link the first occurrence only', async () => {
    const result = await link('<p>Espresso first.</p><p>Espresso again.</p>', { espresso: '/espresso/' });
    expect(result.html).toBe('<p><a href="/espresso/">Espresso</a> first.</p><p>Espresso again.</p>');
  });

  test.each([
    ['an existing link', '<p><a href="https://x.example/">espresso</a></p>'],
    ['a heading', '<h2>Espresso</h2>'],
    ['code', '<p><code>espresso</code></p>'],
    ['pre', '<pre>espresso</pre>'],
    ['a figcaption', '<figure><img src="/a.png" alt="a"><figcaption>Espresso</figcaption></figure>'],
  ])('should not link inside %s', async (_where, blocked) => {
    const result = await link(`${blocked}<p>Later espresso.</p>`, { espresso: '/espresso/' });
    expect(result.links.filter((entry) => entry.source === 'local')).toEqual([{ href: '/espresso/', text: 'espresso', internal: true, source: 'local' }]);
    expect(result.html).toContain('<p>Later <a href="/espresso/">espresso</a>.</p>');
  });

  test('should link inside lists, tables and emphasis', async () => {
    const result = await link('<ul><li><em>Tamper</em></li></ul><table><tr><td>Scale</td></tr></table>', { tamper: '/tamper/', scale: '/scale/' });
    expect(result.links.map((entry) => entry.href)).toEqual(['/tamper/', '/scale/']);
  });
});

describe('targets', () => {
  test('should not link to the article itself by slug', async () => {
    const links = buildLinkMap({ articles: [{ slug: 'grinders', keyword: 'coffee grinder' }], url: (slug) => `/a/${slug}/` });
    const result = await processArticle('<p>A coffee grinder.</p>', { keyword: 'k', slug: 'grinders', links });
    expect(result.links).toEqual([]);
  });

  test('should not link to the article itself by URL', async () => {
    const result = await link('<p>A coffee grinder.</p>', { 'coffee grinder': '/a/grinders/' }, { url: '/a/grinders' });
    expect(result.links).toEqual([]);
  });

  test('should not link twice to the same URL', async () => {
    const result = await link('<p>The grinder and the mill.</p>', { grinder: '/grinders/', mill: '/grinders/' });
    expect(result.html).toBe('<p>The <a href="/grinders/">grinder</a> and the mill.</p>');
  });

  test('should not add a link to a page the article already links to', async () => {
    const result = await link('<p>The grinder.</p><p>See <a href="https://www.site.example/grinders">our guide</a>.</p>', { grinder: '/grinders/' }, { site: 'https://www.site.example' });
    expect(result.links.map((entry) => entry.source)).toEqual(['article']);
  });

  test('should fall back to a shorter phrase at the same place when the longer one is used up', async () => {
    const result = await link('<p>Coffee grinder here. Coffee grinder there.</p>', { 'coffee grinder': '/grinders/', coffee: '/coffee/' });
    expect(result.html).toBe('<p><a href="/grinders/">Coffee grinder</a> here. <a href="/coffee/">Coffee</a> grinder there.</p>');
  });

  test('should insert at most maxLinks links', async () => {
    const result = await link('<p>alpha beta gamma delta</p>', { alpha: '/a/', beta: '/b/', gamma: '/g/', delta: '/d/' }, { maxLinks: 2 });
    expect(result.links.map((entry) => entry.text)).toEqual(['alpha', 'beta']);
  });

  test('should insert no links with maxLinks 0', async () => {
    expect((await link('<p>alpha</p>', { alpha: '/a/' }, { maxLinks: 0 })).links).toEqual([]);
  });

  test('should default to at most 10 links', async () => {
    const phrases = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`word${index}`, `/w/${index}/`]));
    const result = await link(`<p>${Object.keys(phrases).join(' ')}</p>`, phrases);
    expect(result.links).toHaveLength(10);
  });
});
