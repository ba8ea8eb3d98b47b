// What went wrong in one HTTP attempt, and the actionable error a caller finally receives for it.
import type { GiveUpReason } from './retry-policy.js';
import {
  type ArticleServiceError,
  CreateOutcomeUnknownError,
  type FieldProblem,
  InsufficientCreditsError,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PlanRequiredError,
  RateLimitedError,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError,
  ServiceUnreachableError,
  UnauthorizedError,
} from './errors.js';

export type ArticleOperation = 'createArticle' | 'getArticle' | 'createInternalLinks';

/**
 * One failed attempt, as plain data. Every text in it has already been redacted: it may be shown
 * to `onRetry` and ends up in an error message.
 */
export type AttemptFailure =
  | {
      kind: 'status';
      status: number;
      detail: string;
      retryAfterMs: number | undefined;
      serviceCode: string | undefined;
      serviceMessage: string | undefined;
      fields: FieldProblem[];
    }
  /** `maybeSent` is false only when the connection failed before any byte of the request left. */
  | { kind: 'network'; detail: string; maybeSent: boolean; cause: Error }
  | { kind: 'timeout'; detail: string; timeoutMs: number }
  /** Not JSON, empty or cut off: a retry may well get a whole answer. */
  | { kind: 'unreadable'; detail: string; status: number; cause?: Error }
  /** JSON of the wrong shape: the service or our schema changed; retrying will not help. */
  | { kind: 'schema'; detail: string; status: number; fields: FieldProblem[] }
  | { kind: 'aborted'; detail: string; maybeSent: boolean }
  | { kind: 'closed'; detail: string }
  /** Not sent: earlier attempts timed out or could not connect `count` times in a row (the circuit breaker). */
  | { kind: 'unreachable'; detail: string; count: number; cause?: Error };

/** Whether a failed create may have created (and billed) an article. */
export function createMayHaveHappened(failure: AttemptFailure): boolean {
  switch (failure.kind) {
    case 'status':
      // The service decided on 4xx (429 included) without creating; a 5xx may have created.
      return failure.status >= 500;
    case 'network':
    case 'aborted':
      return failure.maybeSent;
    case 'timeout':
    case 'unreadable':
    case 'schema':
      return true;
    case 'closed':
    case 'unreachable':
      return false;
  }
}

/** Whether a retry may succeed, for an operation that is safe to repeat. */
export function isTransient(failure: AttemptFailure): boolean {
  switch (failure.kind) {
    case 'status':
      return failure.status === 429 || failure.status >= 500;
    case 'network':
    case 'timeout':
    case 'unreadable':
      return true;
    case 'schema':
    case 'aborted':
    case 'closed':
    case 'unreachable':
      return false;
  }
}

/** Everything about the call that a message needs. None of it is secret. */
export interface FailureContext {
  operation: ArticleOperation;
  /** What the call was about, e.g. `the article request for "best hiking boots"`. */
  subject: string;
  /** Method and path, e.g. `POST /api/articles/`. */
  endpoint: string;
  /** Scheme, host and port of the service. */
  origin: string;
  attempts: number;
  elapsedMs: number;
  giveUp: GiveUpReason;
  policy: { maxElapsedMs: number };
  /** The target keyword, for create messages. */
  keyword?: string | undefined;
  /** A create carried an Idempotency-Key the service honours, so repeating it is safe. */
  idempotentCreate: boolean;
}

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

function triesText(context: FailureContext): string {
  if (context.giveUp === 'max_elapsed') {
    return ` (gave up after ${context.attempts} attempts: the retry time budget, retry.maxElapsedMs = ${seconds(context.policy.maxElapsedMs)}, is spent)`;
  }
  return context.attempts > 1 ? ` (gave up after ${context.attempts} attempts over ${seconds(context.elapsedMs)})` : '';
}

function serviceSays(failure: { serviceCode: string | undefined; serviceMessage: string | undefined }): string {
  // A trailing period inside the quote would clash with the sentence around it.
  const said = [failure.serviceCode, failure.serviceMessage?.replace(/[.\s]+$/, '')].filter((part) => part !== undefined && part !== '');
  return said.length > 0 ? `: the service says "${said.join(': ')}"` : '';
}

