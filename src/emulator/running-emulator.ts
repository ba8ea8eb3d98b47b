// The public shapes of a running emulator: its control handle, request log entries, status records, drafts and balances.
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ArticleStatusValue } from '../contract/response-schema.js';
import type { Plan } from './accounts.js';
import type { FaultConfig } from './faults.js';
import type { Ledger } from './ledger.js';
import type { TimingOptions, TimingPreset } from './timing.js';
import type { WebhookDelivery } from './webhook-delivery.js';

/** One HTTP request as the emulator saw it. Never headers, keys or bodies. */
export interface RequestLogEntry {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Which route answered: createArticle, getArticle, internalLinks, image, ledger, health, or null (404). */
  route: string | null;
  /** HTTP status, or null when the connection was dropped without an answer. */
  status: number | null;
  /** Unix ms when the request arrived. */
  at: number;
  durationMs?: number;
  /** Account name, once authenticated. */
  account?: string;
  /** The injected fault, if any. */
  fault?: 'server_error' | 'rate_limited' | 'reset_before_processing' | 'reset_after_processing' | 'truncated_json' | 'invalid_json' | 'server_error_after_processing' | 'slow';
}

/** The status record exactly as `GET /api/articles/{id}` answers it. */
export interface ArticleStatusRecord {
  /** Emulator addition (not in the spec's table): the id, so webhook receivers know which article. */
  articleId: string;
  config: ArticleRequest;
  status: ArticleStatusValue;
  statusDetail: string;
  updatedAt: number;
  progress: number;
  error: { code: string; message: string } | null;
  output?: { html: string; polishedHtml: string | null };
}

/** A finished article "created as a draft" in a connected (non-webhook) integration. */
export interface CmsDraft {
  articleId: string;
  integrationId: string;
  account: string;
  title: string;
  at: number;
}

/** One account's plan and what it has left, as `balances()` reports it. */
export interface AccountBalance {
  account: string;
  plan: Plan;
  /** Words left (Infinity when unlimited). */
  words: number;
  /** Internal-link credits left (Infinity when unlimited). */
  credits: number;
}

/** A started emulator: its URL, what it recorded, and the controls tests steer it with. */
export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  /** The first account's API key. */
  apiKey: string;
  ledger: Ledger;
  /** Every HTTP request, in arrival order. */
  requests: RequestLogEntry[];
  /** Every webhook delivery with its attempts. */
  webhookDeliveries: readonly WebhookDelivery[];
  /** Drafts created in CMS integrations. */
  drafts: readonly CmsDraft[];
  /** An article's status record as the status route would answer it, or undefined. */
  article(articleId: string): ArticleStatusRecord | undefined;
  /** Ids of every article, in creation order. */
  articleIds(): string[];
  balances(): AccountBalance[];
  /** The secret of a custom webhook integration (configured or generated). */
  webhookSecret(integrationId: string): string | undefined;
  /** Replace the injected faults (reseeded, so a test's sequence is reproducible). */
  setFaults(faults: FaultConfig | undefined): void;
  /** Change timing; articles in progress continue at the new pace at once. */
  setTiming(timing: TimingPreset | TimingOptions): void;
  /**
   * End every current wait now: queued articles become eligible and each processing article moves
   * to its next step. Lets tests walk through the lifecycle under long timings without sleeping.
   */
  advance(): void;
  /** Stop starting queued articles until resume(). */
  pause(): void;
  resume(): void;
  /** Resolves when every article is finished or failed and every webhook delivery has ended. */
  settle(): Promise<void>;
  /** Forget articles, ledger, requests, idempotency keys, deliveries and rate-limit state. */
  reset(): void;
  /** Close the server and connections, cancel work, write the state file. Idempotent. */
  stop(): Promise<void>;
}
