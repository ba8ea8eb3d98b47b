// length_out_of_range: visible words outside the band around what the request asks for, per the estimate's table.
import { listItemCount } from '../contract/item-count.js';
import type { ArticleRequest } from '../contract/request-schema.js';
import { estimateWords } from '../sync/word-estimate.js';
import type { Check } from './check-context.js';

/** What the request asks for, in words a reader can see: "articleLength "long"", "7 items", … */
function askedFor(request: ArticleRequest): string {
  switch (request.articleType) {
    case 'blog_post':
      return request.articleLength === 'custom' ? `articleLength "custom" with ${request.numberOfSections ?? 5} sections` : `articleLength "${request.articleLength}"`;
    case 'retail_product_roundup':
      return `${request.numRetailProducts} products`;
    case 'listicle':
    case 'local_places_roundup':
      return `${listItemCount(request)} items`;
    default:
      return `a ${request.articleType}`;
  }
}

/**
 * The words asked for are the estimate's text words for the request (`estimateWords`: the same
 * table `plan` shows, FAQ and key takeaways included, images not); the article is out of range
 * below `lengthBand.below` × or above `lengthBand.above` × that.
 */
export const lengthCheck: Check = ({ article, words, options }) => {
  const expected = estimateWords(article.request).textWords;
  const low = Math.round(expected * options.lengthBand.below);
  const high = Math.round(expected * options.lengthBand.above);
  if (words >= low && words <= high) return [];
  const short = words < low;
  const advice = short ? 'regenerate it, or edit it to add text' : 'edit it to cut text, or regenerate it';
  return [
    {
      code: 'length_out_of_range',
      message: `the article has ${words.toLocaleString('en-US')} visible words, ${short ? 'fewer' : 'more'} than the ${low.toLocaleString('en-US')}–${high.toLocaleString('en-US')} expected for ${askedFor(article.request)} (about ${expected.toLocaleString('en-US')}); ${advice}`,
    },
  ];
};