export function fieldsText(fields: FieldProblem[]): string {
  return fields.map((field) => (field.path === '' ? field.message : `${field.path}: ${field.message}`)).join('; ');
}

/** The error the caller receives after the retry loop stopped on `failure`. */
export function failureToError(failure: AttemptFailure, context: FailureContext): ArticleServiceError {
  const base = baseError(failure, context);
  if (context.operation === 'createArticle' && !context.idempotentCreate && createMayHaveHappened(failure) && failure.kind !== 'aborted') {
    const keyword = context.keyword === undefined ? 'this article' : `"${context.keyword}"`;
    return new CreateOutcomeUnknownError(
      `The create request for ${keyword} may have reached the article service, but the outcome is unknown: ${failure.detail}. ` +
        `It was not retried, because a retry could create and bill a second article. Before running again, look in the account's ` +
        `article queue for an article for ${keyword}; to let creates be retried safely, turn on idempotent creates ` +
        `(sync --idempotent-creates, the loader's idempotentCreates option, or the client's idempotentCreates with an ` +
        `idempotencyKey per create), only if the service honours the Idempotency-Key header.`,
      { status: base.status, attempts: context.attempts, cause: base },
    );
  }
  return base;
}

function baseError(failure: AttemptFailure, context: FailureContext): ArticleServiceError {
  const { attempts } = context;
  const tries = triesText(context);
  switch (failure.kind) {
    case 'status':
      return statusError(failure, context, tries);
    case 'network':
      return new NetworkError(
        `Could not complete ${context.subject} with the article service at ${context.origin}: ${failure.detail}${tries}. ` +
          `Check that baseUrl is right and that the service is reachable from this machine.`,
        { attempts, cause: failure.cause },
      );
    case 'timeout':
      return new RequestTimeoutError(
        `The article service did not answer ${context.subject} (${context.endpoint}) within ${failure.timeoutMs} ms${tries}. ` +
          `The service may be overloaded: try again later, or raise timeoutMs.`,
        { attempts },
      );
    case 'unreadable':
      return new InvalidResponseError(
        `The article service's answer to ${context.endpoint} (${context.subject}) could not be read: ${failure.detail}${tries}. ` +
          `Try again later; if it persists, the service or a proxy in between is sending broken answers.`,
        { status: failure.status, attempts, retryable: true, ...(failure.cause ? { cause: failure.cause } : {}) },
      );
    case 'schema':
      return new InvalidResponseError(
        `The article service's answer to ${context.endpoint} (${context.subject}) does not have the expected shape: ` +
          `${fieldsText(failure.fields)}. The service's API may have changed: upgrade astro-article-loader, or report this with the field names above.`,
        { status: failure.status, attempts, retryable: false, fields: failure.fields },
      );
    case 'aborted':
      return new RequestAbortedError(
        `${capitalize(context.subject)} was aborted (${failure.detail}).` +
          (context.operation === 'createArticle' && failure.maybeSent
            ? ' The create request may already have reached the service: look in the account\'s article queue before creating it again.'
            : ''),
        { attempts },
      );
    case 'closed':
      return new NetworkError(`${capitalize(context.subject)} was not sent: ${failure.detail}. Create a new client with createArticleClient().`, {
        attempts,
        retryable: false,
      });
    case 'unreachable':
      return new ServiceUnreachableError(
        `${capitalize(context.subject)} was not sent: the article service at ${context.origin} did not answer ${failure.count} requests in a row ` +
          `(last: ${failure.detail}), so this run stopped asking it. Articles already in the lock file and the cache are still served. ` +
          'Check that the service is up and that baseUrl (ARTICLES_API_URL) is right, then run again.',
        { attempts, ...(failure.cause === undefined ? {} : { cause: failure.cause }) },
      );
  }
}

