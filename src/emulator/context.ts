// The state the emulator's pieces share, passed to each of them explicitly: settings, stores and what changes at runtime.
import type { AccountRegistry } from './accounts.js';
import type { ArticleRecord, ArticleWorkers } from './article-store.js';
import type { Clock } from './clock.js';
import type { FaultSwitch } from './faults.js';
import type { IdempotencyEntry, IdempotencyStore } from './idempotency.js';
import type { ImageUrlSigner } from './image-urls.js';
import type { Ledger, LedgerSnapshot } from './ledger.js';
import type { ModelWriter } from './model-writer/index.js';
import type { EmulatorOptions } from './options.js';
import type { RateLimiter } from './rate-limiter.js';
import type { CmsDraft, RequestLogEntry } from './running-emulator.js';
import type { Random } from './seeded-random.js';
import type { StateFile } from './state-file.js';
import type { ResolvedTiming } from './timing.js';
import type { WebhookSender } from './webhook-delivery.js';
import type { WrittenArticle } from './placeholder-writer/index.js';

/** What the state file holds. */
export interface StateSnapshot {
  version: number;
  savedAt: number;
  articles: ArticleRecord[];
  ledger: LedgerSnapshot;
  idempotency: IdempotencyEntry[];
}

/** One emulator's state. Built once by `createContext`; only `timing` and `origin` are reassigned later. */
export interface EmulatorContext {
  readonly options: EmulatorOptions;
  readonly accounts: AccountRegistry;
  /** The first account's API key. */
  readonly firstApiKey: string;
  /** Secrets of the custom webhook integrations, configured or generated, by integration id. */
  readonly secrets: ReadonlyMap<string, string>;
  /** The timing in force; `setTiming` replaces it. */
  timing: ResolvedTiming;
  /** Draws writing times and queue delays. */
  readonly timingRandom: Random;
  /** Draws the step at which a failing article fails. */
  readonly failureRandom: Random;
  readonly faults: FaultSwitch;
  /** Undefined when rate limiting is off. */
  readonly limiter: RateLimiter | undefined;
  readonly maxBodyBytes: number;
  readonly signer: ImageUrlSigner;
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly requests: RequestLogEntry[];
  readonly articles: Map<string, ArticleRecord>;
  readonly drafts: CmsDraft[];
  readonly idempotency: IdempotencyStore;
  readonly webhooks: WebhookSender;
  /** Rendered PNGs by image id, oldest first. */
  readonly pngCache: Map<string, Buffer>;
  /** Drafts written at creation (for billing), reused when a worker takes the article. */
  readonly pendingDrafts: Map<string, WrittenArticle>;
  readonly workers: ArticleWorkers;
  /** The language model that writes articles, when a writer URL is set; else the deterministic writer writes them. */
  readonly modelWriter: ModelWriter | undefined;
  readonly stateFile: StateFile<StateSnapshot> | undefined;
  /** Schedule a state-file write (nothing without a state file). */
  readonly persist: () => void;
  /** The origin image URLs are resolved against; '' until the server listens. */
  origin: string;
}
