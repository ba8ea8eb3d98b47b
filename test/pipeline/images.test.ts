// Image rules: alt text that is never empty, loading hints, a reserved size from the request's imageSize.

import { describe, expect, test } from 'vitest';
import { processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function run(html: string, context: Partial<ArticleContext> = {}) {
  return processArticle(html, { keyword: 'espresso machine', ...context });
}

describe('alt text', () => {
  test('should keep an existing alt', async () => {
    expect((await run('<img src="/a.png" alt="A red machine">')).images[0]!.alt).toBe('A red machine');
  });

  test('should fall back to the figcaption', async () => {
    const result = await run('<figure><img src="/a.png"><figcaption>The <b>Gaggia</b> Classic</figcaption></figure>');
    expect(result.images[0]!.alt).toBe('The Gaggia Classic');
  });

  test('should treat a whitespace-only alt as missing', async () => {
    const result = await run('<figure><img src="/a.png" alt="   "><figcaption>Caption</figcaption></figure>');
    expect(result.images[0]!.alt).toBe('Caption');
  });

  test('should fall back to the title when it contains the keyword', async () => {
    expect((await run('<h1>The Best Espresso Machine for You</h1><img src="/a.png">')).images[0]!.alt).toBe('The Best Espresso Machine for You');
  });

  test('should fall back to the title and the keyword when the title lacks the keyword', async () => {
    expect((await run('<h1>Coffee at home</h1><img src="/a.png" alt="">')).images[0]!.alt).toBe('Coffee at home – espresso machine');
  });

  test('should fall back to the keyword alone without a title', async () => {
    expect((await run('<img src="/a.png">')).images[0]!.alt).toBe('espresso machine');
  });

  test('should not take a caption-like paragraph after a bare image for its alt', async () => {
    const result = await run('<h1>Espresso machine guide</h1><img src="/a.png"><p><em>Photo: the Gaggia Classic</em></p>');
    expect(result.images[0]!.alt).toBe('Espresso machine guide');
    expect(result.html).toBe('<img src="/a.png" alt="Espresso machine guide" fetchpriority="high"><p><em>Photo: the Gaggia Classic</em></p>');
  });

  test('should not use the caption of an outer figure for an image inside the caption', async () => {
    const result = await run('<figure><img src="/a.png"><figcaption>Caption <img src="/icon.png"></figcaption></figure>');
    expect(result.images.map((image) => image.alt)).toEqual(['Caption', 'espresso machine']);
  });
});

describe('loading hints', () => {
  test('should give the first image fetchpriority="high" and no lazy loading', async () => {
    const result = await run('<img src="/1.png" alt="1" loading="lazy" decoding="async"><img src="/2.png" alt="2">');
    expect(result.html).toContain('<img src="/1.png" alt="1" fetchpriority="high">');
  });

  test('should give every other image loading="lazy" and decoding="async"', async () => {
    const result = await run('<img src="/1.png" alt="1"><p><img src="/2.png" alt="2" loading="eager"></p><figure><img src="/3.png" alt="3" decoding="sync"></figure>');
    expect(result.html).toContain('<img src="/2.png" alt="2" loading="lazy" decoding="async">');
    expect(result.html).toContain('<img src="/3.png" alt="3" loading="lazy" decoding="async">');
    expect(result.html.match(/fetchpriority/g)).toHaveLength(1);
  });
});

describe('size', () => {
  test.each([
    ['1536x1024', 1536, 1024],
    ['16:9', 1792, 1008],
    ['portrait', 1024, 1536],
    ['square', 1024, 1024],
  ])('should set width and height from imageSize %s', async (imageSize, width, height) => {
    expect((await run('<img src="/a.png" alt="a">', { imageSize })).images[0]).toEqual({ src: '/a.png', alt: 'a', width, height });
  });

  test('should invent no size when the request gives none', async () => {
    expect((await run('<img src="/a.png" alt="a">')).images[0]).toEqual({ src: '/a.png', alt: 'a' });
  });

  test('should keep the width and height an image has', async () => {
    expect((await run('<img src="/a.png" alt="a" width="640" height="480">', { imageSize: '16:9' })).images[0]).toMatchObject({ width: 640, height: 480 });
  });

  test('should leave an image with only a width alone', async () => {
    const result = await run('<img src="/a.png" alt="a" width="800">');
    expect(result.html).toBe('<img src="/a.png" alt="a" width="800" fetchpriority="high">');
  });
});
