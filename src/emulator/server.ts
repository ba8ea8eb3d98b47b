// The emulator's HTTP server: the article service's routes over node:http, with accounts, billing and faults.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { articleRequestSchema, type ArticleRequest } from '../spec/request-schema.js';
import { internalLinkRequestSchema, type ArticleStatusValue } from '../spec/response-schema.js';
import { AccountRegistry, planAllowsInternalLinks, type Account, type DomainOptions, type IntegrationOptions, type Plan } from './accounts.js';
import { ArticleWorkers, failureStep, STATUS_DETAIL, type ArticleRecord } from './article-store.js';
import { hashRequest } from './canonical-request.js';
import { Clock } from './clock.js';
import { loadDomainsFile } from './config-file.js';
import { FaultInjector, type AfterFault, type FaultConfig, type FaultRoute } from './faults.js';
import {
  BodyNotUtf8,
  BodyTooLarge,
  errorBody,
  isJsonContentType,
  JSON_TYPE,
  readBody,
  send,
  type ErrorCode,
} from './http-exchange.js';
import { IDEMPOTENCY_KEY_PATTERN, DEFAULT_IDEMPOTENCY_TTL_MS, IdempotencyStore, type IdempotencyEntry } from './idempotency.js';
import { ImageUrlSigner, parseImageFileName } from './image-urls.js';
import { insertInternalLinks, looksLikeHtml } from './internal-links.js';
import { Ledger, type LedgerSnapshot } from './ledger.js';
import {
  accountOptionsOf,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SEED,
  imageModelOf,
  imageWordCostFor,
  rateLimitOf,
  validateOptions,
  type EmulatorOptions,
} from './options.js';
import { MAX_IMAGE_SIDE, renderPng } from './png-image.js';
import { RateLimiter } from './rate-limiter.js';
import { createRandom } from './seeded-random.js';
import { STATE_FILE_VERSION, StateFile } from './state-file.js';
import { queueDelay, resolveTiming, writingTime, type TimingOptions, type TimingPreset } from './timing.js';
import { fieldErrors, summariseFields, type FieldError } from './validation-errors.js';
import { WebhookSender, type WebhookDelivery } from './webhook-delivery.js';
import { generateWebhookSecret } from './webhook-signature.js';
import { writeArticle } from './writer/index.js';

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

export interface AccountBalance {
  account: string;
  plan: Plan;
  /** Words left (Infinity when unlimited). */
  words: number;
  /** Internal-link credits left (Infinity when unlimited). */
  credits: number;
}

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

interface StateSnapshot {
  version: number;
  savedAt: number;
  articles: ArticleRecord[];
  ledger: LedgerSnapshot;
  idempotency: IdempotencyEntry[];
}

/** Image URLs are stored as tokens and resolved per answer (origin and expiry may change). */
const IMAGE_TOKEN = 'emulator-image:';
const IMAGE_TOKEN_PATTERN = /emulator-image:([0-9a-f]{16}-p?\d{1,4}-\d{1,4}x\d{1,4})/g;
const PNG_CACHE_SIZE = 32;
const REQUEST_LOG_LIMIT = 200_000;

type Route =
  | { name: 'createArticle' | 'internalLinks' | 'ledger' | 'health'; allow: string[] }
  | { name: 'getArticle'; allow: string[]; articleId: string }
  | { name: 'image'; allow: string[]; fileName: string };

