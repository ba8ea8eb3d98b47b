// The plugins one by one, outside processArticle: each takes its options through `.use(plugin, options)`.

import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified, type PluggableList } from 'unified';
import { describe, expect, test } from 'vitest';
import {
  buildLinkMap,
  PipelineOptionError,
  processArticle,
  rehypeArticleExternalLinks,
  rehypeArticleFinalSanitize,
  rehypeArticleHeadings,
  rehypeArticleImageDownload,
  rehypeArticleImages,
  rehypeArticleInternalLinks,
  rehypeArticleMetadata,
  rehypeArticleParse,
  rehypeArticleSanitize,
  WARNING_SOURCE,
} from '../../src/pipeline/index.js';

/** rehype-parse (a fragment) → the plugins → rehype-stringify, on one input. */
async function run(html: string, plugins: PluggableList) {
  const file = await unified().use(rehypeParse, { fragment: true }).use(plugins).use(rehypeStringify).process(html);
  return { html: String(file.value), data: file.data.article, messages: file.messages };
}

describe('headings', () => {
  test('should take the title out, renumber from h2 and prefix the ids', async () => {
    const result = await run('<h1>Guide</h1><h3>Grinding</h3><h5>Burrs</h5>', [[rehypeArticleHeadings, { idPrefix: 'h-' }]]);
    expect(result.html).toBe('<h2 id="h-grinding">Grinding</h2><h3 id="h-burrs">Burrs</h3>');
    expect(result.data?.title).toBe('Guide');
    expect(result.data?.headings).toEqual([
      { depth: 2, slug: 'h-grinding', text: 'Grinding' },
      { depth: 3, slug: 'h-burrs', text: 'Burrs' },
    ]);
  });

  test('should fall back to the title option when there is no h1', async () => {
    expect((await run('<p>x</p>', [[rehypeArticleHeadings, { title: 'Given' }]])).data?.title).toBe('Given');
  });

  test('should work without options', async () => {
    expect((await run('<h2>A</h2>', [rehypeArticleHeadings])).html).toBe('<h2 id="a">A</h2>');
  });
});

describe('external links', () => {
  test('should mark links to other sites with its rel and target, and leave the site alone', async () => {
    const result = await run('<p><a href="https://other.example/">o</a> <a href="https://example.com/x">s</a></p>', [
      [rehypeArticleExternalLinks, { rel: 'ugc', target: '_blank', site: 'https://example.com' }],
    ]);
    expect(result.html).toBe('<p><a href="https://other.example/" rel="noopener ugc" target="_blank">o</a> <a href="https://example.com/x">s</a></p>');
  });

  test('should default to sponsored in a product roundup', async () => {
    const result = await run('<p><a href="https://shop.example/">buy</a></p>', [[rehypeArticleExternalLinks, { articleType: 'retail_product_roundup' }]]);
    expect(result.html).toContain('rel="noopener sponsored"');
  });
});

describe('internal links', () => {
  test('should link phrases from the link map, at most maxLinks, never to the article itself', async () => {
    const links = buildLinkMap({ links: { 'burr grinder': '/grinders/', 'french press': '/press/', 'cold brew': '/cold-brew/' } });
    const result = await run('<p>A burr grinder, a French press and cold brew.</p>', [
      [rehypeArticleInternalLinks, { links, maxLinks: 2, url: '/press/' }],
    ]);
    expect(result.html).toBe('<p>A <a href="/grinders/">burr grinder</a>, a French press and <a href="/cold-brew/">cold brew</a>.</p>');
  });

  test('should tell the metadata plugin which links it inserted', async () => {
    const links = buildLinkMap({ links: { espresso: '/espresso/' } });
    const result = await run('<p>Espresso and <a href="/milk/">milk</a>.</p>', [[rehypeArticleInternalLinks, { links }], rehypeArticleMetadata]);
    expect(result.data?.links?.map((link) => [link.href, link.source])).toEqual([['/espresso/', 'local'], ['/milk/', 'article']]);
  });
});

