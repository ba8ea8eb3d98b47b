// The HTTP client of the article service: validated requests, typed errors, safe retries, a shared concurrency limit.
import { createRequire } from 'node:module';
import pLimit from 'p-limit';
import { type Dispatcher, Pool } from 'undici';
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import { type ArticleOperation, type AttemptFailure, failureToError, fieldsText, isTransient, createMayHaveHappened, type FailureContext } from './attempt-failure.js';
import { type FieldProblem, InvalidRequestError } from './errors.js';
import { type ArticleRequest, type ArticleRequestInput, articleRequestSchema } from '../spec/request-schema.js';
import {
  type ArticleStatus,
  type InternalLinkRequest,
  type InternalLinksJson,
  articleIdSchema,
  articleStatusSchema,
  createArticleResultSchema,
  errorBodySchema,
  internalLinkRequestSchema,
  internalLinksJsonSchema,
} from '../spec/response-schema.js';
import { CircuitBreaker, DEFAULT_UNREACHABLE_AFTER } from './circuit-breaker.js';
import { parseRetryAfter } from './retry-after.js';
import { redactedValue, secretRedactor } from './secret-redactor.js';
import { type AttemptOutcome, type GiveUpReason, type RetryDecision, type RetryInfo, type RetryOptions, resolveRetryPolicy, runWithRetries } from './retry-policy.js';

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

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONCURRENCY = 8;
/** A connection that takes this long is not going to come; beyond it, keep the rest of the attempt budget. */
const MAX_CONNECT_TIMEOUT_MS = 10_000;
/**
 * Errors whose meaning is "no byte of the request left this machine", so even a create may be
 * repeated: no connection (refused, no route, no such host, connect timeout), or a TLS handshake
 * that failed (the request is only sent once the handshake succeeded).
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const USER_AGENT = userAgent();

function userAgent(): string {
  try {
    const manifest = createRequire(import.meta.url)('../../package.json') as { name?: unknown; version?: unknown };
    if (manifest.name === 'astro-article-loader' && typeof manifest.version === 'string') {
      return `astro-article-loader/${manifest.version} (node ${process.versions.node})`;
    }
  } catch {
    // Bundled without its package.json: the name alone still identifies us.
  }
  return `astro-article-loader (node ${process.versions.node})`;
}

/** One HTTP call: where it goes and how its successful answer is read. */
interface CallSpec<T> {
  operation: ArticleOperation;
  method: 'GET' | 'POST';
  path: string;
  subject: string;
  body?: string;
  accept: string;
  keyword?: string;
  idempotencyKey?: string;
  read(answer: Answer): AttemptOutcome<T, AttemptFailure>;
}

