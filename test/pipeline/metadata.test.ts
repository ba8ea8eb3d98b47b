// Metadata: images and links lists, CJK-aware word count, reading time and the excerpt.

import { describe, expect, test } from 'vitest';
import { buildLinkMap, countWords, processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function run(html: string, context: Partial<ArticleContext> = {}) {
  return processArticle(html, { keyword: 'k', ...context });
}

describe('lists', () => {
  test('should list images with their final attributes', async () => {
    const result = await run('<img src="https://cdn.example/a.png" alt="A"><figure><img src="/b.png" width="10" height="20"><figcaption>B</figcaption></figure>');
    expect(result.images).toEqual([
      { src: 'https://cdn.example/a.png', alt: 'A' },
      { src: '/b.png', alt: 'B', width: 10, height: 20 },
    ]);
  });

  test('should list links with internal and source flags', async () => {
    const result = await run('<p>Beans. <a href="https://other.example/">other</a> <a href="/in/">in</a> <a href="https://www.site.example/x">site</a> <a href="mailto:a@b.example">mail</a></p>', {
      site: 'https://www.site.example',
      links: buildLinkMap({ links: { beans: '/beans/' } }),
    });
    expect(result.links).toEqual([
      { href: '/beans/', text: 'Beans', internal: true, source: 'local' },
      { href: 'https://other.example/', text: 'other', internal: false, source: 'article' },
      { href: '/in/', text: 'in', internal: true, source: 'article' },
      { href: 'https://www.site.example/x', text: 'site', internal: true, source: 'article' },
      { href: 'mailto:a@b.example', text: 'mail', internal: false, source: 'article' },
    ]);
  });
});

describe('word count', () => {
  test('should separate words at block boundaries', async () => {
    expect((await run('<p>one</p><p>two</p><ul><li>three</li><li>four</li></ul><table><tr><td>five</td><td>six</td></tr></table>')).wordCount).toBe(6);
  });

  test('should not count the title', async () => {
    expect((await run('<h1>Three word title</h1><p>Body only.</p>')).wordCount).toBe(2);
  });

  test('should count contractions, hyphenated words and decimals as one word', () => {
    expect(countWords("don't e-mail 3.5 l’été — ok").words).toBe(5);
  });

  test('should count German words with umlauts and ß as words', () => {
    expect(countWords('Die Straße über den Fluß').words).toBe(5);
  });

  test('should count each Japanese character as one', () => {
    expect(countWords('日本茶の淹れ方')).toEqual({ words: 0, cjkCharacters: 7, total: 7 });
  });

  test('should count the katakana prolonged sound mark with its word', () => {
    expect(countWords('コーヒー')).toEqual({ words: 0, cjkCharacters: 4, total: 4 });
  });

  test('should count mixed Japanese and Latin text', () => {
    expect(countWords('東京でiPhone 15を買う')).toEqual({ words: 2, cjkCharacters: 6, total: 8 });
  });
});

describe('reading time', () => {
  test('should round minutes up at 200 words per minute', async () => {
    expect((await run(`<p>${'word '.repeat(201)}</p>`)).readingTime).toBe(2);
    expect((await run(`<p>${'word '.repeat(200)}</p>`)).readingTime).toBe(1);
  });

  test('should read Japanese at 500 characters per minute', async () => {
    expect((await run(`<p>${'茶'.repeat(1001)}</p>`)).readingTime).toBe(3);
  });

  test('should take custom reading speeds', async () => {
    expect((await run(`<p>${'word '.repeat(100)}</p>`, { wordsPerMinute: 50 })).readingTime).toBe(2);
  });

  test('should be at least one minute for a short article and zero for an empty one', async () => {
    expect((await run('<p>Short.</p>')).readingTime).toBe(1);
    expect((await run('<p> </p>')).readingTime).toBe(0);
  });
});

describe('excerpt', () => {
  const long =
    'Scale is the quiet killer of espresso machines: calcium and magnesium from hard water settle in the boiler, the heating element and the tiny jets of the group head until it fails.';

  test('should be the whole first paragraph when it is short', async () => {
    expect((await run('<h1>T</h1><p>A  short\nopening.</p><p>Second.</p>')).excerpt).toBe('A short opening.');
  });

  test('should cut a long paragraph on a word boundary with an ellipsis, within 160 characters', async () => {
    const { excerpt } = await run(`<p>${long}</p>`);
    expect(excerpt).toBe('Scale is the quiet killer of espresso machines: calcium and magnesium from hard water settle in the boiler, the heating element and the tiny jets of the group…');
    expect(excerpt.length).toBeLessThanOrEqual(160);
  });

  test('should honour excerptLength', async () => {
    expect((await run(`<p>${long}</p>`, { excerptLength: 40 })).excerpt).toBe('Scale is the quiet killer of espresso…');
  });

  test('should skip empty paragraphs and paragraphs in figures, quotes and lists', async () => {
    const result = await run('<figure><img src="/a.png" alt="a"><figcaption><p>Caption</p></figcaption></figure><blockquote><p>Quote</p></blockquote><ul><li><p>Item</p></li></ul><p> </p><p>The opening.</p>');
    expect(result.excerpt).toBe('The opening.');
  });

  test('should skip a short byline or label for the first paragraph that reads like prose', async () => {
    const result = await run('<p>Updated March 2025</p><p><em>Photo: the machine on a desk.</em></p><p>Scale is the quiet killer of espresso machines, and hard water is where it comes from.</p>');
    expect(result.excerpt).toBe('Scale is the quiet killer of espresso machines, and hard water is where it comes from.');
  });

  test('should fall back to the body text without a paragraph', async () => {
    expect((await run('<div>Loose text in a div.</div>')).excerpt).toBe('Loose text in a div.');
  });

  test('should cut Japanese after the last punctuation that fits', async () => {
    const text = '日本茶には煎茶、玉露、抹茶、ほうじ茶など、たくさんの種類があります。それぞれ栽培方法や製法が異なり、淹れ方によって味わいも大きく変わります。';
    expect((await run(`<p>${text}</p>`, { excerptLength: 50 })).excerpt).toBe('日本茶には煎茶、玉露、抹茶、ほうじ茶など、たくさんの種類があります。');
  });

  test('should be plain text', async () => {
    expect((await run('<p>Use <strong>fresh</strong> <a href="/b/">beans</a> &amp; water.</p>')).excerpt).toBe('Use fresh beans & water.');
  });
});