function matchRoute(pathname: string): Route | undefined {
  if (pathname === '/api/articles' || pathname === '/api/articles/') return { name: 'createArticle', allow: ['POST'] };
  const article = /^\/api\/articles\/([^/]+)\/?$/.exec(pathname);
  if (article !== null) return { name: 'getArticle', allow: ['GET'], articleId: decodePathSegment(article[1] as string) };
  if (pathname === '/api/internal-links' || pathname === '/api/internal-links/') return { name: 'internalLinks', allow: ['POST'] };
  const image = /^\/_emulator\/images\/([^/]+)$/.exec(pathname);
  if (image !== null) return { name: 'image', allow: ['GET', 'HEAD'], fileName: image[1] as string };
  if (pathname === '/_emulator/ledger') return { name: 'ledger', allow: ['GET'] };
  if (pathname === '/_emulator/health') return { name: 'health', allow: ['GET'] };
  return undefined;
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Start the emulator. Resolves once it listens; read `url` for the port it got. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  validateOptions(options);
  const seed = String(options.seed ?? DEFAULT_SEED);
  const random = createRandom(seed);
  const sharedDomains: DomainOptions[] = typeof options.domains === 'string' ? await loadDomainsFile(options.domains) : (options.domains ?? []);

  // Custom webhooks without a configured secret get a generated one (read back with webhookSecret()).
  const secrets = new Map<string, string>();
  const withSecret = (integration: IntegrationOptions): IntegrationOptions => {
    if (integration.type !== 'custom_webhook') return integration;
    const secret = integration.secret ?? secrets.get(integration.id) ?? generateWebhookSecret();
    secrets.set(integration.id, secret);
    return { ...integration, secret };
  };
  const accountOptions = accountOptionsOf(options).map((account) => ({ ...account, integrations: account.integrations?.map(withSecret) }));
  const accounts = AccountRegistry.build(accountOptions, { domains: sharedDomains, integrations: (options.integrations ?? []).map(withSecret) });
  const firstApiKey = accountOptions[0]?.apiKey as string;

  let timing = resolveTiming(options.timing);
  const timingRandom = random.fork('timing');
  const failureRandom = random.fork('failure-steps');
  let faultGeneration = 0;
  let faults = new FaultInjector(options.faults ?? {}, random.fork(`faults:${faultGeneration}`));
  let faultConfig = options.faults ?? {};
  const rateLimit = rateLimitOf(options);
  const limiter = rateLimit === false ? undefined : new RateLimiter(rateLimit);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const signer = new ImageUrlSigner(seed);
  const clock = new Clock();
  const ledger = new Ledger();
  const requests: RequestLogEntry[] = [];
  const articles = new Map<string, ArticleRecord>();
  const drafts: CmsDraft[] = [];
  const idempotency = new IdempotencyStore(options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS);
  const webhooks = new WebhookSender(clock, options.webhooks ?? {}, () => timing.webhookRetryBaseMs);
  const pngCache = new Map<string, Buffer>();
  let origin = '';
  let stopped = false;

  const stateFile =
    options.stateFile === undefined
      ? undefined
      : new StateFile<StateSnapshot>(options.stateFile, () => ({
          version: STATE_FILE_VERSION,
          savedAt: Date.now(),
          articles: [...articles.values()],
          ledger: ledger.toJSON(),
          idempotency: idempotency.entries(),
        }));
  const persist = (): void => stateFile?.schedule();
  ledger.onChange(persist);

  /** The article as written, with the account's internal links when it asked for them. */
  const draftOf = (record: Pick<ArticleRecord, 'account' | 'request'>) => {
    const written = writeArticle(record.request, { imageUrl: (image) => IMAGE_TOKEN + image.id });
    const domainId = record.request.articleType === 'blog_post' ? record.request.internalLinkingDomainId : undefined;
    const domain = domainId === undefined ? undefined : accounts.byName(record.account)?.domains.get(domainId);
    if (domain === undefined) return written;
    return {
      ...written,
      html: insertInternalLinks(written.html, domain.pages, 'html').content,
      polishedHtml: written.polishedHtml === null ? null : insertInternalLinks(written.polishedHtml, domain.pages, 'html').content,
    };
  };

  const resolveImages = (html: string, record: ArticleRecord): string => {
    const expiresAt = options.imageUrlTtlMs === undefined ? undefined : (record.finishedAt ?? record.updatedAt) + options.imageUrlTtlMs;
    return html.replace(IMAGE_TOKEN_PATTERN, (_, id: string) => origin + signer.path(id, expiresAt));
  };

  const statusRecord = (record: ArticleRecord): ArticleStatusRecord => {
    const answer: ArticleStatusRecord = {
      articleId: record.id,
      config: record.request,
      status: record.status,
      statusDetail: record.statusDetail,
      updatedAt: record.updatedAt,
      progress: record.progress,
      error: record.error,
    };
    if (record.status === 'finished' && record.output !== undefined) {
      answer.output = {
        html: resolveImages(record.output.html, record),
        polishedHtml: record.output.polishedHtml === null ? null : resolveImages(record.output.polishedHtml, record),
      };
    }
    return answer;
  };

  const onSettled = (record: ArticleRecord): void => {
    ledger.settleCreation(record.id, record.status === 'finished' ? 'finished' : 'failed');
    const event = record.status === 'finished' ? 'article.finished' : 'article.failed';
    const payload = statusRecord(record);
    if (record.request.webhookUrl !== undefined) {
      webhooks.send({ kind: 'webhook_url', url: record.request.webhookUrl }, record.id, event, payload);
    }
    const integrationId = record.request.integrationId;
    const integration = integrationId === undefined ? undefined : accounts.byName(record.account)?.integrations.get(integrationId);
    if (integration?.type === 'custom_webhook' && integration.url !== undefined && integration.secret !== undefined) {
      webhooks.send({ kind: 'integration', url: integration.url, integrationId: integration.id, secret: integration.secret }, record.id, event, payload);
    } else if (integration?.type === 'cms' && record.status === 'finished') {
      drafts.push({ articleId: record.id, integrationId: integration.id, account: record.account, title: titleOf(record.output?.html ?? ''), at: Date.now() });
    }
  };

  // Drafts written at creation (for billing), reused when a worker takes the article.
  const pendingDrafts = new Map<string, ReturnType<typeof draftOf>>();
  const workers = new ArticleWorkers({
    clock,
    workers: options.workers ?? Number.POSITIVE_INFINITY,
    draft: (record) => {
      const draft = pendingDrafts.get(record.id) ?? draftOf(record);
      pendingDrafts.delete(record.id);
      return draft;
    },
    onChange: persist,
    onSettled,
  });

  // ---------------------------------------------------------------------------------------------
  // Routes
  // ---------------------------------------------------------------------------------------------

  const remainingWords = (account: Account): number => account.words - ledger.wordsSpentBy(account.name);
  const remainingCredits = (account: Account): number => account.credits - ledger.creditsSpentBy(account.name);

  interface Answer {
    status: number;
    body: string | Buffer;
    contentType: string;
    headers?: Record<string, string>;
    json: boolean;
  }
  const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
    status,
    body: JSON.stringify(body),
    contentType: JSON_TYPE,
    json: true,
    ...(headers === undefined ? {} : { headers }),
  });
  const failure = (status: number, code: ErrorCode, message: string, fields?: FieldError[], headers?: Record<string, string>): Answer => ({
    status,
    body: errorBody(code, message, fields),
    contentType: JSON_TYPE,
    json: true,
    ...(headers === undefined ? {} : { headers }),
  });
  const invalid = (message: string, fields?: FieldError[]): Answer => failure(400, 'invalid_request', message, fields);

  /** Read and parse a JSON object body, or the 400/413 answer explaining why not. */
  const jsonBody = async (req: IncomingMessage): Promise<{ body: Record<string, unknown> } | { answer: Answer; close?: boolean }> => {
    if (!isJsonContentType(req.headers['content-type'])) {
      return {
        answer: invalid(`The request body must be JSON sent with Content-Type: application/json (got ${JSON.stringify(req.headers['content-type'] ?? 'none')}).`),
      };
    }
    let text: string;
    try {
      text = await readBody(req, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return { answer: failure(413, 'payload_too_large', `The request body is larger than ${maxBodyBytes} bytes; send less content.`), close: true };
      }
      if (error instanceof BodyNotUtf8) return { answer: invalid('The request body is not valid UTF-8.') };
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { answer: invalid(`The request body is not valid JSON: ${(error as Error).message}.`) };
    }
    if (!isPlainObject(parsed)) return { answer: invalid('The request body must be a JSON object.', [{ path: '', message: 'must be a JSON object' }]) };
    return { body: parsed };
  };

  const createArticle = async (req: IncomingMessage, account: Account): Promise<{ answer: Answer; close?: boolean }> => {
    const idempotencyKey = req.headers['idempotency-key'];
    if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))) {
      return { answer: invalid('The Idempotency-Key header must be 1 to 255 visible ASCII characters.') };
    }
    const read = await jsonBody(req);
    if ('answer' in read) return read;
    const parsed = articleRequestSchema.safeParse(read.body);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      return { answer: invalid(summariseFields(fields), fields) };
    }
    const request = parsed.data;
    if (request.integrationId !== undefined && !account.integrations.has(request.integrationId)) {
      const fields = [{ path: 'integrationId', message: `no integration "${request.integrationId}" is connected to this account` }];
      return { answer: invalid(summariseFields(fields), fields) };
    }
    if (request.articleType === 'blog_post' && request.internalLinkingDomainId !== undefined && !account.domains.has(request.internalLinkingDomainId)) {
      const fields = [{ path: 'internalLinkingDomainId', message: `no domain "${request.internalLinkingDomainId}" is registered for internal links on this account` }];
      return { answer: invalid(summariseFields(fields), fields) };
    }
    const requestHash = hashRequest(request);
    const now = Date.now();
    if (typeof idempotencyKey === 'string') {
      const known = idempotency.lookup(account.name, idempotencyKey, now);
      if (known !== undefined) {
        if (known.requestHash === requestHash) return { answer: json(200, { articleId: known.articleId }) };
        return {
          answer: failure(409, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request body; use a new key for a new request.'),
        };
      }
    }

    const articleId = randomUUID();
    const written = draftOf({ account: account.name, request });
    const imageWords = written.generatedImages * imageWordCostFor(imageModelOf(request), options.imageWordCost);
    const cost = written.words + imageWords;
    const left = remainingWords(account);
    if (cost > left) {
      return {
        answer: failure(402, 'insufficient_credits', `The account's word balance (${left} words) cannot cover this article (${cost} words); top up the balance or shorten the article.`),
      };
    }
    const failureFault = faults.articleFailure();
    const record: ArticleRecord = {
      id: articleId,
      account: account.name,
      request,
      requestHash,
      createdAt: now,
      updatedAt: now,
      status: 'queued',
      statusDetail: STATUS_DETAIL.queued,
      progress: 0,
      error: null,
      writingMs: writingTime(timing, request, articleId, timingRandom),
      queueDelayMs: queueDelay(timing, timingRandom),
      ...(failureFault === undefined ? {} : { failure: { ...failureFault, atStep: failureStep(written.steps.length, failureRandom) } }),
    };
    articles.set(articleId, record);
    pendingDrafts.set(articleId, written);
    ledger.recordCreation({
      articleId,
      account: account.name,
      requestHash,
      targetKeyword: request.targetKeyword,
      at: now,
      words: written.words,
      images: written.generatedImages,
      imageWords,
      outcome: 'pending',
    });
    if (typeof idempotencyKey === 'string') idempotency.remember({ account: account.name, key: idempotencyKey, requestHash, articleId, at: now });
    workers.add(record);
    // With a state file, the article exists on disk before its id is handed out: a process
    // killed right after this answer still knows the id the caller may have recorded.
    if (stateFile !== undefined) {
      persist();
      await stateFile.flush();
    }
    return { answer: json(200, { articleId }) };
  };

  const getArticle = (articleId: string, account: Account): Answer => {
    const record = articles.get(articleId);
    // Another account's article is as unknown as a missing one.
    if (record === undefined || record.account !== account.name) {
      return failure(404, 'not_found', `No article with id "${articleId}" exists for this API key; check the id returned by the create call.`);
    }
    return json(200, statusRecord(record));
  };

  const internalLinks = async (req: IncomingMessage, account: Account): Promise<{ answer: Answer; close?: boolean }> => {
    if (!planAllowsInternalLinks(account.plan)) {
      return { answer: failure(403, 'plan_required', `Internal links need the professional plan; this account is on the ${account.plan} plan. Upgrade the plan or turn internal links off.`) };
    }
    const read = await jsonBody(req);
    if ('answer' in read) return read;
    const parsed = internalLinkRequestSchema.safeParse(read.body);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      return { answer: invalid(summariseFields(fields), fields) };
    }
    const { content, format, domainId } = parsed.data;
    const domain = account.domains.get(domainId);
    if (domain === undefined) {
      const fields = [{ path: 'domainId', message: `no domain "${domainId}" is registered in the link tool for this account` }];
      return { answer: invalid(summariseFields(fields), fields) };
    }
    if (remainingCredits(account) < 1) {
      return { answer: failure(402, 'insufficient_credits', 'The account has no internal-link credits left (1 credit per request); top up the credits.') };
    }
    const syntax = format === 'markdown' ? 'markdown' : format === 'html' || looksLikeHtml(content) ? 'html' : 'markdown';
    const result = insertInternalLinks(content, domain.pages, syntax);
    ledger.recordLinkCharge({ account: account.name, domainId, format, at: Date.now(), credits: 1, links: result.links.length });
    if (format === 'json') return { answer: json(200, { links: result.links, wordsAnalysed: result.wordsAnalysed }) };
    return {
      answer: {
        status: 200,
        body: result.content,
        contentType: format === 'html' ? 'text/html; charset=utf-8' : 'text/markdown; charset=utf-8',
        json: false,
      },
    };
  };

  const image = (fileName: string, query: URLSearchParams): Answer => {
    const parsed = parseImageFileName(fileName);
    if (parsed === undefined || parsed.width > MAX_IMAGE_SIDE || parsed.height > MAX_IMAGE_SIDE) return failure(404, 'not_found', 'No such image.');
    const check = signer.check(parsed.id, query, Date.now(), options.imageUrlTtlMs !== undefined);
    if (check === 'expired') return failure(403, 'forbidden', 'This image URL has expired; fetch the article again for fresh URLs, or download images when the article finishes.');
    if (check === 'invalid') return failure(403, 'forbidden', 'This image URL is not validly signed.');
    let png = pngCache.get(parsed.id);
    if (png === undefined) {
      png = renderPng(parsed.width, parsed.height, parsed.id);
      pngCache.set(parsed.id, png);
      if (pngCache.size > PNG_CACHE_SIZE) pngCache.delete(pngCache.keys().next().value as string);
    }
    return { status: 200, body: png, contentType: 'image/png', json: false, headers: { 'cache-control': 'public, max-age=3600' } };
  };

  const ledgerRoute = (account: Account): Answer => {
    const totals = ledger.totalsFor(account.name);
    return json(200, {
      account: account.name,
      totals,
      balance: { words: finiteOrNull(remainingWords(account)), credits: finiteOrNull(remainingCredits(account)) },
      creations: ledger.creations.filter((c) => c.account === account.name),
      linkCharges: ledger.linkCharges.filter((c) => c.account === account.name),
      duplicates: ledger.duplicates().filter((d) => d.articleIds.some((id) => articles.get(id)?.account === account.name)),
    });
  };

  // ---------------------------------------------------------------------------------------------
  // The request pipeline: route → auth → rate limit → faults → handler → faults on the answer
  // ---------------------------------------------------------------------------------------------

  const authenticate = (req: IncomingMessage): Account | Answer => {
    const header = req.headers.authorization;
    const challenge = { 'www-authenticate': 'Bearer realm="article-service"' };
    if (header === undefined || header.trim() === '') {
      return failure(401, 'unauthorized', 'Missing API key: send the header Authorization: Bearer <API_KEY>.', undefined, challenge);
    }
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    const account = match === null ? undefined : accounts.authenticate(match[1] as string);
    if (account === undefined) return failure(401, 'unauthorized', 'Invalid API key: check the key you configured for the article service.', undefined, challenge);
    return account;
  };

  const write = (res: ServerResponse, entry: RequestLogEntry, answer: Answer, after: AfterFault, head: boolean, close = false): void => {
    if (after === 'reset') {
      entry.fault = 'reset_after_processing';
      res.socket?.destroy();
      return;
    }
    if (after === 'server_error') {
      entry.fault = 'server_error_after_processing';
      const failed = failure(500, 'server_error', 'The service had an internal error; retry later.');
      send(res, failed.status, failed.body, failed.contentType, failed.headers, { head, close });
      return;
    }
    let body = answer.body;
    if (after === 'truncated_json') {
      entry.fault = 'truncated_json';
      body = Buffer.from(body).subarray(0, Math.max(1, Math.floor(Buffer.byteLength(body) / 2)));
    } else if (after === 'invalid_json') {
      entry.fault = 'invalid_json';
      body = `${String(body).replace(/\}\s*$/, '')},}`;
    }
    send(res, answer.status, body, answer.contentType, answer.headers, { head, close });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const at = Date.now();
    let pathname: string;
    let query: URLSearchParams;
    try {
      const url = new URL(req.url ?? '/', 'http://emulator.invalid');
      pathname = url.pathname;
      query = url.searchParams;
    } catch {
      pathname = '(unparseable)';
      query = new URLSearchParams();
    }
    const entry: RequestLogEntry = { method: req.method ?? '', path: pathname, route: null, status: null, at };
    requests.push(entry);
    if (requests.length > REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);
    res.on('finish', () => {
      entry.status = res.statusCode;
      entry.durationMs = Date.now() - at;
    });
    res.on('close', () => {
      entry.durationMs ??= Date.now() - at;
      options.onRequest?.(`${entry.method} ${entry.path} ${entry.status ?? 'connection dropped'} ${entry.durationMs} ms${entry.fault === undefined ? '' : ` (fault: ${entry.fault})`}`);
    });

    const route = matchRoute(pathname);
    if (route === undefined) {
      write(res, entry, failure(404, 'not_found', `No route ${pathname}: the service has POST /api/articles/, GET /api/articles/{id} and POST /api/internal-links/.`), 'none', false);
      return;
    }
    entry.route = route.name;
    const method = req.method ?? '';
    if (!route.allow.includes(method)) {
      write(res, entry, failure(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${route.allow.join(' or ')}.`, undefined, { allow: route.allow.join(', ') }), 'none', false);
      return;
    }
    if (route.name === 'health') {
      write(res, entry, json(200, { status: 'ok' }), 'none', false);
      return;
    }

    let account: Account | undefined;
    if (route.name !== 'image') {
      const auth = authenticate(req);
      if (!('keyDigest' in auth)) {
        write(res, entry, auth, 'none', false);
        return;
      }
      account = auth;
      entry.account = account.name;
      if (limiter !== undefined && route.name !== 'ledger') {
        const wait = limiter.take(account.name, Date.now());
        if (wait > 0) {
          write(res, entry, failure(429, 'rate_limited', `Too many requests for this API key; retry after ${wait} s.`, undefined, { 'retry-after': String(wait) }), 'none', false);
          return;
        }
      }
    }

    const faultRoute: FaultRoute | undefined = route.name === 'ledger' ? undefined : route.name;
    if (faultRoute !== undefined) {
      const { delayMs, fault } = faults.before(faultRoute);
      if (delayMs > 0) {
        entry.fault = 'slow';
        await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
        if (res.destroyed) return;
      }
      if (fault.kind === 'reset') {
        entry.fault = 'reset_before_processing';
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'server_error') {
        entry.fault = 'server_error';
        write(res, entry, failure(500, 'server_error', 'The service had an internal error; retry later.'), 'none', false);
        return;
      }
      if (fault.kind === 'rate_limited') {
        entry.fault = 'rate_limited';
        write(
          res,
          entry,
          failure(429, 'rate_limited', `Too many requests; retry after ${fault.retryAfterSeconds} s.`, undefined, { 'retry-after': String(fault.retryAfterSeconds) }),
          'none',
          false,
        );
        return;
      }
    }

    let result: { answer: Answer; close?: boolean };
    switch (route.name) {
      case 'createArticle':
        result = await createArticle(req, account as Account);
        break;
      case 'getArticle':
        result = { answer: getArticle(route.articleId, account as Account) };
        break;
      case 'internalLinks':
        result = await internalLinks(req, account as Account);
        break;
      case 'image':
        result = { answer: image(route.fileName, query) };
        break;
      case 'ledger':
        result = { answer: ledgerRoute(account as Account) };
        break;
    }
    const ok = result.answer.status >= 200 && result.answer.status < 300;
    const after: AfterFault = faultRoute !== undefined && ok ? faults.after(faultRoute, result.answer.json) : 'none';
    write(res, entry, result.answer, after, method === 'HEAD', result.close === true);
    if (result.close === true) {
      // Drain a little of an oversized body so the client can read the 413, then let go.
      let drained = 0;
      req.on('data', (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > maxBodyBytes * 4) req.socket.destroy();
      });
      req.resume();
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) send(res, 500, errorBody('server_error', 'The emulator failed to answer this request.'), JSON_TYPE);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  // Restore persisted state before accepting requests.
  if (stateFile !== undefined) {
    const snapshot = await stateFile.load();
    if (snapshot !== undefined) {
      ledger.restore(snapshot.ledger);
      idempotency.restore(snapshot.idempotency);
      for (const record of snapshot.articles) articles.set(record.id, record);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const displayHost = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${displayHost}:${address.port}`;
  origin = (options.publicUrl ?? url).replace(/\/+$/, '');

  // Unfinished articles resume from the queue: the writer is deterministic, so the result is the same.
  for (const record of articles.values()) {
    if (record.status === 'queued' || record.status === 'processing') {
      Object.assign(record, { status: 'queued', statusDetail: STATUS_DETAIL.queued, progress: 0, updatedAt: Date.now() });
      workers.add(record);
    }
  }

  const running: RunningEmulator = {
    url,
    apiKey: firstApiKey,
    ledger,
    requests,
    webhookDeliveries: webhooks.deliveries,
    drafts,
    article: (articleId) => {
      const record = articles.get(articleId);
      return record === undefined ? undefined : statusRecord(record);
    },
    articleIds: () => [...articles.keys()],
    balances: () => accounts.all.map((account) => ({ account: account.name, plan: account.plan, words: remainingWords(account), credits: remainingCredits(account) })),
    webhookSecret: (integrationId) => secrets.get(integrationId),
    setFaults: (config) => {
      faultConfig = config ?? {};
      faultGeneration++;
      faults = new FaultInjector(faultConfig, random.fork(`faults:${faultGeneration}`));
    },
    setTiming: (next) => {
      timing = resolveTiming(next);
      for (const record of articles.values()) {
        if (record.status === 'queued' || record.status === 'processing') record.writingMs = writingTime(timing, record.request, record.id, timingRandom);
      }
      clock.wakeAll();
    },
    advance: () => clock.wakeAll(),
    pause: () => workers.pause(),
    resume: () => workers.resume(),
    settle: async () => {
      do {
        await workers.idle();
        await webhooks.idle();
      } while (workers.busy > 0);
    },
    reset: () => {
      workers.clear();
      pendingDrafts.clear();
      articles.clear();
      ledger.clear();
      requests.length = 0;
      idempotency.restore([]);
      drafts.length = 0;
      webhooks.deliveries.length = 0;
      limiter?.reset();
      faultGeneration++;
      faults = new FaultInjector(faultConfig, random.fork(`faults:${faultGeneration}`));
      persist();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clock.cancelAll();
      webhooks.stop();
      workers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await webhooks.idle();
      if (stateFile !== undefined) {
        stateFile.schedule();
        await stateFile.flush();
      }
    },
  };
  return running;
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function titleOf(html: string): string {
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return (match?.[1] ?? '').replace(/<[^>]+>/g, '').trim();
}