function statusError(failure: Extract<AttemptFailure, { kind: 'status' }>, context: FailureContext, tries: string): ArticleServiceError {
  const { status, fields } = failure;
  const options = { status, attempts: context.attempts };
  const says = serviceSays(failure);
  switch (status) {
    case 400: {
      const offending = fields.length > 0 ? ` Offending fields: ${fieldsText(fields)}.` : '';
      return new InvalidRequestError(
        `The article service rejected ${context.subject} as invalid (400)${says}.${offending} Fix the request (for an article: its entry in the manifest) and run again.`,
        { ...options, fields },
      );
    }
    case 401:
      return new UnauthorizedError(
        `The article service at ${context.origin} rejected the API key (401 unauthorized)${says}. ` +
          `Check that ARTICLES_API_KEY is set to a valid, active API key of your account.`,
        options,
      );
    case 402:
      return new InsufficientCreditsError(
        `The article service refused ${context.subject} because the account has insufficient credits (402)${says}. ` +
          `Top up credits in your account, then run again.`,
        options,
      );
    case 403:
      return new PlanRequiredError(
        context.operation === 'createInternalLinks'
          ? `The article service refused ${context.subject} (403)${says}: internal links need the Professional plan. ` +
              `Upgrade the account to the Professional plan, or turn internal linking off.`
          : `The article service refused ${context.subject} (403 forbidden)${says}: the account's plan does not allow it. ` +
              `Check the plan of the account whose key is in ARTICLES_API_KEY.`,
        options,
      );
    case 404:
      return new NotFoundError(
        context.operation === 'getArticle'
          ? `${capitalize(context.subject)} was not found on the article service (404)${says}. It may have been deleted from the account, ` +
              `or belong to another account than the one whose key is in ARTICLES_API_KEY.`
          : `The article service answered 404 for ${context.endpoint}${says}. Check baseUrl: it must point at the service's root (${context.origin}).`,
        options,
      );
    case 409:
      return new InvalidRequestError(
        `The article service refused ${context.subject} (409 conflict)${says}. An Idempotency-Key may only be reused for the identical ` +
          `request: use a new key for a changed request.`,
        { ...options, fields },
      );
    case 429:
      return rateLimitedError(failure, context, tries, says);
    default:
      return otherStatusError(failure, context, tries, says);
  }
}

/** A 5xx, or a status this client does not expect from the service. */
function otherStatusError(failure: Extract<AttemptFailure, { kind: 'status' }>, context: FailureContext, tries: string, says: string): ArticleServiceError {
  const { status, fields } = failure;
  const options = { status, attempts: context.attempts };
  if (status >= 500) {
    return new ServerError(
      `The article service failed on ${context.subject} with status ${status}${says}${tries}. This is a problem on the service's side: try again later.`,
      options,
    );
  }
  return new InvalidRequestError(
    `The article service refused ${context.subject} (${context.endpoint}) with status ${status}${says}. ` +
      `Check baseUrl and the request; this client expects the API of the article service.`,
    { ...options, fields },
  );
}

function rateLimitedError(
  failure: Extract<AttemptFailure, { kind: 'status' }>,
  context: FailureContext,
  tries: string,
  says: string,
): RateLimitedError {
  const { retryAfterMs } = failure;
  const options = { status: 429, attempts: context.attempts, retryAfterMs };
  if (retryAfterMs === undefined) {
    return new RateLimitedError(
      `The article service is rate limiting requests (429)${says}${tries}. Wait a few minutes, then run again; lower the client's concurrency if it keeps happening.`,
      options,
    );
  }
  const when = new Date(Date.now() + retryAfterMs).toISOString();
  const beyond =
    context.giveUp === 'retry_after_beyond_budget'
      ? ` That is longer than the retry time budget allows (retry.maxElapsedMs = ${seconds(context.policy.maxElapsedMs)}), so we stopped at once.`
      : '';
  return new RateLimitedError(
    `The article service is rate limiting requests (429)${says}; retry after ${seconds(retryAfterMs)} (at ${when})${tries}.${beyond} Run again after that time.`,
    options,
  );
}

/** `text` with its first letter upper-case, to start a sentence with a subject. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
