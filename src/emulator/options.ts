// The emulator's options, each documented with its default, and their validation.
import type { ArticleRequest } from '../contract/request-schema.js';
import { IMAGE_MODELS, IMAGE_WORD_COST } from '../contract/request-schema.js';
import { DEVELOPMENT_API_KEY, type AccountOptions, type DomainOptions, type IntegrationOptions } from './accounts.js';
import { EmulatorError } from './errors.js';
import type { FaultConfig } from './faults.js';
import { flawOptionProblems, type FlawOptions } from './flaw-options.js';
import type { ModelWriterOptions } from './model-writer/index.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limiter.js';
import type { TimingOptions, TimingPreset } from './timing.js';
import type { WebhookRetryOptions } from './webhook-delivery.js';
import { isWebhookSecret } from './webhook-signature.js';

export type ImageModel = (typeof IMAGE_MODELS)[number];

export interface EmulatorOptions {
  /** TCP port; default 0 (an ephemeral port, read it from `url`). */
  port?: number;
  /** Interface to listen on; default '127.0.0.1' (loopback only). */
  host?: string;
  /** Base of the image URLs in articles; default the emulator's own `url`. */
  publicUrl?: string;
  /** Seed of every random choice (faults, timings, cosmetic HTML). Default 1. */
  seed?: number | string;
  /** Accounts (API key, plan, balances). Default: one account with `apiKey`. */
  accounts?: AccountOptions[];
  /** Key of the single default account when `accounts` is not given. Default 'emulator-dev-key'. */
  apiKey?: string;
  /** Domains for internal links, shared by every account; or the path of a JSON file holding them. */
  domains?: DomainOptions[] | string;
  /** Integrations (custom webhooks, CMS drafts) shared by every account. */
  integrations?: IntegrationOptions[];
  /** 'realtime' (tens of seconds), 'fast' (seconds, the default), 'instant' (tests) or explicit timings. */
  timing?: TimingPreset | TimingOptions;
  /** Articles written at once; more stay `queued`. Default Infinity. */
  workers?: number;
  /** Per-account rate limit; false turns it off. Default 100 requests/s, bursts of 300. */
  rateLimit?: RateLimitOptions | false;
  /** Largest accepted request body in bytes; larger gets 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Image URLs expire this long after the article finished (then 403). Default: never. */
  imageUrlTtlMs?: number;
  /** Injected faults; change them at runtime with `setFaults`. Default none. */
  faults?: FaultConfig;
  /**
   * Articles written with planted flaws (a missing keyword, a repeated paragraph, a wrong item count,
   * another language, writer leftovers, a copy), for trying quality checks. Default: none.
   */
  flaws?: FlawOptions;
  /** Webhook delivery retries. Default 5 attempts, doubling delay from the timing's base, ≤ 60 s. */
  webhooks?: WebhookRetryOptions;
  /** Persist articles, ledger and idempotency keys to this JSON file and reload them on start. */
  stateFile?: string;
  /** How long an Idempotency-Key is remembered. Default 24 h. */
  idempotencyTtlMs?: number;
  /**
   * Words billed per generated image, by image model. Default: the spec's 50 / 200 words, and 50
   * for the models the spec prices nowhere (imagegen-3.0-turbo, compact-image-2).
   */
  imageWordCost?: Partial<Record<ImageModel, number>>;
  /**
   * Write articles with a language model behind an OpenAI-compatible server (llama.cpp, vLLM, Ollama)
   * instead of the deterministic placeholder writer. Default: the deterministic writer.
   */
  writer?: ModelWriterOptions;
  /** Called with one line per HTTP request (method, path, status, ms); never keys. Default: silent. */
  onRequest?: (line: string) => void;
}

/** Words per image for models the spec does not price: the cheapest priced tier. */
export const UNPRICED_IMAGE_WORD_COST = 50;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_SEED = 1;

export function imageWordCostFor(model: ImageModel, overrides: Partial<Record<ImageModel, number>> | undefined): number {
  return overrides?.[model] ?? IMAGE_WORD_COST[model] ?? UNPRICED_IMAGE_WORD_COST;
}

