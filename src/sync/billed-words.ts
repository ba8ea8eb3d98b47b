// What a finished article was billed, counted from its HTML with the one word counter (spec/word-count): its visible words, and its generated images at their model's word price.
import { IMAGE_WORD_COST, type ArticleRequest } from '../contract/request-schema.js';
import { countHtmlWords } from '../contract/word-count.js';

/** `<img` elements outside comments (an attribute value holding `<img` is counted: the service's HTML has none). */
function imageElements(html: string): number {
  return html.replace(/<!--[\s\S]*?(?:-->|$)/g, '').match(/<img\b/gi)?.length ?? 0;
}

export interface BilledWords {
  /** Visible words of `output.html`. */
  words: number;
  /** Images the service generated for the article. */
  images: number;
  /** `images` × the image model's word price; 0 for a model the spec gives no price for. */
  imageWords: number;
}

/**
 * Which images were generated: only a `blog_post` with `multimediaOption` `images` or `auto`
 * chooses an `imageModel`, so only its images are generated and billed per image. Every `<img>`
 * of such an article counts, up to `maxImages`; any beyond it cannot have been generated. Other
 * article types bill no images (product photos of retail articles are not generated).
 */
export function generatedImages(html: string, request: ArticleRequest): number {
  return generatedOf(imageElements(html), request);
}

function generatedOf(imageElements: number, request: ArticleRequest): number {
  if (request.articleType !== 'blog_post' || (request.multimediaOption !== 'images' && request.multimediaOption !== 'auto')) return 0;
  return Math.min(imageElements, request.maxImages ?? Number.POSITIVE_INFINITY);
}

/** What the service billed for a finished article, from its `output.html` and the request it was created from. */
export function billedWords(html: string, request: ArticleRequest): BilledWords {
  const images = generatedOf(imageElements(html), request);
  const price = request.articleType === 'blog_post' ? (IMAGE_WORD_COST[request.imageModel] ?? 0) : 0;
  return { words: countHtmlWords(html), images, imageWords: images * price };
}

/** The words billed as recorded in a lock entry or a previous article (text plus images), or undefined when it has no record. */
export function recordedWords(record: Partial<BilledWords>): number | undefined {
  return record.words === undefined ? undefined : record.words + (record.imageWords ?? 0);
}
