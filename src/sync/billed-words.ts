// What a finished article was billed, counted from its HTML with the one word counter (contract/word-count): its visible words, and its generated images at their model's word price (contract/billed-images).
import { billedImageCount, imageWordPrice } from '../contract/billed-images.js';
import type { ArticleRequest } from '../contract/request-schema.js';
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

/** Which of an article's `<img>` elements were generated and billed (contract/billed-images: every one up to `maxImages`). */
export function generatedImages(html: string, request: ArticleRequest): number {
  return billedImageCount(request, imageElements(html));
}

/** What the service billed for a finished article, from its `output.html` and the request it was created from. */
export function billedWords(html: string, request: ArticleRequest): BilledWords {
  const images = generatedImages(html, request);
  return { words: countHtmlWords(html), images, imageWords: images * (imageWordPrice(request) ?? 0) };
}

/** The words billed as recorded in a lock entry or a previous article (text plus images), or undefined when it has no record. */
export function recordedWords(record: Partial<BilledWords>): number | undefined {
  return record.words === undefined ? undefined : record.words + (record.imageWords ?? 0);
}
