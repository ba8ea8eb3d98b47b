// Fault injection: seeded, per-route failures that exercise a client's retry and create-safety logic.
import { EmulatorError } from './errors.js';
import { createRandom, type Random } from './seeded-random.js';

export const FAULT_ROUTES = ['createArticle', 'getArticle', 'internalLinks', 'image'] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];

/** A delay: fixed milliseconds or a range drawn from the seeded generator. */
export type DelaySpec = number | { minMs: number; maxMs: number };

/** Shares are probabilities per request, 0..1. */
export interface FaultOptions {
  /** Answer 500 before processing. */
  serverErrors?: number;
  /** Start a burst of 429s with Retry-After (this request and the next `length - 1` of the route). */
  rateLimitBursts?: number | { share: number; length?: number; retryAfterSeconds?: number };
  /** Drop the connection before the request is processed (nothing happened). */
  resetsBeforeProcessing?: number;
  /** Process the request, then drop the connection instead of answering (e.g. an article created, the answer lost). */
  resetsAfterProcessing?: number;
  /** Delay the answer (latency spikes). */
  slowResponses?: number | { share: number; delayMs?: DelaySpec };
  /** Process the request, then send a JSON answer cut short (valid HTTP, unreadable JSON). */
  truncatedJson?: number;
  /** Process the request, then send a 200 whose body is not valid JSON. */
  invalidJson?: number;
  /** Process the request (a create is billed and in the ledger), then answer 500 as if it had failed. */
  serverErrorsAfterProcessing?: number;
}

/** What an ambiguous create answers, once it was billed. */
export const AMBIGUOUS_KINDS = ['server_error', 'reset', 'truncated_json', 'invalid_json'] as const;
export type AmbiguousKind = (typeof AMBIGUOUS_KINDS)[number];

export interface FaultConfig extends FaultOptions {
  /** Articles that end `failed` with `error: { code, message }` instead of finishing. */
  failedArticles?: number | { share: number; code?: string; message?: string };
  /**
   * Creates whose outcome the client cannot know: the article is created, billed and in the ledger,
   * then the answer is a 500, a reset connection or broken JSON (one of `kinds`, drawn per create).
   */
  ambiguousCreates?: number | { share: number; kinds?: readonly AmbiguousKind[] };
  /** Per-route settings; each replaces the base setting of the same name for that route. */
  routes?: Partial<Record<FaultRoute, FaultOptions>>;
}

export const DEFAULT_BURST_LENGTH = 3;
export const DEFAULT_BURST_RETRY_AFTER_SECONDS = 1;
export const DEFAULT_SLOW_DELAY: DelaySpec = { minMs: 100, maxMs: 1000 };
export const DEFAULT_ARTICLE_FAILURE = { code: 'generation_failed', message: 'The writing model stopped before the article was complete. Create the article again.' };

export type BeforeFault =
  | { kind: 'none' }
  | { kind: 'reset' }
  | { kind: 'server_error' }
  | { kind: 'rate_limited'; retryAfterSeconds: number };
export type AfterFault = 'none' | 'reset' | 'truncated_json' | 'invalid_json' | 'server_error';

interface ResolvedRoute {
  serverErrors: number;
  burstShare: number;
  burstLength: number;
  burstRetryAfter: number;
  resetsBefore: number;
  resetsAfter: number;
  slowShare: number;
  slowDelay: DelaySpec;
  truncatedJson: number;
  invalidJson: number;
  serverErrorsAfter: number;
}

function share(value: unknown, name: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new EmulatorError('emulator_invalid_options', `Fault option ${name} is ${JSON.stringify(value)}; use a share from 0 to 1.`);
  }
  return value;
}

function delay(value: unknown, name: string): DelaySpec {
  if (typeof value === 'number' && value >= 0) return value;
  if (typeof value === 'object' && value !== null) {
    const { minMs, maxMs } = value as { minMs?: unknown; maxMs?: unknown };
    if (typeof minMs === 'number' && typeof maxMs === 'number' && minMs >= 0 && maxMs >= minMs) return { minMs, maxMs };
  }
  throw new EmulatorError('emulator_invalid_options', `Fault option ${name} is ${JSON.stringify(value)}; use milliseconds or { minMs, maxMs } with 0 ≤ minMs ≤ maxMs.`);
}

/** The delay a spec gives for a roll in [0, 1). */
export function delayFor(spec: DelaySpec, roll: number): number {
  return typeof spec === 'number' ? spec : spec.minMs + roll * (spec.maxMs - spec.minMs);
}

