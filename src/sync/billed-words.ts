// What a finished article was billed, counted from its HTML: its visible words, and its generated images at their model's word price.
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { IMAGE_WORD_COST, type ArticleRequest } from '../api/request-schema.js';

/** Scripts written without spaces between words: counted with a dictionary-based segmenter. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
/** Runs of letters and digits, joined across `'`, `’` and `-` ("don't", "e-mail"). */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
/** Elements whose text a reader never sees. */
const INVISIBLE = new Set(['script', 'style', 'head', 'template']);

let segmenter: Intl.Segmenter | undefined;

/**
 * The words of plain text, as the service bills them: runs of letters and digits; in text with
 * Chinese, Japanese, Korean or Thai, the word-like segments of `Intl.Segmenter`.
 */
export function countWords(text: string): number {
  let count = 0;
  if (!UNSPACED_SCRIPT.test(text)) {
    for (const _ of text.matchAll(WORD)) count += 1;
    return count;
  }
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  for (const segment of segmenter.segment(text)) if (segment.isWordLike === true) count += 1;
  return count;
}

interface Scan {
  text: string;
  images: number;
}

/**
 * The text a reader sees and the `<img>` elements, in one parse. Every tag separates words (so
 * `one<br>two` is two words), as a tag-stripping word count does; comments, scripts, styles and
 * the head are left out. Parsed as with scripting off, so `<noscript>` holds elements, not raw text.
 */
function scan(html: string): Scan {
  const parts: string[] = [];
  let images = 0;
  const walk = (node: DefaultTreeAdapterTypes.ParentNode): void => {
    for (const child of node.childNodes) {
      if (child.nodeName === '#text') parts.push((child as DefaultTreeAdapterTypes.TextNode).value);
      else if (child.nodeName === 'img') images += 1;
      else if ('childNodes' in child && !INVISIBLE.has(child.nodeName)) walk(child);
    }
  };
  walk(parse(html, { scriptingEnabled: false }));
  return { text: parts.join(' '), images };
}

/** The text a reader sees in an HTML string, entities decoded (see `scan`). */
export function visibleText(html: string): string {
  return scan(html).text;
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
  return generatedOf(scan(html).images, request);
}

function generatedOf(imageElements: number, request: ArticleRequest): number {
  if (request.articleType !== 'blog_post' || (request.multimediaOption !== 'images' && request.multimediaOption !== 'auto')) return 0;
  return Math.min(imageElements, request.maxImages ?? Number.POSITIVE_INFINITY);
}

/** What the service billed for a finished article, from its `output.html` and the request it was created from. */
export function billedWords(html: string, request: ArticleRequest): BilledWords {
  const { text, images: imageElements } = scan(html);
  const images = generatedOf(imageElements, request);
  const price = request.articleType === 'blog_post' ? (IMAGE_WORD_COST[request.imageModel] ?? 0) : 0;
  return { words: countWords(text), images, imageWords: images * price };
}

/** The words billed as recorded in a lock entry or a previous article (text plus images), or undefined when it has no record. */
export function recordedWords(record: Partial<BilledWords>): number | undefined {
  return record.words === undefined ? undefined : record.words + (record.imageWords ?? 0);
}
