// The emulator's article writer: deterministic, realistic and messy HTML for an article request.
import type { ArticleRequest } from '../../contract/request-schema.js';
import { canonicalJsonHash } from '../../contract/canonical-json.js';
import { countHtmlWords } from '../../contract/word-count.js';
import type { ArticleImage } from './article-document.js';
import { composeArticle } from './compose.js';
import { polishDocument } from './polish.js';
import { renderHtml } from './render-html.js';

export type { ArticleImage } from './article-document.js';
export { ARTICLE_LENGTH_TARGETS, DEFAULT_CUSTOM_SECTIONS, DEFAULT_MEDIA_COUNTS, DEFAULT_RETAIL_DOMAIN, youtubeIdOf } from './compose.js';
export { topicOfKeyword } from './keyword.js';
export { SUPPORTED_WRITER_LANGUAGES } from './language-packs.js';
export { POLISH_MAX_PARAGRAPH_SENTENCES } from './polish.js';

export interface WriteArticleOptions {
  /** Where an image is served; default `/_emulator/images/<id>.png` (relative). */
  imageUrl?: (image: ArticleImage) => string;
}

export interface WrittenArticle {
  title: string;
  html: string;
  /** The polished version when `autoPolish` is true, else null (spec). */
  polishedHtml: string | null;
  /** statusDetail texts in writing order, e.g. "Writing section 3 of 7: …". */
  steps: string[];
  /** Every image the HTML references (generated and product photos). */
  images: ArticleImage[];
  /** Generated images: these are billed per image by image model. */
  generatedImages: number;
  /** Words a reader sees in `html`: the words billed. */
  words: number;
  /** The language the text is written in; English when the writer has no templates for the requested one. */
  writtenLanguage: string;
}

export function defaultImageUrl(image: ArticleImage): string {
  return `/_emulator/images/${image.id}.png`;
}

/** Write an article. The same parsed request always gives the same article. */
export function writeArticle(request: ArticleRequest, options: WriteArticleOptions = {}): WrittenArticle {
  const seed = canonicalJsonHash(request);
  const composed = composeArticle(request, seed);
  const imageUrl = options.imageUrl ?? defaultImageUrl;
  const sentenceGap = composed.writtenLanguage === 'Japanese' ? '' : ' ';
  const html = renderHtml(composed.doc, { seed, imageUrl, sentenceGap });
  const steps = [...composed.steps];
  let polishedHtml: string | null = null;
  if (request.autoPolish) {
    steps.push('Polishing the article');
    polishedHtml = renderHtml(polishDocument(composed.doc, request.polishSettings), { seed: `${seed}:polished`, imageUrl, sentenceGap });
  }
  return {
    title: composed.doc.title,
    html,
    polishedHtml,
    steps,
    images: composed.images,
    generatedImages: composed.images.filter((image) => image.billable).length,
    words: countHtmlWords(html),
    writtenLanguage: composed.writtenLanguage,
  };
}
