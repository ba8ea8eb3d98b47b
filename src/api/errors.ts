// The errors the article-service client throws: one class per failure kind, each with a stable code.
import { ArticleLoaderError } from '../errors.js';

export const ARTICLE_SERVICE_ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'insufficient_credits',
  'plan_required',
  'not_found',
  'rate_limited',
  'server_error',
  'network_error',
  'timeout',
  'invalid_response',
  'aborted',
  'create_outcome_unknown',
  'service_unreachable',
] as const;
export type ArticleServiceErrorCode = (typeof ARTICLE_SERVICE_ERROR_CODES)[number];

/** One offending field: `path` is dotted (`polishSettings.humanize`), empty for the whole body. */
export interface FieldProblem {
  path: string;
  message: string;
}

export interface ArticleServiceErrorOptions {
  /** HTTP status of the answer that caused the error, when there was one. */
  status?: number | undefined;
  /** How many HTTP attempts were made before giving up (0 when nothing was sent). */
  attempts?: number | undefined;
  /** Must already be free of secrets: the client never attaches raw transport errors. */
  cause?: unknown;
}

/**
 * Base of every client error. `retryable` says whether the same call may succeed later
 * (after the client's own retries were used up); it is false when only a change by the
 * site owner (key, credits, plan, request) can help.
 */
export class ArticleServiceError extends ArticleLoaderError {
  declare readonly code: ArticleServiceErrorCode;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly attempts: number;

  constructor(code: ArticleServiceErrorCode, message: string, retryable: boolean, options: ArticleServiceErrorOptions = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.retryable = retryable;
    this.attempts = options.attempts ?? 0;
  }

  /** What a log line or a JSON report should carry: never a header or a request option. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, status: this.status, retryable: this.retryable, attempts: this.attempts };
  }
}

/** A class whose instances always carry `code` and `retryable`: the failure kinds that add nothing to the base. */
function kindError<C extends ArticleServiceErrorCode>(code: C, retryable: boolean): KindErrorClass<C> {
  return class extends ArticleServiceError {
    declare readonly code: C;
    constructor(message: string, options: ArticleServiceErrorOptions = {}) {
      super(code, message, retryable, options);
    }
  };
}

type KindErrorClass<C extends ArticleServiceErrorCode> = new (message: string, options?: ArticleServiceErrorOptions) => ArticleServiceError & { readonly code: C };

type FieldsErrorOptions = ArticleServiceErrorOptions & { fields?: FieldProblem[] };

/**
 * A class for the failures about fields, of the request or of the answer: `fields` names the ones
 * that did not pass (none when unknown), in `toJSON` too. Subclasses say whether a retry may help.
 */
function fieldsError<C extends ArticleServiceErrorCode>(code: C): FieldsErrorClass<C> {
  return class extends ArticleServiceError {
    declare readonly code: C;
    readonly fields: FieldProblem[];

    constructor(message: string, retryable: boolean, options: FieldsErrorOptions) {
      super(code, message, retryable, options);
      this.fields = options.fields ?? [];
    }

    override toJSON(): Record<string, unknown> {
      return { ...super.toJSON(), fields: this.fields };
    }
  };
}

type FieldsErrorClass<C extends ArticleServiceErrorCode> = new (
  message: string,
  retryable: boolean,
  options: FieldsErrorOptions,
) => ArticleServiceError & { readonly code: C; readonly fields: FieldProblem[] };

/** 400 (or a request we rejected before sending it): fix the request. */
export class InvalidRequestError extends fieldsError('invalid_request') {
  constructor(message: string, options: FieldsErrorOptions = {}) {
    super(message, false, options);
  }
}

/** 401: the API key is missing, wrong or revoked. */
export class UnauthorizedError extends kindError('unauthorized', false) {}

/** 402: the account has run out of credits. */
export class InsufficientCreditsError extends kindError('insufficient_credits', false) {}

/** 403: the account's plan does not allow this (internal links need the Professional plan). */
export class PlanRequiredError extends kindError('plan_required', false) {}

/** 404: unknown article id, or a base URL that does not point at the service. */
export class NotFoundError extends kindError('not_found', false) {}

/** 429 after the retries were used up, or a `Retry-After` beyond the retry time budget. */
export class RateLimitedError extends ArticleServiceError {
  declare readonly code: 'rate_limited';
  /** What the service asked us to wait, when it said so (`Retry-After`). */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ArticleServiceErrorOptions & { retryAfterMs?: number | undefined } = {}) {
    super('rate_limited', message, true, options);
    this.retryAfterMs = options.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

/** 5xx after the retries were used up. */
export class ServerError extends ArticleServiceError {
  declare readonly code: 'server_error';
  declare readonly status: number;
  constructor(message: string, options: ArticleServiceErrorOptions & { status: number }) {
    super('server_error', message, true, options);
  }
}

/** The connection failed (refused, reset, DNS) or the client was closed. */
export class NetworkError extends ArticleServiceError {
  declare readonly code: 'network_error';
  constructor(message: string, options: ArticleServiceErrorOptions & { retryable?: boolean } = {}) {
    super('network_error', message, options.retryable ?? true, options);
  }
}

/** An attempt took longer than `timeoutMs`. */
export class RequestTimeoutError extends kindError('timeout', true) {}

/** The answer was not JSON, was cut off, or did not match the expected shape. */
export class InvalidResponseError extends fieldsError('invalid_response') {
  constructor(message: string, options: FieldsErrorOptions & { retryable: boolean }) {
    super(message, options.retryable, options);
  }
}

/** The caller's AbortSignal fired (during a request or while waiting to retry). */
export class RequestAbortedError extends kindError('aborted', false) {}

/**
 * A create request may have reached the service (5xx, reset after sending, timeout, unreadable
 * answer) and retrying could create and bill a second article, so we stopped. `cause` is the
 * failure that left the outcome unknown.
 */
export class CreateOutcomeUnknownError extends kindError('create_outcome_unknown', false) {}

/**
 * Several attempts in a row timed out or could not connect, so the client stopped asking the
 * service: this call and every later one fail at once, with nothing sent.
 */
export class ServiceUnreachableError extends kindError('service_unreachable', false) {}
