// item_count_mismatch: a list's numbered items, or a roundup's numbered products, against the count the request asks for.
import type { ArticleRequest } from '../contract/request-schema.js';
import { listItemCount, NUMBERED_ITEM } from '../contract/item-count.js';
import type { ArticleBlock } from './article-reading.js';
import type { Check } from './check-context.js';


/** The count asked for and where it comes from, for article types that have one; the estimate's rule. */
function expectedCount(request: ArticleRequest): { count: number; source: string; change: string } | undefined {
  switch (request.articleType) {
    case 'listicle':
    case 'local_places_roundup':
      return request.enableAutomaticLength
        ? { count: listItemCount(request), source: `enableAutomaticLength: the count in the keyword "${request.targetKeyword}", or 10 when it states none`, change: 'the count in the keyword, or set enableAutomaticLength: false and numberOfItems' }
        : { count: request.numberOfItems, source: 'numberOfItems', change: 'numberOfItems' };
    case 'retail_product_roundup':
      return { count: request.numRetailProducts, source: 'numRetailProducts', change: 'numRetailProducts' };
    default:
      return undefined;
  }
}

/** The numbered headings at the level that has most of them: the items. */
export function numberedItems(blocks: readonly ArticleBlock[]): string[] {
  const byLevel = new Map<number, string[]>();
  for (const block of blocks) {
    if (block.kind !== 'heading' || !NUMBERED_ITEM.test(block.text)) continue;
    byLevel.set(block.level, [...(byLevel.get(block.level) ?? []), block.text]);
  }
  let items: string[] = [];
  for (const texts of byLevel.values()) if (texts.length > items.length) items = texts;
  return items;
}

/** An article whose items are not numbered headings is not counted: nothing to compare. */
export const itemCountCheck: Check = ({ article, reading }) => {
  const expected = expectedCount(article.request);
  if (expected === undefined) return [];
  const items = numberedItems(reading.blocks);
  if (items.length === 0 || items.length === expected.count) return [];
  const kind = article.request.articleType === 'retail_product_roundup' ? 'products' : 'items';
  return [
    {
      code: 'item_count_mismatch',
      message: `the article has ${items.length} numbered ${kind} ("${items[0]}" … "${items[items.length - 1]}") where the request asks for ${expected.count} (${expected.source}); regenerate it, edit it, or change ${expected.change}`,
    },
  ];
};
