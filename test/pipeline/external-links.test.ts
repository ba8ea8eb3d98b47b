// External links: rel="noopener" plus nofollow/sponsored or the user's choice, and an optional target.

import { describe, expect, test } from 'vitest';
import { PipelineOptionError, processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function html(body: string, context: Partial<ArticleContext> = {}) {
  return (await processArticle(body, { keyword: 'k', ...context })).html;
}

describe('rel', () => {
  test('should add noopener nofollow to a link to another site in a blog post', async () => {
    expect(await html('<p><a href="https://other.example/">x</a></p>')).toBe('<p><a href="https://other.example/" rel="noopener nofollow">x</a></p>');
  });

  test.each(['retail_product_roundup', 'retail_single_product_review'] as const)('should add noopener sponsored in a %s', async (articleType) => {
    expect(await html('<p><a href="https://www.amazon.com/dp/X?tag=a-20">buy</a></p>', { articleType })).toContain('rel="noopener sponsored"');
  });

  test('should treat a protocol-relative link as external', async () => {
    expect(await html('<p><a href="//other.example/x">x</a></p>')).toContain('rel="noopener nofollow"');
  });

  test('should leave relative links alone', async () => {
    expect(await html('<p><a href="/guides/x/">x</a> <a href="#top">t</a></p>')).toBe('<p><a href="/guides/x/">x</a> <a href="#top">t</a></p>');
  });

  test('should leave links to the site alone', async () => {
    expect(await html('<p><a href="https://www.site.example/x/">x</a></p>', { site: 'https://www.site.example' })).toBe('<p><a href="https://www.site.example/x/">x</a></p>');
  });

  test('should leave mailto links alone', async () => {
    expect(await html('<p><a href="mailto:a@b.example">mail</a></p>')).toBe('<p><a href="mailto:a@b.example">mail</a></p>');
  });

  test('should take rel tokens as a string or a list', async () => {
    expect(await html('<p><a href="https://o.example/">x</a></p>', { externalLinks: { rel: 'ugc nofollow' } })).toContain('rel="noopener ugc nofollow"');
    expect(await html('<p><a href="https://o.example/">x</a></p>', { externalLinks: { rel: ['noreferrer'] } })).toContain('rel="noopener noreferrer"');
  });

  test('should add noopener only with rel false', async () => {
    expect(await html('<p><a href="https://o.example/">x</a></p>', { externalLinks: { rel: false } })).toContain('rel="noopener"');
  });

  test('should take rel from a function of the link and the article type', async () => {
    const seen: unknown[] = [];
    const out = await html('<p><a href="https://www.amazon.com/dp/1">Buy <b>now</b></a> <a href="https://en.wikipedia.org/">wiki</a></p>', {
      articleType: 'listicle',
      externalLinks: {
        rel: (link) => {
          seen.push({ host: link.url.hostname, text: link.text, articleType: link.articleType });
          return link.url.hostname.endsWith('amazon.com') ? 'sponsored' : undefined;
        },
      },
    });
    expect(out).toBe('<p><a href="https://www.amazon.com/dp/1" rel="noopener sponsored">Buy <b>now</b></a> <a href="https://en.wikipedia.org/" rel="noopener">wiki</a></p>');
    expect(seen).toEqual([
      { host: 'www.amazon.com', text: 'Buy now', articleType: 'listicle' },
      { host: 'en.wikipedia.org', text: 'wiki', articleType: 'listicle' },
    ]);
  });

  test('should reject an unknown rel token', async () => {
    await expect(processArticle('<p>x</p>', { keyword: 'k', externalLinks: { rel: 'dofollow' as 'nofollow' } })).rejects.toThrow(PipelineOptionError);
  });

  test('should reject an unknown rel token returned by a function', async () => {
    const rel = () => 'opener' as 'nofollow';
    await expect(processArticle('<p><a href="https://o.example/">x</a></p>', { keyword: 'k', externalLinks: { rel } })).rejects.toThrow(/externalLinks\.rel/);
  });
});

describe('target', () => {
  test('should set no target by default', async () => {
    expect(await html('<p><a href="https://o.example/" target="_blank">x</a></p>')).not.toContain('target');
  });

  test('should set the configured target on external links only', async () => {
    expect(await html('<p><a href="https://o.example/">x</a> <a href="/in/">in</a></p>', { externalLinks: { target: '_blank' } })).toBe(
      '<p><a href="https://o.example/" rel="noopener nofollow" target="_blank">x</a> <a href="/in/">in</a></p>',
    );
  });

  test('should take target from a function of the link', async () => {
    const out = await html('<p><a href="https://a.example/">a</a><a href="https://b.example/">b</a></p>', {
      externalLinks: { target: (link) => (link.url.hostname === 'a.example' ? '_blank' : undefined) },
    });
    expect(out).toBe('<p><a href="https://a.example/" rel="noopener nofollow" target="_blank">a</a><a href="https://b.example/" rel="noopener nofollow">b</a></p>');
  });
});
