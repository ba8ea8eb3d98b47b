// How many items a list article has: the one rule for `plan`'s estimate, the placeholder writer and the model writer.
import type { ArticleRequest } from './request-schema.js';

/** The item count of a list article whose keyword states none (spec: "otherwise 10"; `numberOfItems` default 10). */
export const DEFAULT_ITEM_COUNT = 10;

/** Largest item count taken from a keyword; bigger numbers are prices, sizes or model numbers ("headphones under 200"). */
export const MAX_KEYWORD_ITEM_COUNT = 100;

/** "1. Granite Ridge", "2) …", "#3 – …", "4: …": how a list's items and a roundup's products are numbered in their headings (the check counts them, the emulator writes them). */
export const NUMBERED_ITEM = /^#?\s*(\d{1,3})\s*[.):–-]\s*\S/u;

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
};

/**
 * The item count a keyword states, if any: the first number of 1 to 100 written in digits or as
 * an English word ("best 7 hiking trails" → 7, "ten best pour over kettles" → 10). The spec takes
 * the count "from the keyword if it states one", and a count written as a word is stated as well.
 */
export function itemCountFromKeyword(keyword: string): number | undefined {
  for (const token of keyword.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (/^\d{1,3}$/.test(token)) {
      const value = Number(token);
      if (value >= 1 && value <= MAX_KEYWORD_ITEM_COUNT) return value;
    }
    const word = NUMBER_WORDS[token];
    if (word !== undefined) return word;
  }
  return undefined;
}

/** A request for a list article: the types whose length is a number of items. */
export type ListRequest = Extract<ArticleRequest, { articleType: 'listicle' | 'local_places_roundup' }>;

/** The number of items a list article has (spec: `enableAutomaticLength`, `numberOfItems`). */
export function listItemCount(request: ListRequest): number {
  return request.enableAutomaticLength ? (itemCountFromKeyword(request.targetKeyword) ?? DEFAULT_ITEM_COUNT) : request.numberOfItems;
}
