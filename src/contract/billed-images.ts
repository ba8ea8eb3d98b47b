// Which of an article's images the service bills, and at what word price (spec: "Image cost"): one rule for the estimate, the billing record and the emulator.
import { IMAGE_WORD_COST, type ArticleRequest } from './request-schema.js';

/** A request whose article has generated images: a blog post with `multimediaOption` `images` or `auto`. */
export type ImageRequest = Extract<ArticleRequest, { articleType: 'blog_post' }> & { multimediaOption: 'images' | 'auto' };

/**
 * Whether the service generates (and bills) images for a request. Only a `blog_post` with
 * `multimediaOption` `images` or `auto` chooses an `imageModel`; other article types bill no
 * images (the product photos of retail articles are not generated).
 */
export function generatesImages(request: ArticleRequest): request is ImageRequest {
  return request.articleType === 'blog_post' && (request.multimediaOption === 'images' || request.multimediaOption === 'auto');
}

/** Billed images of an article that shows `shown` images: none unless it generates images, and never more than `maxImages`. */
export function billedImageCount(request: ArticleRequest, shown: number): number {
  if (!generatesImages(request)) return 0;
  return Math.min(shown, request.maxImages ?? Number.POSITIVE_INFINITY);
}

/** Words billed per generated image of a request: 0 when it generates none, undefined for a model the spec gives no price for. */
export function imageWordPrice(request: ArticleRequest): number | undefined {
  return generatesImages(request) ? IMAGE_WORD_COST[request.imageModel] : 0;
}
