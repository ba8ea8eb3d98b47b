// The pipeline context of one article: the request's imageSize is the size of the images the service generated, so an
// article whose request asks for none (multimediaOption none or videos, the default) gives its images no size.
import { describe, expect, it } from 'vitest';
import { articleContext } from '../../src/loader/article-entry.js';
import { localeLinkMaps } from '../../src/loader/locale-links.js';
import { parseManifest } from '../../src/manifest/index.js';
import { processArticle } from '../../src/pipeline/index.js';

const HTML = '<h1>Trail shoes</h1><p>Intro.</p><img src="https://cdn.example/a.png" alt="a"><p>More.</p><img src="/b.png" alt="b">';

async function imageSizes(entry: string): Promise<string[]> {
  const [spec] = parseManifest(`articles:\n  - keyword: trail shoes\n${entry}`, 'articles.yaml').specs;
  const { html } = await processArticle(HTML, articleContext({ links: localeLinkMaps([], (slug) => slug, undefined).links }, { ...spec!, url: '/articles/trail-shoes/' }));
  return [...html.matchAll(/<img [^>]*>/g)].map(([img]) => `${/width="(\d+)"/.exec(img)?.[1] ?? '-'}x${/height="(\d+)"/.exec(img)?.[1] ?? '-'}`);
}

describe('the article context', () => {
  it('should give no image a size when the request asks for no generated images', async () => {
    expect(await imageSizes('')).toEqual(['-x-', '-x-']);
    expect(await imageSizes('    multimediaOption: videos\n    imageSize: 1536x1024\n')).toEqual(['-x-', '-x-']);
  });

  it("should give images without a size the request's imageSize when it asks for generated images", async () => {
    expect(await imageSizes('    multimediaOption: images\n    imageSize: 1536x1024\n')).toEqual(['1536x1024', '1536x1024']);
    expect(await imageSizes('    multimediaOption: auto\n')).toEqual(['1024x1024', '1024x1024']);
  });
});