describe('sanitize', () => {
  test('should keep iframes from its embed hosts only, and drop scripts', async () => {
    const result = await run(
      '<p>a</p><script>alert(1)</script><iframe src="https://player.vimeo.com/video/1"></iframe><iframe src="https://www.youtube.com/embed/x"></iframe>',
      [[rehypeArticleSanitize, { embedHosts: ['player.vimeo.com'] }]],
    );
    expect(result.html).not.toContain('<script');
    expect(result.html).not.toContain('youtube');
    expect(result.html).toContain('src="https://player.vimeo.com/video/1"');
  });
});

describe('images', () => {
  test('should give an image without alt the title and keyword, and the request size', async () => {
    const result = await run('<img src="/a.png">', [[rehypeArticleImages, { title: 'Home espresso', keyword: 'burr grinder', imageSize: '16:9' }]]);
    expect(result.html).toBe('<img src="/a.png" alt="Home espresso – burr grinder" width="1792" height="1008" fetchpriority="high">');
  });

  test('should download with the fetch it is given, and warn on file.messages when it fails', async () => {
    const asked: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      asked.push(String(input));
      return new Response('gone', { status: 404 });
    };
    const result = await run('<img src="https://images.example/a.png" alt="a">', [
      [rehypeArticleImageDownload, { dir: '/nonexistent/never-written', publicPath: '/images/', fetch }],
    ]);
    expect(asked).toEqual(['https://images.example/a.png']);
    expect(result.html).toContain('src="https://images.example/a.png"');
    expect(result.messages.map((message) => [message.source, message.ruleId])).toEqual([[WARNING_SOURCE, 'image-download']]);
    expect(result.messages[0]!.reason).toContain('HTTP 404');
  });
});

describe('metadata', () => {
  test('should count words, read time and excerpt with its own reading speed', async () => {
    const result = await run('<p>one two three four five six</p>', [[rehypeArticleMetadata, { wordsPerMinute: 3, excerptLength: 12 }]]);
    expect(result.data).toMatchObject({ wordCount: 6, readingTime: 2, excerpt: 'one two…' });
  });
});

describe('options', () => {
  test('should refuse a bad option when the processor is built, naming the plugin and the option', () => {
    const build = () => unified().use(rehypeParse).use(rehypeArticleHeadings, { idPrefix: 'a b' }).use(rehypeStringify).freeze();
    expect(build).toThrow(PipelineOptionError);
    expect(build).toThrow('rehypeArticleHeadings option `idPrefix` must be letters, digits, "-" or "_" only.');
  });

  test('should refuse an image download without a fetch function', () => {
    const options = { dir: 'images', publicPath: '/images/' } as Parameters<typeof rehypeArticleImageDownload>[0];
    expect(() => unified().use(rehypeArticleImageDownload, options).freeze()).toThrow('rehypeArticleImageDownload option `fetch` is required');
  });
});

describe('composed by hand', () => {
  test('should give what processArticle gives for the same options', async () => {
    const html = '<h1>Coffee</h1><p>A burr grinder and a <a href="https://shop.example/">shop</a>.</p><img src="/a.png">';
    const links = buildLinkMap({ links: { 'burr grinder': '/grinders/' } });
    const file = await unified()
      .use(rehypeArticleParse)
      .use(rehypeArticleSanitize)
      .use(rehypeArticleHeadings, { title: 'coffee' })
      .use(rehypeArticleImages, { keyword: 'coffee' })
      .use(rehypeArticleInternalLinks, { links })
      .use(rehypeArticleExternalLinks)
      .use(rehypeArticleMetadata)
      .use(rehypeArticleFinalSanitize)
      .use(rehypeStringify)
      .process(html);
    const processed = await processArticle(html, { keyword: 'coffee', links });
    expect(String(file.value).trim()).toBe(processed.html);
    expect(file.data.article).toMatchObject({ title: processed.title, headings: processed.headings, links: processed.links, wordCount: processed.wordCount });
  });
});