type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export function createArticleClient(options: ArticleClientOptions): ArticleClient {
  const settings = resolveSettings(options);
  const { origin, pathPrefix, timeoutMs, policy } = settings;
  const secret = secretRedactor(options.apiKey);
  const redact = secret.redact;
  const breaker = new CircuitBreaker(settings.unreachableAfter);
  /** A status record as kept: the key removed from every part the service wrote, and reported when it was there. */
  const keptStatus = (status: ArticleStatus): ArticleStatus => {
    const kept = redactedStatus(status, redact);
    const html = status.status === 'finished' ? [status.output.html, status.output.polishedHtml ?? ''] : [];
    if ([status.statusDetail, JSON.stringify(status.error ?? null), JSON.stringify(status.config), ...html].some(secret.found)) {
      options.onSecretEchoed?.({ operation: 'getArticle', where: `the status record for "${kept.config.targetKeyword}"` });
    }
    return kept;
  };
  // One pool per client, not per origin process-wide: `close()` then closes exactly this
  // client's connections, and its size matches this client's concurrency limit.
  const pool = new Pool(origin, {
    connections: settings.concurrency,
    connect: { timeout: Math.max(1, Math.min(MAX_CONNECT_TIMEOUT_MS, Math.floor(timeoutMs / 2))) },
    // The per-attempt timer below is the single source of timeouts.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  // A slot is held for one attempt, never across a backoff sleep.
  const limit = pLimit(settings.concurrency);
  const counters = { requests: 0, retries: 0 };
  let closed = false;

  async function attemptOnce<T>(call: CallSpec<T>, signal: AbortSignal | undefined): Promise<AttemptOutcome<T, AttemptFailure>> {
    const notSent: AttemptOutcome<T, AttemptFailure> = { ok: false, failure: { kind: 'aborted', detail: 'aborted by the caller', maybeSent: false } };
    if (signal?.aborted) return notSent;
    let started = false;
    const queued = limit(async () => {
      started = true;
      if (signal?.aborted) return notSent;
      if (closed) return { ok: false, failure: { kind: 'closed', detail: 'the article client was closed' } } as const;
      const open = breaker.open;
      if (open !== undefined) return { ok: false, failure: { kind: 'unreachable', ...open } } as const;
      counters.requests += 1;
      const outcome = await exchange(call, signal);
      breaker.record(outcome.ok ? undefined : outcome.failure);
      return outcome;
    });
    if (!signal) return queued;
    // Waiting for a slot ends at once on abort; a started attempt ends through its own signal.
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!started) resolve(notSent);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queued.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async function exchange<T>(call: CallSpec<T>, signal: AbortSignal | undefined): Promise<AttemptOutcome<T, AttemptFailure>> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const attemptSignal = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      'user-agent': USER_AGENT,
      accept: call.accept,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    try {
      const response = await pool.request({ method: call.method, path: call.path, headers, body: call.body ?? null, signal: attemptSignal });
      const text = await response.body.text();
      const answer: Answer = { status: response.statusCode, headers: response.headers, text };
      if (answer.status >= 200 && answer.status < 300) return call.read(answer);
      return { ok: false, failure: statusFailure(answer, redact) };
    } catch (error) {
      if (signal?.aborted) return { ok: false, failure: { kind: 'aborted', detail: 'aborted by the caller', maybeSent: true } };
      if (timer.signal.aborted) return { ok: false, failure: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms`, timeoutMs } };
      return { ok: false, failure: networkFailure(error, redact) };
    } finally {
      clearTimeout(timeout);
    }
  }

  async function execute<T>(call: CallSpec<T>, signal: AbortSignal | undefined): Promise<T> {
    const idempotentCreate = call.operation === 'createArticle' && settings.idempotentCreates && call.idempotencyKey !== undefined;
    const decide = (failure: AttemptFailure): RetryDecision => {
      const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
      if (breaker.open !== undefined) return { retry: false, reason: failure.detail };
      if (call.operation === 'createArticle' && !idempotentCreate) {
        // Repeat a create only when the service cannot have acted on it.
        const safe = (failure.kind === 'status' && failure.status === 429) || (failure.kind === 'network' && !createMayHaveHappened(failure));
        return { retry: safe, retryAfterMs, reason: failure.detail };
      }
      return { retry: isTransient(failure), retryAfterMs, reason: failure.detail };
    };
    const context = (result: { attempts: number; elapsedMs: number; giveUp: GiveUpReason }): FailureContext => ({
      operation: call.operation,
      subject: call.subject,
      endpoint: `${call.method} ${call.path}`,
      origin,
      attempts: result.attempts,
      elapsedMs: result.elapsedMs,
      giveUp: result.giveUp,
      policy,
      keyword: call.keyword,
      idempotentCreate,
    });
    const result = await runWithRetries(() => attemptOnce(call, signal), {
      policy,
      signal,
      decide,
      onRetry: (info) => {
        counters.retries += 1;
        options.onRetry?.({ operation: call.operation, ...info });
      },
    });
    if (result.ok) return result.value;
    const open = breaker.open;
    // The call that opened the breaker says so too, unless it was a create that may have been billed.
    const unreachable = open !== undefined && !(call.operation === 'createArticle' && createMayHaveHappened(result.failure));
    const failure: AttemptFailure =
      result.giveUp === 'aborted'
        ? { kind: 'aborted', detail: `aborted by the caller while waiting to retry after: ${result.failure.detail}`, maybeSent: false }
        : unreachable
          ? { kind: 'unreachable', ...open, cause: failureToError(result.failure, context(result)) }
          : result.failure;
    throw failureToError(failure, context(result));
  }

  async function createInternalLinks(request: InternalLinkRequest, callOptions: CallOptions = {}): Promise<string | InternalLinksJson> {
    const parsed = internalLinkRequestSchema.safeParse(request);
    if (!parsed.success) {
      const fields = fieldProblems(parsed.error.issues, redact);
      throw new InvalidRequestError(`The internal-link request is invalid: ${issuesText(parsed.error.issues, redact)}. Nothing was sent to the service.`, {
        fields,
      });
    }
    const { format, domainId } = parsed.data;
    return execute<string | InternalLinksJson>(
      {
        operation: 'createInternalLinks',
        method: 'POST',
        path: `${pathPrefix}/api/internal-links/`,
        subject: `the internal-link request for domain "${redact(domainId)}" (format ${format})`,
        body: JSON.stringify(parsed.data),
        accept: format === 'json' ? 'application/json' : `text/${format}, application/json;q=0.5`,
        // Kept in the cache: the key is removed from the answer, whatever its format.
        read: (answer) =>
          format === 'json'
            ? readJson(answer, internalLinksJsonSchema, redact, (links) => redactedValue(links, redact) as InternalLinksJson)
            : mapOutcome(readLinkedContent(answer, redact), redact),
      },
      callOptions.signal,
    );
  }

  return {
    async createArticle(request, callOptions = {}) {
      const parsed = articleRequestSchema.safeParse(request);
      const keyword = parsed.success ? parsed.data.targetKeyword : keywordOf(request);
      const subject = keyword === undefined ? 'the article request' : `the article request for "${redact(keyword)}"`;
      if (!parsed.success) {
        const fields = fieldProblems(parsed.error.issues, redact);
        throw new InvalidRequestError(
          `${capitalize(subject)} is invalid: ${issuesText(parsed.error.issues, redact)}. Fix its entry in the manifest; nothing was sent to the service.`,
          { fields },
        );
      }
      const { idempotencyKey } = callOptions;
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new InvalidRequestError(
          `The idempotencyKey of ${subject} must be 1 to 255 visible ASCII characters (no spaces); nothing was sent to the service.`,
          { fields: [{ path: 'idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' }] },
        );
      }
      return execute<string>(
        {
          operation: 'createArticle',
          method: 'POST',
          path: `${pathPrefix}/api/articles/`,
          subject,
          keyword: redact(parsed.data.targetKeyword),
          body: JSON.stringify(parsed.data),
          accept: 'application/json',
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          read: (answer) => readJson(answer, createArticleResultSchema, redact, (result) => result.articleId),
        },
        callOptions.signal,
      );
    },

    async getArticle(articleId, callOptions = {}) {
      const id = articleIdSchema.safeParse(articleId);
      if (!id.success) {
        throw new InvalidRequestError(
          `The article id ${JSON.stringify(redact(String(articleId)))} is not a UUID, so it cannot be an id the service gave out. ` +
            `Check the lock file entry it came from; nothing was sent to the service.`,
          { fields: [{ path: 'articleId', message: 'must be a UUID' }] },
        );
      }
      return execute<ArticleStatus>(
        {
          operation: 'getArticle',
          method: 'GET',
          path: `${pathPrefix}/api/articles/${encodeURIComponent(id.data)}`,
          subject: `article ${id.data}`,
          accept: 'application/json',
          read: (answer) => readJson(answer, articleStatusSchema, redact, keptStatus),
        },
        callOptions.signal,
      );
    },

    // One implementation behind the format-specific overloads of the interface.
    createInternalLinks: createInternalLinks as ArticleClient['createInternalLinks'],

    stats: {
      get requests() {
        return counters.requests;
      },
      get retries() {
        return counters.retries;
      },
    },

    async close() {
      if (closed) return;
      closed = true;
      await pool.close();
    },
  };
}

interface ResolvedSettings {
  origin: string;
  pathPrefix: string;
  timeoutMs: number;
  concurrency: number;
  idempotentCreates: boolean;
  unreachableAfter: number;
  policy: ReturnType<typeof resolveRetryPolicy>;
}

function resolveSettings(options: ArticleClientOptions): ResolvedSettings {
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    problems.push('baseUrl must be an absolute http(s) URL such as https://api.example.com');
  }
  if (url) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`baseUrl must use http or https, not ${url.protocol}`);
    // Credentials in the URL would be a second, unredacted secret.
    if (url.username !== '' || url.password !== '') problems.push('baseUrl must not contain a user name or password; the key goes in apiKey');
    if (url.search !== '' || url.hash !== '') problems.push('baseUrl must not have a query or a fragment');
  }
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    problems.push('apiKey is empty: set ARTICLES_API_KEY to your API key');
  } else if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
    problems.push('apiKey contains spaces, line breaks or non-ASCII characters: check ARTICLES_API_KEY for a stray newline or quote');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) problems.push('timeoutMs must be a positive number of milliseconds');
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) problems.push('concurrency must be a whole number of at least 1');
  const unreachableAfter = options.unreachableAfter ?? DEFAULT_UNREACHABLE_AFTER;
  if (!Number.isInteger(unreachableAfter) || unreachableAfter < 1) problems.push('unreachableAfter must be a whole number of at least 1');
  if (problems.length > 0 || !url) {
    throw new ArticleLoaderError('invalid_client_options', `Invalid article client options: ${problems.join('; ')}.`);
  }
  return {
    origin: url.origin,
    pathPrefix: url.pathname.replace(/\/+$/, ''),
    timeoutMs,
    concurrency,
    idempotentCreates: options.idempotentCreates ?? false,
    unreachableAfter,
    policy: resolveRetryPolicy(options.retry),
  };
}

/**
 * The record with the key removed from everything the service wrote into it: `statusDetail`, every
 * string (and property name) of `error` and `config`, and the output's HTML. The record is stored in
 * the lock file and the cache and published on the site, and a service that echoes the
 * Authorization header would otherwise put the key there. The article itself is kept (it was paid
 * for), with `[redacted]` where the key was.
 */
function redactedStatus(status: ArticleStatus, redact: (text: string) => string): ArticleStatus {
  const kept = {
    ...status,
    statusDetail: redact(status.statusDetail),
    error: redactedValue(status.error, redact) as ArticleStatus['error'],
    config: redactedValue(status.config, redact) as ArticleStatus['config'],
  };
  if (kept.status !== 'finished') return kept;
  const { html, polishedHtml } = kept.output;
  return { ...kept, output: { ...kept.output, html: redact(html), polishedHtml: polishedHtml === null ? null : redact(polishedHtml) } } as ArticleStatus;
}

function keywordOf(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const keyword = (request as { targetKeyword?: unknown }).targetKeyword;
  return typeof keyword === 'string' && keyword.trim() !== '' ? keyword : undefined;
}

function fieldProblems(issues: readonly z.core.$ZodIssue[], redact: (text: string) => string): FieldProblem[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: redact(issue.message) }));
    }
    return [{ path: path.join('.'), message: redact(issue.message) }];
  });
}

/** One entry per issue (not per field): a misplaced-keys issue names all its keys in one message. */
function issuesText(issues: readonly z.core.$ZodIssue[], redact: (text: string) => string): string {
  return fieldsText(issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: redact(issue.message) })));
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function statusFailure(answer: Answer, redact: (text: string) => string): AttemptFailure {
  const said = readErrorBody(answer, redact);
  return {
    kind: 'status',
    status: answer.status,
    detail: `the service answered ${answer.status}${said.serviceCode ? ` ${said.serviceCode}` : ''}`,
    retryAfterMs: parseRetryAfter(headerValue(answer.headers, 'retry-after')),
    ...said,
  };
}

/** What an error body says, whatever its form: our JSON shape, plain text, or nothing. */
function readErrorBody(
  answer: Answer,
  redact: (text: string) => string,
): { serviceCode: string | undefined; serviceMessage: string | undefined; fields: FieldProblem[] } {
  const text = answer.text.trim();
  const none = { serviceCode: undefined, serviceMessage: undefined, fields: [] };
  if (text === '') return none;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Plain text is shown (shortened); an HTML error page of a proxy is not worth quoting.
    const contentType = headerValue(answer.headers, 'content-type') ?? '';
    if (contentType.includes('html') || text.startsWith('<')) return none;
    return { ...none, serviceMessage: shorten(redact(text)) };
  }
  const body = errorBodySchema.safeParse(json);
  if (!body.success) return none;
  return {
    serviceCode: typeof body.data.error === 'string' ? shorten(redact(body.data.error)) : undefined,
    serviceMessage: body.data.message === undefined ? undefined : shorten(redact(body.data.message), 1000),
    fields: (body.data.fields ?? []).map((field) => ({
      path: redact(Array.isArray(field.path) ? field.path.join('.') : field.path),
      message: shorten(redact(field.message)),
    })),
  };
}

function shorten(text: string, max = 300): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function mapOutcome<T>(outcome: AttemptOutcome<T, AttemptFailure>, map: (value: T) => T): AttemptOutcome<T, AttemptFailure> {
  return outcome.ok ? { ok: true, value: map(outcome.value) } : outcome;
}

function readJson<S extends z.ZodType, T>(
  answer: Answer,
  schema: S,
  redact: (text: string) => string,
  pick: (value: z.output<S>) => T,
): AttemptOutcome<T, AttemptFailure> {
  const json = parseJsonAnswer(answer, redact);
  if (!json.ok) return json;
  return validated(answer, schema.safeParse(json.value), pick);
}

function parseJsonAnswer(answer: Answer, redact: (text: string) => string): AttemptOutcome<unknown, AttemptFailure> {
  if (answer.text.trim() === '') {
    return { ok: false, failure: { kind: 'unreadable', status: answer.status, detail: `the answer (status ${answer.status}) is empty` } };
  }
  try {
    return { ok: true, value: JSON.parse(answer.text) };
  } catch (error) {
    const reason = error instanceof Error ? redact(error.message) : 'unparseable';
    return {
      ok: false,
      failure: { kind: 'unreadable', status: answer.status, detail: `the answer is not valid JSON (${shorten(reason, 200)}; ${answer.text.length} characters)` },
    };
  }
}

function validated<T, U>(answer: Answer, result: z.ZodSafeParseResult<T>, pick: (value: T) => U): AttemptOutcome<U, AttemptFailure> {
  if (result.success) return { ok: true, value: pick(result.data) };
  // Only paths and zod's messages: the received values could be long or sensitive.
  const fields = result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return {
    ok: false,
    failure: { kind: 'schema', status: answer.status, fields, detail: `the answer does not have the expected shape (${fieldsText(fields)})` },
  };
}

const linkedContentJsonSchema = z.union([
  z.string(),
  z.looseObject({ content: z.string() }).transform((body) => body.content),
  z.looseObject({ html: z.string() }).transform((body) => body.html),
  z.looseObject({ markdown: z.string() }).transform((body) => body.markdown),
]);

/**
 * html/markdown answers: the body itself (`text/html`, `text/markdown`, as our emulator sends).
 * A JSON string or `{ content | html | markdown: string }` is accepted too, since the spec does
 * not show the response's media type.
 */
function readLinkedContent(answer: Answer, redact: (text: string) => string): AttemptOutcome<string, AttemptFailure> {
  const contentType = headerValue(answer.headers, 'content-type') ?? '';
  if (!/\bjson\b/i.test(contentType)) {
    if (answer.text === '') {
      return { ok: false, failure: { kind: 'unreadable', status: answer.status, detail: `the answer (status ${answer.status}) is empty` } };
    }
    return { ok: true, value: answer.text };
  }
  const json = parseJsonAnswer(answer, redact);
  if (!json.ok) return json;
  return validated(answer, linkedContentJsonSchema.safeParse(json.value), (content) => content);
}

function networkFailure(error: unknown, redact: (text: string) => string): AttemptFailure {
  const code = errorCode(error);
  const cause = sanitizedError(error, redact);
  const maybeSent = !(code !== undefined && NOT_SENT_CODES.has(code));
  return { kind: 'network', maybeSent, detail: describeNetworkError(code, cause.message), cause };
}

function describeNetworkError(code: string | undefined, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (ECONNREFUSED)';
    case 'ENOTFOUND':
      return 'the host name could not be resolved (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'the host name lookup failed for now (EAI_AGAIN)';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connecting timed out (UND_ERR_CONNECT_TIMEOUT)';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `the connection was closed before the answer was complete (${code}: ${message})`;
    default:
      return code === undefined ? message : `${code}: ${message}`;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects fail with an AggregateError of one error per address.
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return cause === undefined ? undefined : errorCode(cause);
}

/**
 * A copy of a transport error holding only name, code and (redacted) message and stack: undici
 * errors may carry sockets or request details that must not travel inside our errors.
 */
function sanitizedError(error: unknown, redact: (text: string) => string, depth = 0): Error {
  const source = error instanceof Error ? error : undefined;
  const errors: unknown = source && (source as { errors?: unknown }).errors;
  const nested: unknown[] = Array.isArray(errors) ? errors : [];
  const message = [source ? source.message : String(error), ...nested.map((e) => (e instanceof Error ? e.message : String(e)))]
    .filter((part) => part !== '')
    .join('; ');
  const innerCause = source?.cause;
  const copy = new Error(redact(message), innerCause !== undefined && depth < 3 ? { cause: sanitizedError(innerCause, redact, depth + 1) } : undefined);
  copy.name = source?.name ?? 'Error';
  const code = errorCode(error);
  if (code !== undefined) Object.defineProperty(copy, 'code', { value: code, enumerable: true });
  copy.stack = redact(source?.stack ?? `${copy.name}: ${copy.message}`);
  return copy;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
