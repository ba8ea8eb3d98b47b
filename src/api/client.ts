// The HTTP client of the article service: validated requests, typed errors, safe retries, a shared concurrency limit.
import { createArticleCall, getArticleCall, internalLinksCall, type CallTarget } from './article-calls.js';
import type { ArticleOperation } from './attempt-failure.js';
import { createCallRunner } from './call-runner.js';
import { resolveSettings } from './client-settings.js';
import { createHttpExchange } from './http-exchange.js';
import type { RetryInfo, RetryOptions } from './retry-policy.js';
import { secretRedactor } from './secret-redactor.js';
import { keptStatus } from './status-redaction.js';
import type { ArticleRequest, ArticleRequestInput } from '../contract/request-schema.js';
import type { ArticleStatus, InternalLinkRequest, InternalLinksJson } from '../contract/response-schema.js';

export type { ArticleOperation } from './attempt-failure.js';

export interface ArticleRetryInfo extends RetryInfo {
  operation: ArticleOperation;
}

export interface ArticleClientOptions {
  /** Root of the service, e.g. `http://127.0.0.1:4010`; a path prefix is kept (`https://host/v2`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never part of an error, a log line or `onRetry` info. */
  apiKey: string;
  /** Per attempt (connect, send, headers and body). Default 30 000. */
  timeoutMs?: number;
  /** Attempts in flight at once, shared by every call of this client. Default 8. */
  concurrency?: number;
  /** Bounds of the retry loop; see `RetryOptions` for the defaults. */
  retry?: RetryOptions;
  /**
   * The service honours `Idempotency-Key` (our emulator does). Only then, and only for a
   * create given an `idempotencyKey`, are creates retried after they may have reached the
   * service. Default false.
   */
  idempotentCreates?: boolean;
  /** Called before each backoff sleep, so callers can count or summarize retries. Must not throw. */
  onRetry?: (info: ArticleRetryInfo) => void;
  /**
   * After this many attempts in a row time out or cannot connect (refused, no such host, TLS
   * failure), the client stops asking: every later call fails at once with `service_unreachable`.
   * Any answer resets the count. Default 3.
   */
  unreachableAfter?: number;
  /**
   * Called when the service sent the API key back (in any encoding) in an answer that is kept: a
   * status record's HTML, its text or its error. It was replaced by `[redacted]`. Must not throw.
   */
  onSecretEchoed?: (info: { operation: ArticleOperation; where: string }) => void;
}

export interface ArticleClientStats {
  /** HTTP attempts sent, retries included. */
  readonly requests: number;
  /** Retries scheduled (backoff sleeps started). */
  readonly retries: number;
}

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
