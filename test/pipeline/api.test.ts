// The pipeline's public API surface, pinned: changing it must be a decision, not an accident.

import { expect, test } from 'vitest';
import * as pipeline from '../../src/pipeline/index.js';

test('should expose exactly the documented API', () => {
  expect(Object.keys(pipeline).sort()).toEqual([
    'ARTICLE_TYPES',
    'ASTRO_IMAGE_ATTRIBUTE',
    'DEFAULT_CJK_CHARACTERS_PER_MINUTE',
    'DEFAULT_EMBED_HOSTS',
    'DEFAULT_EXCERPT_LENGTH',
    'DEFAULT_MAX_LINKS',
    'DEFAULT_WORDS_PER_MINUTE',
    'InternalLinksError',
    'PipelineOptionError',
    'REL_TOKENS',
    'WARNING_SOURCE',
    'articleContextSchema',
    'buildLinkMap',
    'countWords',
    'faqOf',
    'fetchServiceLinkSuggestions',
    'processArticle',
    'rehypeArticleAstroImages',
    'rehypeArticleExternalLinks',
    'rehypeArticleFinalSanitize',
    'rehypeArticleHeadings',
    'rehypeArticleImageDownload',
    'rehypeArticleImages',
    'rehypeArticleInternalLinks',
    'rehypeArticleMetadata',
    'rehypeArticleParse',
    'rehypeArticleSanitize',
    'serviceLinksCacheKey',
  ]);
});

test('should list every articleType of the service', () => {
  expect(pipeline.ARTICLE_TYPES).toEqual([
    'blog_post',
    'retail_product_roundup',
    'video_article',
    'rewrite_blog_post',
    'retail_single_product_review',
    'listicle',
    'local_places_roundup',
  ]);
});

test('should default to the documented values', () => {
  expect(pipeline.DEFAULT_EMBED_HOSTS).toEqual(['youtube.com', 'youtube-nocookie.com', 'player.vimeo.com']);
  expect(pipeline.DEFAULT_MAX_LINKS).toBe(10);
  expect(pipeline.DEFAULT_WORDS_PER_MINUTE).toBe(200);
  expect(pipeline.DEFAULT_CJK_CHARACTERS_PER_MINUTE).toBe(500);
  expect(pipeline.DEFAULT_EXCERPT_LENGTH).toBe(160);
});

test('should return every documented field from processArticle', async () => {
  const result = await pipeline.processArticle('<h1>T</h1><p>Body text.</p>', { keyword: 'k' });
  expect(Object.keys(result).sort()).toEqual(['excerpt', 'faq', 'headings', 'html', 'imageImports', 'images', 'links', 'readingTime', 'title', 'warnings', 'wordCount']);
});
