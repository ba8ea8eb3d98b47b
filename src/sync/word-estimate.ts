// An estimate of the words one create bills, from the request alone, for `plan` and the budget message.
import { IMAGE_WORD_COST, type ArticleRequest } from '../contract/request-schema.js';

/**
 * The service bills generated words (images at a fixed word price per image) but does not say how
 * long each setting makes an article. These figures are ours, rounded from typical articles; they
 * are an estimate for planning, never a quote. Documented in the README.
 */
export const WORD_ESTIMATE_TABLE = {
  /** blog_post, by `articleLength`; `custom` is sections × perSection + frame. */
  articleLength: { shorter: 800, short: 1200, default: 1800, medium: 2200, long: 3000, longer: 4000 },
  perSection: 300,
  sectionFrame: 400,
  /** listicle / local_places_roundup: items × perItem + frame (+ supplemental sections). */
  perListItem: 150,
  listFrame: 300,
  supplementalInformation: 400,
  /** retail_product_roundup: products × perProduct + frame. */
  perRetailProduct: 250,
  retailFrame: 400,
  singleProductReview: 1500,
  condensedProductReview: 800,
  videoArticle: 1500,
  rewriteBlogPost: 1800,
  faq: 300,
  keyTakeaways: 100,
  /** Images when `maxImages` is not set: `images` mode and `auto` mode. */
  defaultImages: { images: 4, auto: 2 },
} as const;

export interface WordEstimate {
  /** Text words plus image words. */
  words: number;
  textWords: number;
  imageWords: number;
  images: number;
  /** Images of a model the spec gives no word price for (counted as 0 words). */
  unpricedImages: number;
}

/** The item count a listicle takes from its keyword ("15 best …") when `enableAutomaticLength` is on. */
function itemsFromKeyword(keyword: string): number | undefined {
  const match = /(?:^|\s)(\d{1,3})(?=\s|$)/.exec(keyword);
  const value = match === null ? undefined : Number(match[1]);
  return value !== undefined && value > 0 ? value : undefined;
}

/** The items a listicle or local places roundup has: from the keyword when `enableAutomaticLength` (else 10), otherwise `numberOfItems`. */
export function listItemCount(request: Extract<ArticleRequest, { articleType: 'listicle' | 'local_places_roundup' }>): number {
  return request.enableAutomaticLength ? (itemsFromKeyword(request.targetKeyword) ?? 10) : request.numberOfItems;
}

export function estimateWords(request: ArticleRequest): WordEstimate {
  const t = WORD_ESTIMATE_TABLE;
  let textWords: number;
  let images = 0;
  let imageCost: number | undefined = 0;
  switch (request.articleType) {
    case 'blog_post': {
      textWords =
        request.articleLength === 'custom'
          ? (request.numberOfSections ?? 5) * t.perSection + t.sectionFrame
          : t.articleLength[request.articleLength];
      if (request.includeKeyTakeaways) textWords += t.keyTakeaways;
      if (request.multimediaOption === 'images' || request.multimediaOption === 'auto') {
        images = request.maxImages ?? t.defaultImages[request.multimediaOption];
        imageCost = IMAGE_WORD_COST[request.imageModel];
      }
      break;
    }
    case 'listicle':
    case 'local_places_roundup': {
      const items = listItemCount(request);
      textWords = items * t.perListItem + t.listFrame + (request.enableSupplementalInformation ? t.supplementalInformation : 0);
      break;
    }
    case 'retail_product_roundup':
      textWords = request.numRetailProducts * t.perRetailProduct + t.retailFrame;
      break;
    case 'retail_single_product_review':
      textWords = request.enableCondensedMode === true ? t.condensedProductReview : t.singleProductReview;
      break;
    case 'video_article':
      textWords = t.videoArticle;
      break;
    case 'rewrite_blog_post':
      textWords = t.rewriteBlogPost;
      break;
  }
  if (request.includeFaq) textWords += t.faq;
  const imageWords = images * (imageCost ?? 0);
  return { words: textWords + imageWords, textWords, imageWords, images, unpricedImages: imageCost === undefined ? images : 0 };
}
