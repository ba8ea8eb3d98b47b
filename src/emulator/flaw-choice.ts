// Which articles the emulator writes with planted flaws: those the knob names by keyword, and a seeded share of the rest.
import type { ArticleRequest } from '../contract/request-schema.js';
import { FLAW_KINDS, type FlawKind, type FlawOptions } from './flaw-options.js';
import { createRandom } from './seeded-random.js';

/** Article types with a count of items or products: the only ones `wrong-item-count` can miscount. */
const COUNTED_TYPES: readonly ArticleRequest['articleType'][] = ['listicle', 'local_places_roundup', 'retail_product_roundup'];

function keyOf(keyword: string): string {
  return keyword.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The flaws an article is written with: those `articles` names for its keyword, else, for a
 * `rate` share of the others, one kind drawn (by the seed and the keyword alone, so the same seed
 * and keywords give the same flaws) from `kinds` that fit the article (`wrong-item-count` only
 * where there is a count). Undefined for a clean article.
 */
export function flawsFor(options: FlawOptions | undefined, emulatorSeed: string, request: ArticleRequest): FlawKind[] | undefined {
  if (options === undefined) return undefined;
  const key = keyOf(request.targetKeyword);
  const named = Object.entries(options.articles ?? {}).find(([keyword]) => keyOf(keyword) === key)?.[1];
  if (named !== undefined) return named.length === 0 ? undefined : [...new Set(named)];
  const rate = options.rate ?? 0;
  if (rate <= 0) return undefined;
  const random = createRandom(`${options.seed ?? emulatorSeed}\u0000flaws\u0000${key}`);
  if (random.next() >= rate) return undefined;
  const fitting = (options.kinds ?? FLAW_KINDS).filter((kind) => kind !== 'wrong-item-count' || COUNTED_TYPES.includes(request.articleType));
  return fitting.length === 0 ? undefined : [random.pick(fitting)];
}