function resolveRoute(base: FaultOptions, own: FaultOptions | undefined, route: string): ResolvedRoute {
  const pick = <K extends keyof FaultOptions>(key: K): FaultOptions[K] => (own !== undefined && key in own ? own[key] : base[key]);
  const bursts = pick('rateLimitBursts');
  const slow = pick('slowResponses');
  const burst: { share?: number; length?: number; retryAfterSeconds?: number } = typeof bursts === 'object' ? bursts : { share: bursts ?? 0 };
  const slowness: { share?: number; delayMs?: DelaySpec } = typeof slow === 'object' ? slow : { share: slow ?? 0 };
  const burstLength = burst.length ?? DEFAULT_BURST_LENGTH;
  const burstRetryAfter = burst.retryAfterSeconds ?? DEFAULT_BURST_RETRY_AFTER_SECONDS;
  if (!Number.isInteger(burstLength) || burstLength < 1) throw new EmulatorError('emulator_invalid_options', `Fault option ${route}.rateLimitBursts.length must be a whole number ≥ 1.`);
  if (!Number.isInteger(burstRetryAfter) || burstRetryAfter < 0) throw new EmulatorError('emulator_invalid_options', `Fault option ${route}.rateLimitBursts.retryAfterSeconds must be a whole number ≥ 0.`);
  return {
    serverErrors: share(pick('serverErrors'), `${route}.serverErrors`),
    burstShare: share(burst.share, `${route}.rateLimitBursts`),
    burstLength,
    burstRetryAfter,
    resetsBefore: share(pick('resetsBeforeProcessing'), `${route}.resetsBeforeProcessing`),
    resetsAfter: share(pick('resetsAfterProcessing'), `${route}.resetsAfterProcessing`),
    slowShare: share(slowness.share, `${route}.slowResponses`),
    slowDelay: delay(slowness.delayMs ?? DEFAULT_SLOW_DELAY, `${route}.slowResponses.delayMs`),
    truncatedJson: share(pick('truncatedJson'), `${route}.truncatedJson`),
    invalidJson: share(pick('invalidJson'), `${route}.invalidJson`),
    serverErrorsAfter: share(pick('serverErrorsAfterProcessing'), `${route}.serverErrorsAfterProcessing`),
  };
}

