// Delivering completion webhooks: plain (deprecated webhookUrl) or signed (custom webhook integration), with retries.
import { randomUUID } from 'node:crypto';
import type { Clock } from './clock.js';
import { signWebhook } from './webhook-signature.js';

export interface WebhookRetryOptions {
  /** Attempts per delivery, first included. Default 5. */
  maxAttempts?: number;
  /** Cap of the doubling delay between attempts. Default 60 s. */
  maxDelayMs?: number;
  /** Time allowed per attempt. Default 10 s. */
  timeoutMs?: number;
}

export const DEFAULT_WEBHOOK_RETRY = { maxAttempts: 5, maxDelayMs: 60_000, timeoutMs: 10_000 } as const;

export interface WebhookAttempt {
  at: number;
  /** HTTP status, or null when no answer came (the error says why). */
  status: number | null;
  error?: string;
}

export interface WebhookDelivery {
  /** The `webhook-id` (same for every attempt of one delivery). */
  id: string;
  articleId: string;
  kind: 'webhook_url' | 'integration';
  integrationId?: string;
  /** Origin and path of the target (query left out: it may carry a token). */
  target: string;
  /** Event type of signed deliveries: `article.finished` or `article.failed`. */
  event: string;
  attempts: WebhookAttempt[];
  state: 'pending' | 'delivered' | 'gave_up';
}

export interface WebhookTarget {
  kind: 'webhook_url' | 'integration';
  url: string;
  integrationId?: string;
  /** Present for signed deliveries. */
  secret?: string;
}

function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return '(invalid URL)';
  }
}

export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #clock: Clock;
  readonly #options: Required<WebhookRetryOptions>;
  readonly #retryBaseMs: () => number;
  readonly #abort = new AbortController();

  constructor(clock: Clock, options: WebhookRetryOptions, retryBaseMs: () => number) {
    this.#clock = clock;
    this.#options = { ...DEFAULT_WEBHOOK_RETRY, ...options };
    this.#retryBaseMs = retryBaseMs;
  }

  /** Start delivering in the background; `idle()` waits for every delivery to end. */
  send(target: WebhookTarget, articleId: string, event: string, body: unknown): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: `msg_${randomUUID().replace(/-/g, '')}`,
      articleId,
      kind: target.kind,
      ...(target.integrationId === undefined ? {} : { integrationId: target.integrationId }),
      target: describeTarget(target.url),
      event,
      attempts: [],
      state: 'pending',
    };
    this.deliveries.push(delivery);
    const run = this.#run(delivery, target, body).finally(() => this.#pending.delete(run));
    this.#pending.add(run);
    return delivery;
  }

  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  stop(): void {
    this.#abort.abort();
  }

  async #run(delivery: WebhookDelivery, target: WebhookTarget, body: unknown): Promise<void> {
    const payload =
      target.secret === undefined ? JSON.stringify(body) : JSON.stringify({ type: delivery.event, timestamp: new Date().toISOString(), data: body });
    for (let attempt = 1; attempt <= this.#options.maxAttempts; attempt++) {
      if (this.#abort.signal.aborted) break;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'astro-article-loader-emulator' };
      if (target.secret !== undefined) {
        const timestamp = Math.floor(Date.now() / 1000);
        headers['webhook-id'] = delivery.id;
        headers['webhook-timestamp'] = String(timestamp);
        headers['webhook-signature'] = signWebhook({ id: delivery.id, timestamp, payload, secret: target.secret });
      }
      const record: WebhookAttempt = { at: Date.now(), status: null };
      try {
        const response = await fetch(target.url, {
          method: 'POST',
          headers,
          body: payload,
          redirect: 'manual',
          signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(this.#options.timeoutMs)]),
        });
        await response.body?.cancel();
        record.status = response.status;
      } catch (error) {
        record.error = error instanceof Error ? error.name : 'Error';
      }
      delivery.attempts.push(record);
      if (record.status !== null && record.status >= 200 && record.status < 300) {
        delivery.state = 'delivered';
        return;
      }
      if (attempt < this.#options.maxAttempts) {
        await this.#clock.sleep(Math.min(this.#options.maxDelayMs, this.#retryBaseMs() * 2 ** (attempt - 1)));
        if (this.#clock.stopped) break;
      }
    }
    delivery.state = 'gave_up';
  }
}
