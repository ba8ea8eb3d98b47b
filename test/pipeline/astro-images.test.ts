// rehypeArticleAstroImages: images in the download directory become Astro's placeholders, in the one encoding every
// supported Astro decodes; other images stay as they are.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPng } from '../../src/emulator/png-image.js';
import { processArticle, PipelineOptionError } from '../../src/pipeline/index.js';

let site: string;
let astroImages: { dir: string; publicPath: string; from: string };

beforeAll(async () => {
  site = await mkdtemp(join(tmpdir(), 'aal-astro-images-'));
  astroImages = { dir: join(site, 'public/_articles'), publicPath: '/_articles/', from: site };
  await mkdir(astroImages.dir, { recursive: true });
  await mkdir(join(site, 'public/img'), { recursive: true });
  await writeFile(join(astroImages.dir, 'abc.png'), renderPng(800, 600, 'abc'));
  await writeFile(join(astroImages.dir, 'def.png'), renderPng(300, 200, 'def'));
  await writeFile(join(site, 'public/img/a.png'), renderPng(40, 30, 'a'));
});

afterAll(() => rm(site, { recursive: true, force: true }));

/** What Astro 5.9 does with the attribute: decode `&#x22;` only, then JSON.parse. */
function placeholders(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/__ASTRO_IMAGE_="([^"]+)"/g)].map((match) => JSON.parse(match[1]!.replaceAll('&#x22;', '"')) as Record<string, unknown>);
}

describe('rehypeArticleAstroImages', () => {
  it('should turn a downloaded image into a placeholder with its attributes, a srcset and its import path', async () => {
    // The second image reserves a size the file does not have: the file's own size wins.
    const html = '<h1>Kettles</h1><p>Intro.</p><img src="/_articles/abc.png" alt="A &quot;gooseneck&quot; & <spout>"><p>More.</p><img src="/_articles/def.png" alt="Second" width="1024" height="1024">';
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
    expect(second).toMatchObject({ src: './public/_articles/def.png', alt: 'Second', width: 300, height: 200, loading: 'lazy', decoding: 'async', widths: [150, 300], index: 1 });
    // The entry's metadata still lists the images by their public URL (og:image, JSON-LD).
    expect(article.images.map((image) => image.src)).toEqual(['/_articles/abc.png', '/_articles/def.png']);
  });

  it('should leave remote images, images elsewhere, names that are not plain files and missing files alone', async () => {
    const html = '<p>x</p><img src="https://cdn.example/a.png" alt="a"><img src="/images/b.png" alt="b"><img src="/_articles/../secret.png" alt="c"><img src="/_articles/sub/d.png" alt="d"><img src="/_articles/missing.png" alt="e">';
    const article = await processArticle(html, { keyword: 'kettles', astroImages });
    expect(article.imageImports).toEqual([]);
    expect(placeholders(article.html)).toEqual([]);
    expect(article.html).toContain('src="https://cdn.example/a.png"');
    expect(article.html).toContain('src="/_articles/missing.png"');
  });

  it('should write import paths relative to the entry file wherever the images are', async () => {
    const article = await processArticle('<p>x</p><img src="/img/a.png" alt="a">', {
      keyword: 'kettles',
      astroImages: { dir: join(site, 'public/img'), publicPath: '/img', from: join(site, 'content') },
    });
    expect(article.imageImports).toEqual(['../public/img/a.png']);
  });

  it('should refuse a relative directory', async () => {
    await expect(processArticle('<p>x</p>', { keyword: 'k', astroImages: { ...astroImages, dir: 'public/_articles' } })).rejects.toThrow(PipelineOptionError);
  });
});