function resolveAmbiguous(value: FaultConfig['ambiguousCreates']): { share: number; kinds: readonly AmbiguousKind[] } {
  const given: { share?: number; kinds?: readonly AmbiguousKind[] } = typeof value === 'object' ? value : { share: value ?? 0 };
  const kinds = given.kinds ?? AMBIGUOUS_KINDS;
  const unknown = kinds.filter((kind) => !(AMBIGUOUS_KINDS as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new EmulatorError('emulator_invalid_options', `Fault option ambiguousCreates.kinds must list some of ${AMBIGUOUS_KINDS.join(', ')}${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}.`);
  }
  return { share: share(given.share, 'ambiguousCreates'), kinds };
}

/**
 * Decides, per request, which fault (if any) to inject. Each route has its own seeded stream and
 * draws the same number of values per request, so a given sequence of requests to a route always
 * meets the same faults.
 */
export class FaultInjector {
  readonly #routes: Record<FaultRoute, ResolvedRoute>;
  readonly #streams: Record<FaultRoute, Random>;
  readonly #articles: Random;
  readonly #burstLeft: Record<FaultRoute, number> = { createArticle: 0, getArticle: 0, internalLinks: 0, image: 0 };
  readonly #failure: { share: number; code: string; message: string };
  /** Streams of their own, so the faults added later leave every earlier seeded sequence as it was. */
  readonly #laterStreams: Record<FaultRoute, Random>;
  readonly #ambiguous: { share: number; kinds: readonly AmbiguousKind[] };

  constructor(config: FaultConfig, random: Random) {
    for (const key of Object.keys(config.routes ?? {})) {
      if (!(FAULT_ROUTES as readonly string[]).includes(key)) {
        throw new EmulatorError('emulator_invalid_options', `Unknown fault route "${key}"; use one of ${FAULT_ROUTES.join(', ')}.`);
      }
    }
    this.#routes = Object.fromEntries(FAULT_ROUTES.map((route) => [route, resolveRoute(config, config.routes?.[route], route)])) as Record<FaultRoute, ResolvedRoute>;
    this.#streams = Object.fromEntries(FAULT_ROUTES.map((route) => [route, random.fork(`faults:${route}`)])) as Record<FaultRoute, Random>;
    this.#articles = random.fork('faults:articles');
    this.#laterStreams = Object.fromEntries(FAULT_ROUTES.map((route) => [route, random.fork(`faults:later:${route}`)])) as Record<FaultRoute, Random>;
    this.#ambiguous = resolveAmbiguous(config.ambiguousCreates);
    const failed: { share?: number; code?: string; message?: string } =
      typeof config.failedArticles === 'object' ? config.failedArticles : { share: config.failedArticles ?? 0 };
    this.#failure = {
      share: share(failed.share, 'failedArticles'),
      code: failed.code ?? DEFAULT_ARTICLE_FAILURE.code,
      message: failed.message ?? DEFAULT_ARTICLE_FAILURE.message,
    };
  }

  /** Latency to add and the fault to apply before the request is processed. */
  before(route: FaultRoute): { delayMs: number; fault: BeforeFault } {
    const options = this.#routes[route];
    const random = this.#streams[route];
    const slowRoll = random.next();
    const delayRoll = random.next();
    const resetRoll = random.next();
    const errorRoll = random.next();
    const burstRoll = random.next();
    const delayMs = slowRoll < options.slowShare ? delayFor(options.slowDelay, delayRoll) : 0;
    if (this.#burstLeft[route] > 0) {
      this.#burstLeft[route]--;
      return { delayMs, fault: { kind: 'rate_limited', retryAfterSeconds: options.burstRetryAfter } };
    }
    if (resetRoll < options.resetsBefore) return { delayMs, fault: { kind: 'reset' } };
    if (errorRoll < options.serverErrors) return { delayMs, fault: { kind: 'server_error' } };
    if (burstRoll < options.burstShare) {
      this.#burstLeft[route] = options.burstLength - 1;
      return { delayMs, fault: { kind: 'rate_limited', retryAfterSeconds: options.burstRetryAfter } };
    }
    return { delayMs, fault: { kind: 'none' } };
  }

  /** The fault to apply to the answer of a processed request. */
  after(route: FaultRoute, json: boolean): AfterFault {
    const options = this.#routes[route];
    const random = this.#streams[route];
    const resetRoll = random.next();
    const truncateRoll = random.next();
    const invalidRoll = random.next();
    const later = this.#laterStreams[route];
    const serverErrorRoll = later.next();
    const ambiguousRoll = later.next();
    const kindRoll = later.next();
    if (route === 'createArticle' && ambiguousRoll < this.#ambiguous.share) {
      const kind = this.#ambiguous.kinds[Math.min(this.#ambiguous.kinds.length - 1, Math.floor(kindRoll * this.#ambiguous.kinds.length))]!;
      return kind === 'reset' || json || kind === 'server_error' ? kind : 'none';
    }
    if (resetRoll < options.resetsAfter) return 'reset';
    if (json && truncateRoll < options.truncatedJson) return 'truncated_json';
    if (json && invalidRoll < options.invalidJson) return 'invalid_json';
    if (serverErrorRoll < options.serverErrorsAfter) return 'server_error';
    return 'none';
  }

  /** Whether a newly created article will fail, and how. Drawn once per creation. */
  articleFailure(): { code: string; message: string } | undefined {
    const roll = this.#articles.next();
    return roll < this.#failure.share ? { code: this.#failure.code, message: this.#failure.message } : undefined;
  }
}

/**
 * The injector in force. Replacing the config or starting over (a reset) seeds a new injector from
 * the next generation's stream, so each sequence of faults is reproducible from the seed.
 */
export class FaultSwitch {
  readonly #random: Random;
  #config: FaultConfig;
  #generation = 0;
  #current: FaultInjector;

  constructor(config: FaultConfig, random: Random) {
    this.#random = random;
    this.#current = new FaultInjector(config, random.fork(`faults:${this.#generation}`));
    this.#config = config;
  }

  /** The injector to ask now; read it at each decision, as it may be replaced between two. */
  get current(): FaultInjector {
    return this.#current;
  }

  /** Use a new config, reseeded. */
  replace(config: FaultConfig): void {
    this.#config = config;
    this.reseed();
  }

  /** Start the current config over from a fresh stream. */
  reseed(): void {
    this.#generation++;
    this.#current = new FaultInjector(this.#config, this.#random.fork(`faults:${this.#generation}`));
  }
}
