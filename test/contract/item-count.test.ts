// One rule for a list article's item count: the keyword's count (digits or a number word, 1 to 100), else numberOfItems or 10; and `plan`'s estimate and the emulator's article agree on it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ITEM_COUNT, itemCountFromKeyword, listItemCount, type ListRequest } from '../../src/contract/item-count.js';
import { articleRequestSchema, type ArticleRequest } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { parseManifest } from '../../src/manifest/index.js';
import { estimateWords, WORD_ESTIMATE_TABLE } from '../../src/sync/index.js';

describe('itemCountFromKeyword', () => {
  it.each([
    ['7 best grinders', 7],
    ['ten best pour over kettles', 10],
    ['best 15 hiking trails', 15],
    ['Top Twenty Board Games', 20],
    ['top-5 espresso machines', 5],
    ['best headphones under 200 for 7 hours', 7],
    ['best laptops 2026', undefined],
    ['best kettles', undefined],
    ['0 waste kitchens', undefined],
  ])('%s → %s', (keyword, count) => {
    expect(itemCountFromKeyword(keyword)).toBe(count);
  });
});

describe('listItemCount', () => {
  const list = (input: Record<string, unknown>): ListRequest => articleRequestSchema.parse({ articleType: 'listicle', ...input }) as ListRequest;

  it('should take the keyword\'s count with enableAutomaticLength (the default), else 10', () => {
    expect(listItemCount(list({ targetKeyword: 'ten best pour over kettles' }))).toBe(10);
    expect(listItemCount(list({ targetKeyword: '7 best grinders' }))).toBe(7);
    expect(listItemCount(list({ targetKeyword: 'best kettles' }))).toBe(DEFAULT_ITEM_COUNT);
  });

  it('should take numberOfItems, and only it, when enableAutomaticLength is false', () => {
    expect(listItemCount(list({ targetKeyword: '7 best grinders', enableAutomaticLength: false, numberOfItems: 4 }))).toBe(4);
  });
});

/** The request `plan` estimates and the emulator writes, from one manifest entry. */
function requestOf(entry: string): ArticleRequest {
  return articleRequestSchema.parse(parseManifest(`articles:\n  - ${entry}\n`, 'articles.yaml').specs[0]!.request);
}

/** The items (list entries, products) the estimate counted: its text words without the frame, per item. */
function estimatedItems(request: ArticleRequest): number {
  const t = WORD_ESTIMATE_TABLE;
  const { textWords } = estimateWords(request);
  const faq = request.includeFaq ? t.faq : 0;
  if (request.articleType === 'retail_product_roundup') return (textWords - t.retailFrame - faq) / t.perRetailProduct;
  if (request.articleType !== 'listicle' && request.articleType !== 'local_places_roundup') throw new Error(`${request.articleType} has no items`);
  const supplemental = request.enableSupplementalInformation ? t.supplementalInformation : 0;
  return (textWords - t.listFrame - supplemental - faq) / t.perListItem;
}

/** The items of the emulator's article: its numbered item headings (`<h2>3. Name</h2>`, `<h3><strong>3. Name</strong></h3>`), 1 to n in order. */
function writtenItems(request: ArticleRequest): number {
  const numbers = [...writeArticle(request).html.matchAll(/<h[2-4]\b[^>]*>(?:<[^>]+>)*(\d+)\. /g)].map((match) => Number(match[1]));
  expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  return numbers.length;
}

describe('the estimate and the emulator agree on the item count', () => {
  it.each([
    ['{ keyword: ten best pour over kettles, articleType: listicle }', 10],
    ['{ keyword: 7 best grinders, articleType: listicle }', 7],
    ['{ keyword: twelve quiet cafes in lyon, articleType: local_places_roundup }', 12],
    ['{ keyword: best kettles, articleType: listicle }', 10],
    ['{ keyword: best headphones under 200, articleType: listicle }', 10],
    ['{ keyword: best kettles, articleType: listicle, enableAutomaticLength: false, numberOfItems: 4, includeFaq: true }', 4],
    ['{ keyword: 3 best espresso machines, articleType: retail_product_roundup, numRetailProducts: 6 }', 6],
  ])('%s → %i items', (entry, count) => {
    const request = requestOf(entry);
    expect(estimatedItems(request)).toBe(count);
    expect(writtenItems(request)).toBe(count);
  });
});
