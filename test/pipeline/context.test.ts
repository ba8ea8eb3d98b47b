// Options: bad values are refused with a PipelineOptionError that names the option.

import { describe, expect, test } from 'vitest';
import { PipelineOptionError, processArticle, type ArticleContext } from '../../src/pipeline/index.js';

async function refusal(context: Partial<ArticleContext> | unknown): Promise<PipelineOptionError> {
  try {
    await processArticle('<p>x</p>', context as ArticleContext);
  } catch (error) {
    return error as PipelineOptionError;
  }
  throw new Error('processArticle accepted the options');
}

describe('options', () => {
  test.each([
    ['keyword', { keyword: ' ' }],
    ['articleType', { keyword: 'k', articleType: 'blog' }],
    ['imageSize', { keyword: 'k', imageSize: '100x100' }],
    ['maxLinks', { keyword: 'k', maxLinks: -1 }],
    ['maxLinks', { keyword: 'k', maxLinks: 1.5 }],
    ['headingIdPrefix', { keyword: 'k', headingIdPrefix: 'a b' }],
    ['externalLinks.target', { keyword: 'k', externalLinks: { target: 'popup' } }],
    ['externalLinks.rel', { keyword: 'k', externalLinks: { rel: ['follow'] } }],
    ['embedHosts', { keyword: 'k', embedHosts: ['https://youtube.com/'] }],
    ['site', { keyword: 'k', site: 'example.com' }],
    ['serviceLinks.link', { keyword: 'k', serviceLinks: { domainId: 'd', siteUrl: 'https://s.example' } }],
    ['serviceLinks.domainId', { keyword: 'k', serviceLinks: { domainId: '', siteUrl: 'https://s.example', link: async (): Promise<string> => '' } }],
    ['serviceLinks.siteUrl', { keyword: 'k', serviceLinks: { domainId: 'd', siteUrl: 'ftp://s.example', link: async (): Promise<string> => '' } }],
    ['serviceLinks.onError', { keyword: 'k', serviceLinks: { domainId: 'd', siteUrl: 'https://s.example', link: async (): Promise<string> => '', onError: 'ignore' } }],
    ['downloadImages.publicPath', { keyword: 'k', downloadImages: { dir: '/tmp/x' } }],
    ['wordsPerMinute', { keyword: 'k', wordsPerMinute: 0 }],
    ['excerptLength', { keyword: 'k', excerptLength: Number.NaN }],
    ['links', { keyword: 'k', links: { coffee: '/coffee/' } }],
  ])('should refuse a bad %s and name it', async (option, context) => {
    const error = await refusal({ slug: 'the-slug', ...context });
    expect(error).toBeInstanceOf(PipelineOptionError);
    expect(error.code).toBe('invalid_pipeline_option');
    expect(error.message).toContain(`\`${option}\``);
    expect(error.message).toContain('the-slug');
  });

  test('should refuse HTML that is not a string', async () => {
    await expect(processArticle(undefined as unknown as string, { keyword: 'k' })).rejects.toThrow(PipelineOptionError);
  });

  test('should refuse a missing context', async () => {
    expect(await refusal(undefined)).toBeInstanceOf(PipelineOptionError);
  });

  test('should accept every shorthand and pixel size of imageSize', async () => {
    for (const imageSize of ['1024x1024', '1536x1024', '1024x1536', '1792x1008', '1008x1792', '1:1', '16:9', '9:16', 'square', 'landscape', 'portrait']) {
      await expect(processArticle('<p>x</p>', { keyword: 'k', imageSize })).resolves.toBeTruthy();
    }
  });

  test('should accept several site origins', async () => {
    const result = await processArticle('<p><a href="https://a.example/x">a</a><a href="https://b.example/y">b</a></p>', { keyword: 'k', site: ['https://a.example', new URL('https://b.example')] });
    expect(result.links.every((link) => link.internal)).toBe(true);
  });
});
