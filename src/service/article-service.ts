// The service a sync talks to, connected on first use: the configured API, or offline mode's embedded emulator.
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ArticleClient, ArticleClientOptions } from '../api/client.js';
import type { ArticleStatus } from '../contract/response-schema.js';
import type { SyncClient } from '../sync/index.js';
import { acquireEmbeddedEmulator, type EmulatorLease } from './embedded-emulator.js';
import type { ServiceSettings } from './service-settings.js';

export interface ArticleServiceOptions {
  /** Offline: the embedded emulator keeps its state here, so a killed run resumes (none: in memory). */
  stateFile?: string | undefined;
  /** Offline: told the embedded emulator's address once it started. */
  onEmulatorStart?: (url: string) => void;
  /** Called after each paid internal-link request (never offline: the embedded emulator charges nothing real). */
  onLinkCredit?: () => void;
  /** The service honours Idempotency-Key (default: only the embedded emulator). */
  idempotentCreates?: boolean;
  /** The deadline of one whole request (client default when left out). */
  timeoutMs?: number | undefined;
  /** Requests in flight at once (client default when left out). */
  concurrency?: number | undefined;
  /** Told before each retry, to summarise them. */
  onRetry?: ArticleClientOptions['onRetry'];
  /** Told when the service sent the API key back in an answer that is kept (it was removed first). */
  onSecretEchoed?: ArticleClientOptions['onSecretEchoed'];
}

/** What to say when the service sent the key back: it was removed before anything was kept. */
export function secretEchoedWarning(where: string): string {
  return `The article service sent your API key back in ${where}; it was replaced by [redacted] before anything was cached, recorded or published. Report it to the service, and consider rotating the key.`;
}

/** The path the emulator serves its generated images under: offline image URLs are rewritten to the running emulator. */
const EMULATOR_IMAGE_PATH = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+(\/_emulator\/images\/[^?#]+)(\?[^#]*)?$/;

/**
 * The one way to reach a service, for the loader, the CLI and the integration: a SyncClient that
 * connects only when a request is actually made (a build whose articles are all in the committed
 * cache neither opens a connection nor starts the emulator), to the service the settings name or,
 * offline, to the embedded emulator.
 */
export class ArticleService implements SyncClient {
  readonly settings: ServiceSettings;
  readonly #options: ArticleServiceOptions;
  readonly #idempotentCreates: boolean;
  #client: Promise<{ client: ArticleClient; lease: EmulatorLease | undefined }> | undefined;
  /** The connected client, for its counters; `#earlier` holds the counts of clients already closed. */
  #live: ArticleClient | undefined;
  #earlier = { requests: 0, retries: 0 };

  constructor(settings: ServiceSettings, options: ArticleServiceOptions = {}) {
    this.settings = settings;
    this.#options = options;
    this.#idempotentCreates = options.idempotentCreates ?? settings.mode === 'offline';
  }

  /** What sync is told it talks to: entries the emulator writes are marked, and never served as real articles by a real sync. */
  get kind(): 'emulator' | 'remote' {
    return this.settings.mode === 'offline' ? 'emulator' : 'remote';
  }

  /** The service honours Idempotency-Key (the embedded emulator does), so an interrupted create can be retried without paying twice. */
  get idempotentCreates(): boolean {
    return this.#idempotentCreates;
  }

  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** HTTP attempts and retries made so far, over every connection this service opened. */
  get stats(): { requests: number; retries: number } {
    return {
      requests: this.#earlier.requests + (this.#live?.stats.requests ?? 0),
      retries: this.#earlier.retries + (this.#live?.stats.retries ?? 0),
    };
  }

  async createArticle(request: ArticleRequest, options?: { signal?: AbortSignal; idempotencyKey?: string }): Promise<string> {
    const { client } = await this.#connect();
    return client.createArticle(request, options);
  }

  async getArticle(articleId: string, options?: { signal?: AbortSignal }): Promise<ArticleStatus> {
    const { client } = await this.#connect();
    return client.getArticle(articleId, options);
  }

  /** The internal-links endpoint in HTML form (what the pipeline's `serviceLinks.link` wants). */
  async linkContent(content: string, domainId: string): Promise<string> {
    const { client } = await this.#connect();
    const linked = await client.createInternalLinks({ content, domainId, format: 'html' });
    // The service charges a credit per answered request; a failed one costs nothing.
    if (this.settings.mode === 'remote') this.#options.onLinkCredit?.();
    return linked;
  }

  /**
   * `fetch` for image downloads. Offline, an image URL names the port of whichever emulator run
   * wrote the article; it is fetched from the emulator running now (the images are deterministic).
   */
  readonly fetchImage: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const match = this.settings.mode === 'offline' ? EMULATOR_IMAGE_PATH.exec(url) : null;
    if (match === null) return globalThis.fetch(input, init);
    const { lease } = await this.#connect();
    return globalThis.fetch(`${lease!.url}${match[1]}${match[2] ?? ''}`, init);
  };

  /** Closes the connection and gives the emulator back. Later calls reconnect. */
  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    if (pending === undefined) return;
    const connection = await pending.catch(() => undefined);
    if (connection === undefined) return;
    if (this.#live === connection.client) {
      this.#earlier = this.stats;
      this.#live = undefined;
    }
    await connection.client.close();
    await connection.lease?.release();
  }

  #clientOptions(): Omit<ArticleClientOptions, 'baseUrl' | 'apiKey'> {
    const { timeoutMs, concurrency, onRetry, onSecretEchoed } = this.#options;
    return {
      idempotentCreates: this.#idempotentCreates,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(onRetry === undefined ? {} : { onRetry }),
      ...(onSecretEchoed === undefined ? {} : { onSecretEchoed }),
    };
  }

  #connect(): Promise<{ client: ArticleClient; lease: EmulatorLease | undefined }> {
    this.#client ??= (async () => {
      // The client and its HTTP stack (undici) are imported on the first request: a cached build never needs them.
      const { createArticleClient } = await import('../api/client.js');
      if (this.settings.mode === 'remote') {
        this.#live = createArticleClient({ baseUrl: this.settings.baseUrl, apiKey: this.settings.apiKey, ...this.#clientOptions() });
        return { client: this.#live, lease: undefined };
      }
      const lease = await acquireEmbeddedEmulator({
        stateFile: this.#options.stateFile,
        timing: this.settings.timing,
        writer: this.settings.writer,
        flaws: this.settings.flaws,
        ...(this.#options.onEmulatorStart === undefined ? {} : { onStart: this.#options.onEmulatorStart }),
      });
      this.#live = createArticleClient({ baseUrl: lease.url, apiKey: lease.apiKey, ...this.#clientOptions() });
      return { client: this.#live, lease };
    })();
    const pending = this.#client;
    pending.catch(() => {
      if (this.#client === pending) this.#client = undefined;
    });
    return pending;
  }
}
