// rehypeArticleAstroImages: images in the download directory become Astro's placeholders, in the one encoding every
// supported Astro decodes; other images stay as they are.
import { describe, expect, it } from 'vitest';
import { processArticle, PipelineOptionError } from '../../src/pipeline/index.js';

const astroImages = { dir: '/site/public/_articles', publicPath: '/_articles/', from: '/site' };

/** What Astro 5.9 does with the attribute: decode `&#x22;` only, then JSON.parse. */
function placeholders(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/__ASTRO_IMAGE_="([^"]+)"/g)].map((match) => JSON.parse(match[1]!.replaceAll('&#x22;', '"')) as Record<string, unknown>);
}

describe('rehypeArticleAstroImages', () => {
  it('should turn a downloaded image into a placeholder with its attributes, a srcset and its import path', async () => {
    const html = '<h1>Kettles</h1><p>Intro.</p><img src="/_articles/abc.png" alt="A &quot;gooseneck&quot; & <spout>" width="800" height="600"><p>More.</p><img src="/_articles/def.png" alt="Second" width="300" height="200">';
    const article = await processArticle(html, { keyword: 'kettles', astroImages });
    expect(article.imageImports).toEqual(['./public/_articles/abc.png', './public/_articles/def.png']);
    expect(article.html).not.toMatch(/<img[^>]* src=/);
    // No character reference but the quotes': the ampersand and angle brackets are JSON escapes.
    expect(article.html.replaceAll('&#x22;', '')).not.toMatch(/&/);
    const [first, second] = placeholders(article.html);
    expect(first).toEqual({
      src: './public/_articles/abc.png',
      alt: 'A "gooseneck" & <spout>',
      width: 800,
      height: 600,
      fetchpriority: 'high',
      loading: 'eager',
      widths: [400, 800],
      sizes: '(min-width: 800px) 800px, 100vw',
      index: 0,
    });
    expect(second).toMatchObject({ src: './public/_articles/def.png', alt: 'Second', loading: 'lazy', decoding: 'async', widths: [150, 300], index: 1 });
    // The entry's metadata still lists the images by their public URL (og:image, JSON-LD).
    expect(article.images.map((image) => image.src)).toEqual(['/_articles/abc.png', '/_articles/def.png']);
  });

  it('should leave remote images, images elsewhere and names that are not plain files alone', async () => {
    const html = '<p>x</p><img src="https://cdn.example/a.png" alt="a"><img src="/images/b.png" alt="b"><img src="/_articles/../secret.png" alt="c"><img src="/_articles/sub/d.png" alt="d">';
    const article = await processArticle(html, { keyword: 'kettles', astroImages });
    expect(article.imageImports).toEqual([]);
    expect(placeholders(article.html)).toEqual([]);
    expect(article.html).toContain('src="https://cdn.example/a.png"');
  });

  it('should write import paths relative to the entry file wherever the images are', async () => {
    const article = await processArticle('<p>x</p><img src="/img/a.png" alt="a">', {
      keyword: 'kettles',
      astroImages: { dir: '/site/public/img', publicPath: '/img', from: '/site/content' },
    });
    expect(article.imageImports).toEqual(['../public/img/a.png']);
  });

  it('should refuse a relative directory', async () => {
    await expect(processArticle('<p>x</p>', { keyword: 'k', astroImages: { ...astroImages, dir: 'public/_articles' } })).rejects.toThrow(PipelineOptionError);
  });
});
