// The HTTP client of the article service: validated requests, typed errors, safe retries, a shared concurrency limit.
import { createArticleCall, getArticleCall, internalLinksCall, type CallTarget } from './article-calls.js';
import { createCallRunner, type ArticleClientStats } from './call-runner.js';
import type { ArticleClientOptions } from './client-options.js';
import { resolveSettings } from './client-settings.js';
import { createHttpExchange } from './http-exchange.js';
import { secretRedactor } from './secret-redactor.js';
import { keptStatus } from './status-redaction.js';
import type { ArticleRequest, ArticleRequestInput } from '../contract/request-schema.js';
import type { ArticleStatus, InternalLinkRequest, InternalLinksJson } from '../contract/response-schema.js';

export type { ArticleOperation } from './attempt-failure.js';
export type { ArticleClientStats } from './call-runner.js';
export type { ArticleClientOptions, ArticleRetryInfo } from './client-options.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface CreateArticleOptions extends CallOptions {
  /** 1..255 visible ASCII characters; sent as `Idempotency-Key`. Reuse it only for the identical request. */
  idempotencyKey?: string;
}

export interface ArticleClient {
  /** Queues an article; resolves to its `articleId`. The request is validated (and defaulted) first. */
  createArticle(request: ArticleRequestInput | ArticleRequest, options?: CreateArticleOptions): Promise<string>;
  getArticle(articleId: string, options?: CallOptions): Promise<ArticleStatus>;
  /** Format `json` resolves to the link data; `html` (default) and `markdown` to the linked content. */
  createInternalLinks(request: InternalLinkRequest & { format: 'json' }, options?: CallOptions): Promise<InternalLinksJson>;
  createInternalLinks(request: InternalLinkRequest & { format?: 'html' | 'markdown' | undefined }, options?: CallOptions): Promise<string>;
  createInternalLinks(request: InternalLinkRequest, options?: CallOptions): Promise<string | InternalLinksJson>;
  readonly stats: ArticleClientStats;
  /** Lets in-flight requests finish, then closes the connections. Later calls fail with `network_error`. */
  close(): Promise<void>;
}

/**
 * A client of the article service. The options are checked at once (`invalid_client_options`);
 * each call validates its input before anything is sent, then retries within `retry`.
 */
export function createArticleClient(options: ArticleClientOptions): ArticleClient {
  const settings = resolveSettings(options);
  const secret = secretRedactor(options.apiKey);
  const exchange = createHttpExchange({
    origin: settings.origin,
    apiKey: options.apiKey,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    redact: secret.redact,
  });
  const runner = createCallRunner(settings, exchange, (info) => options.onRetry?.(info));
  const target: CallTarget = {
    pathPrefix: settings.pathPrefix,
    redact: secret.redact,
    keptStatus: (status) => keptStatus(status, secret, (info) => options.onSecretEchoed?.(info)),
  };

  async function createInternalLinks(request: InternalLinkRequest, callOptions: CallOptions = {}): Promise<string | InternalLinksJson> {
    return runner.run(internalLinksCall(request, target), callOptions.signal);
  }

  return {
    async createArticle(request, callOptions = {}) {
      return runner.run(createArticleCall(request, callOptions.idempotencyKey, target), callOptions.signal);
    },

    async getArticle(articleId, callOptions = {}) {
      return runner.run(getArticleCall(articleId, target), callOptions.signal);
    },

    // One implementation behind the format-specific overloads of the interface.
    createInternalLinks: createInternalLinks as ArticleClient['createInternalLinks'],

    stats: runner.stats,

    close: () => runner.close(),
  };
}
