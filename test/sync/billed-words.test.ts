import { describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/api/index.js';
import { writeArticle } from '../../src/emulator/index.js';
import { billedWords, recordedWords } from '../../src/sync/index.js';

const request = (input: Record<string, unknown>) => articleRequestSchema.parse({ targetKeyword: 'pour over coffee', ...input });
const blogWithImages = (extra: Record<string, unknown> = {}) => request({ multimediaOption: 'images', ...extra });

describe('billedWords', () => {
  it('should count the words and generated images of emulator articles exactly as the emulator bills them', () => {
    const requests = [
      request({}),
      request({ articleLength: 'long', includeFaq: true, includeKeyTakeaways: true }),
      request({ language: 'German', multimediaOption: 'images', maxImages: 3 }),
      request({ language: 'Japanese', multimediaOption: 'auto' }),
      request({ language: 'French', autoPolish: true, multimediaOption: 'videos' }),
      request({ articleType: 'listicle', targetKeyword: '12 best coffee grinders' }),
      request({ articleType: 'retail_product_roundup', targetKeyword: 'best burr grinders', numRetailProducts: 4 }),
      request({ articleType: 'retail_single_product_review', targetKeyword: 'baratza encore', productId: 'B007F183LK' }),
      request({ articleType: 'local_places_roundup', targetKeyword: 'coffee shops in lisbon' }),
      request({ articleType: 'rewrite_blog_post', articleUrl: 'https://example.com/old-coffee-post' }),
      request({ articleType: 'video_article', targetKeyword: 'latte art', videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }),
    ];
    for (const parsed of requests) {
      const written = writeArticle(parsed);
      const billed = billedWords(written.html, parsed);
      expect({ type: parsed.articleType, words: billed.words, images: billed.images }).toEqual({
        type: parsed.articleType,
        words: written.words,
        images: written.generatedImages,
      });
    }
  });

  it('should separate words at every tag and decode entities', () => {
    expect(billedWords('<p>one<br>two</p><p>three&amp;four &nbsp; five&#39;s</p>', request({})).words).toBe(5);
  });

  it('should leave out comments, scripts, styles, the head and attribute values', () => {
    const html = '<html><head><title>Title words</title><style>p { color: red }</style></head><body><!-- a note --><p title="not counted">Two words</p><script>var x = 1;</script><img alt="no words"></body></html>';
    expect(billedWords(html, request({})).words).toBe(2);
  });

  it('should count Japanese text by its characters rather than by spaces', () => {
    expect(billedWords('<p>コーヒーを淹れる方法</p>', request({})).words).toBe(10);
  });

  it('should price generated images by the request image model, and leave unpriced models at 0 words', () => {
    const html = '<p>Text</p><img src="a.png"><figure><img src="b.png"></figure>';
    expect(billedWords(html, blogWithImages())).toMatchObject({ images: 2, imageWords: 100 });
    expect(billedWords(html, blogWithImages({ imageModel: 'model-image-2-medium' }))).toMatchObject({ images: 2, imageWords: 400 });
    expect(billedWords(html, blogWithImages({ imageModel: 'compact-image-2' }))).toMatchObject({ images: 2, imageWords: 0 });
  });

  it('should count no generated images for articles that choose no image model', () => {
    const html = '<p>Product</p><img src="https://m.media-amazon.com/images/I/x.jpg">';
    expect(billedWords(html, request({ articleType: 'retail_product_roundup', targetKeyword: 'best grinders' })).images).toBe(0);
    expect(billedWords(html, request({ multimediaOption: 'videos' })).images).toBe(0);
  });

  it('should count no more generated images than maxImages', () => {
    expect(billedWords('<img src="a"><img src="b"><img src="c">', blogWithImages({ maxImages: 2 })).images).toBe(2);
  });
});

describe('recordedWords', () => {
  it('should add image words to text words, and say nothing for an entry without a record', () => {
    expect(recordedWords({ words: 1200, images: 2, imageWords: 400 })).toBe(1600);
    expect(recordedWords({})).toBeUndefined();
  });
});
