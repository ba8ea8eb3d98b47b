// The flaws knob: which articles the emulator writes with planted flaws (missing keyword, repeats, …), chosen by keyword or by a seeded share.
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import type { ArticleRequest } from '../contract/request-schema.js';
import { createRandom } from './seeded-random.js';

/** What can go wrong in a flawed article; each trips one quality check (docs/emulator.md, "Flawed articles"). */
export const FLAW_KINDS = ['missing-keyword', 'repeated-paragraph', 'wrong-item-count', 'other-language', 'writer-leftover', 'copy'] as const;
export type FlawKind = (typeof FLAW_KINDS)[number];

/** Article types with a count of items or products: the only ones `wrong-item-count` can miscount. */
const COUNTED_TYPES: readonly ArticleRequest['articleType'][] = ['listicle', 'local_places_roundup', 'retail_product_roundup'];

export interface FlawOptions {
  /** Flaws by target keyword (case and spacing ignored): these articles get exactly these. */
  articles?: Record<string, FlawKind[]>;
  /** Share (0–1) of the other articles that get one flaw, picked by `seed` and the keyword. Default 0. */
  rate?: number;
  /** Seed of the `rate` picks. Default: the emulator's `seed`. */
  seed?: number;
  /** The kinds `rate` picks from. Default: every kind. */
  kinds?: FlawKind[];
}

/** The flaws one article is written with, decided at its creation (kept on its record). */
export interface ArticleFlaws {
  kinds: FlawKind[];
  /** `copy`: the id of the article it copies (the one created just before it on the same account). */
  copyOf?: string;
}

/** "unknown flaw kind "x"; did you mean "y"? (the kinds are …)". */
export function unknownKindMessage(value: unknown): string {
  const text = String(value);
  const guess = typeof value === 'string' ? closest(value.toLowerCase(), [...FLAW_KINDS]) : undefined;
  const hint = guess !== undefined && distance(text.toLowerCase(), guess) <= Math.max(2, Math.floor(guess.length / 3)) ? `; did you mean "${guess}"?` : '';
  return `unknown flaw kind ${JSON.stringify(value)}${hint} (the kinds are ${FLAW_KINDS.join(', ')})`;
}

function isFlawKind(value: string): value is FlawKind {
  return (FLAW_KINDS as readonly string[]).includes(value);
}

const flawKindSchema = z.string({ error: `must be a flaw kind: ${FLAW_KINDS.join(', ')}` }).refine(isFlawKind, { error: (issue) => unknownKindMessage(issue.input) });

/** The knob's shape, for the config file and the loader's `emulator.flaws`. */
export const flawOptionsSchema = z.strictObject(
  {
    articles: z.record(z.string().min(1, { error: 'a keyword must not be empty' }), z.array(flawKindSchema, { error: 'must be a list of flaw kinds, e.g. ["missing-keyword"]' })).optional(),
    rate: z.number({ error: 'must be a share from 0 to 1, e.g. 0.2' }).min(0, { error: 'must be 0 or more' }).max(1, { error: 'must be at most 1' }).optional(),
    seed: z.number({ error: 'must be a whole number, e.g. 7' }).int({ error: 'must be a whole number' }).optional(),
    kinds: z.array(flawKindSchema, { error: 'must be a list of flaw kinds, e.g. ["repeated-paragraph", "copy"]' }).min(1, { error: 'must name at least one kind' }).optional(),
  },
  { error: 'must be { articles?, rate?, seed?, kinds? }' },
);

/** Each problem of `flaws` as "flaws.<path>: <what is wrong>", or none. */
export function flawOptionProblems(flaws: unknown): string[] {
  const parsed = flawOptionsSchema.safeParse(flaws);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const at = issue.path.reduce<string>((path, part) => (typeof part === 'number' ? `${path}[${part}]` : `${path}.${String(part)}`), 'flaws');
    if (issue.code === 'unrecognized_keys') return `${at}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} (the keys are articles, rate, seed, kinds)`;
    return `${at}: ${issue.message}`;
  });
}

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
