// Which images are billed and at what price: one rule for `plan`'s estimate, the billing record of a finished article and the emulator's charge.
import { describe, expect, it } from 'vitest';
import { billedImageCount, generatesImages, imageWordPrice } from '../../src/contract/billed-images.js';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { billedWords, estimateWords } from '../../src/sync/index.js';

const parse = (input: Record<string, unknown>) => articleRequestSchema.parse({ targetKeyword: 'best pour over kettles', ...input });

describe('billed images', () => {
  it('should bill images only of a blog post with multimediaOption images or auto', () => {
    expect(generatesImages(parse({ multimediaOption: 'images' }))).toBe(true);
    expect(generatesImages(parse({ multimediaOption: 'auto' }))).toBe(true);
    expect(generatesImages(parse({ multimediaOption: 'videos' }))).toBe(false);
    expect(generatesImages(parse({}))).toBe(false);
    expect(generatesImages(parse({ articleType: 'retail_product_roundup' }))).toBe(false);
  });

  it('should count every shown image up to maxImages, and none of an article that generates none', () => {
    expect(billedImageCount(parse({ multimediaOption: 'images', maxImages: 2 }), 5)).toBe(2);
    expect(billedImageCount(parse({ multimediaOption: 'images' }), 5)).toBe(5);
    expect(billedImageCount(parse({ articleType: 'retail_product_roundup' }), 6)).toBe(0);
  });

  it('should price an image by its model as the spec does, undefined for a model it gives no price for', () => {
    expect(imageWordPrice(parse({ multimediaOption: 'images' }))).toBe(50);
    expect(imageWordPrice(parse({ multimediaOption: 'images', imageModel: 'model-image-2-medium' }))).toBe(200);
    expect(imageWordPrice(parse({ multimediaOption: 'images', imageModel: 'compact-image-2' }))).toBeUndefined();
    expect(imageWordPrice(parse({ multimediaOption: 'none', imageModel: 'model-image-2-medium' }))).toBe(0);
  });

  it.each([
    [{ multimediaOption: 'images', maxImages: 3 }],
    [{ multimediaOption: 'auto', maxImages: 2, imageModel: 'model-image-2-medium' }],
    [{ multimediaOption: 'videos' }],
    [{ articleType: 'retail_product_roundup', numRetailProducts: 3 }],
  ])('should agree across the estimate, the billing record and the emulator for %o', (input) => {
    const request = parse(input);
    const written = writeArticle(request);
    const record = billedWords(written.html, request);
    expect(record.images).toBe(written.generatedImages);
    const estimate = estimateWords(request);
    if (request.articleType === 'blog_post' && request.maxImages !== undefined) expect(estimate.images).toBe(written.generatedImages);
    if (!generatesImages(request)) expect([estimate.images, record.images, written.generatedImages]).toEqual([0, 0, 0]);
    expect(record.imageWords).toBe(record.images * (imageWordPrice(request) ?? 0));
  });
});