/** The image model a request's images are billed by (only blog posts choose one). */
export function imageModelOf(request: ArticleRequest): ImageModel {
  return request.articleType === 'blog_post' ? request.imageModel : 'model-image-2-fast';
}

function fail(message: string): never {
  throw new EmulatorError('emulator_invalid_options', message);
}

/** Check the options a caller can get wrong, with messages that say how to fix them. */
export function validateOptions(options: EmulatorOptions): void {
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    fail(`Emulator option port is ${String(options.port)}; use a whole number from 0 to 65535 (0 picks a free port).`);
  }
  if (options.workers !== undefined && !(options.workers === Number.POSITIVE_INFINITY || (Number.isInteger(options.workers) && options.workers >= 1))) {
    fail(`Emulator option workers is ${String(options.workers)}; use a whole number ≥ 1, or Infinity.`);
  }
  if (options.maxBodyBytes !== undefined && !(Number.isInteger(options.maxBodyBytes) && options.maxBodyBytes > 0)) {
    fail(`Emulator option maxBodyBytes is ${String(options.maxBodyBytes)}; use a whole number of bytes > 0.`);
  }
  if (options.imageUrlTtlMs !== undefined && !(typeof options.imageUrlTtlMs === 'number' && options.imageUrlTtlMs >= 0)) {
    fail(`Emulator option imageUrlTtlMs is ${String(options.imageUrlTtlMs)}; use milliseconds ≥ 0, or leave it out for URLs that never expire.`);
  }
  if (options.rateLimit !== undefined && options.rateLimit !== false) {
    const { requestsPerSecond, burst } = options.rateLimit;
    if (!(typeof requestsPerSecond === 'number' && requestsPerSecond > 0)) fail('Emulator option rateLimit.requestsPerSecond must be a number > 0 (or set rateLimit: false).');
    if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1)) fail('Emulator option rateLimit.burst must be a whole number ≥ 1.');
  }
  if (options.accounts !== undefined && options.apiKey !== undefined) {
    fail('Emulator options accounts and apiKey are both set; use accounts for several keys, or apiKey for one.');
  }
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(options.publicUrl)) {
    fail(`Emulator option publicUrl "${options.publicUrl}" is not an absolute http(s) URL.`);
  }
  const integrations = [...(options.integrations ?? []), ...(options.accounts ?? []).flatMap((a) => a.integrations ?? [])];
  for (const integration of integrations) {
    if (integration.type !== 'custom_webhook' && integration.type !== 'cms') {
      fail(`Integration "${integration.id}" has type ${JSON.stringify(integration.type)}; use "custom_webhook" or "cms".`);
    }
    if (integration.type === 'custom_webhook' && (integration.url === undefined || !/^https?:\/\//.test(integration.url))) {
      fail(`Integration "${integration.id}" is a custom webhook without an http(s) url; add the endpoint that receives deliveries.`);
    }
    // The secret itself is never echoed.
    if (integration.secret !== undefined && !isWebhookSecret(integration.secret)) {
      fail(`Integration "${integration.id}" has a secret that is not whsec_<base64 of at least 16 bytes>; generate one with generateWebhookSecret().`);
    }
  }
  const flawProblems = options.flaws === undefined ? [] : flawOptionProblems(options.flaws);
  if (flawProblems.length > 0) fail(`Emulator option ${flawProblems.join('; ')}.`);
  for (const [model, cost] of Object.entries(options.imageWordCost ?? {})) {
    if (!(IMAGE_MODELS as readonly string[]).includes(model)) fail(`Emulator option imageWordCost names unknown image model "${model}"; use one of ${IMAGE_MODELS.join(', ')}.`);
    if (!(typeof cost === 'number' && cost >= 0)) fail(`Emulator option imageWordCost["${model}"] must be a number ≥ 0.`);
  }
}

/** The accounts to create: `accounts`, else one professional account with `apiKey` or the development key. */
export function accountOptionsOf(options: EmulatorOptions): AccountOptions[] {
  if (options.accounts !== undefined) return options.accounts;
  return [{ name: 'default', apiKey: options.apiKey ?? DEVELOPMENT_API_KEY, plan: 'professional' }];
}

export function rateLimitOf(options: EmulatorOptions): RateLimitOptions | false {
  return options.rateLimit ?? DEFAULT_RATE_LIMIT;
}
