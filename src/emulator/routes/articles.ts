// The article routes: POST /api/articles/ (validate, replay idempotent creates, bill, queue) and GET /api/articles/{id}.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { articleRequestSchema, type ArticleRequest } from '../../contract/request-schema.js';
import type { Account } from '../accounts.js';
import { failure, invalid, invalidFields, json, type Answer, type RouteResult } from '../answer.js';
import { creationCharge, type CreationCharge } from '../article-charge.js';
import { statusRecord } from '../article-output.js';
import { failureStep, STATUS_DETAIL, type ArticleRecord } from '../article-store.js';
import { remainingWords } from '../balances.js';
import { canonicalJsonHash } from '../../contract/canonical-json.js';
import type { EmulatorContext } from '../context.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../idempotency.js';
import { flawsFor, type ArticleFlaws } from '../flaw-options.js';
import { DEFAULT_SEED, imageModelOf, imageWordCostFor } from '../options.js';
import { queueDelay, writingTime } from '../timing.js';
import { parseJsonBody } from './json-body.js';

/** The 400 for an integration or internal-link domain the account does not have, else undefined. */
function unknownReference(request: ArticleRequest, account: Account): Answer | undefined {
  if (request.integrationId !== undefined && !account.integrations.has(request.integrationId)) {
    return invalidFields([{ path: 'integrationId', message: `no integration "${request.integrationId}" is connected to this account` }]);
  }
  if (request.articleType === 'blog_post' && request.internalLinkingDomainId !== undefined && !account.domains.has(request.internalLinkingDomainId)) {
    return invalidFields([{ path: 'internalLinkingDomainId', message: `no domain "${request.internalLinkingDomainId}" is registered for internal links on this account` }]);
  }
  return undefined;
}

/** The answer to a create whose Idempotency-Key is known: the same article, or 409 for another body. */
function idempotentReplay(ctx: EmulatorContext, account: Account, key: string, requestHash: string, now: number): Answer | undefined {
  const known = ctx.idempotency.lookup(account.name, key, now);
  if (known === undefined) return undefined;
  if (known.requestHash === requestHash) return json(200, { articleId: known.articleId });
  return failure(409, 'idempotency_conflict', 'This Idempotency-Key was already used with a different request body; use a new key for a new request.');
}

/**
 * The flaws the `flaws` option plants in a new article, decided now so they do not depend on timing;
 * a copy copies the article created just before it on the same account (none: nothing to copy).
 */
function flawsOfNew(ctx: EmulatorContext, account: Account, request: ArticleRequest): ArticleFlaws | undefined {
  const kinds = flawsFor(ctx.options.flaws, String(ctx.options.seed ?? DEFAULT_SEED), request);
  if (kinds === undefined) return undefined;
  const previous = [...ctx.articles.values()].filter((record) => record.account === account.name).at(-1);
  return { kinds, ...(kinds.includes('copy') && previous !== undefined ? { copyOf: previous.id } : {}) };
}

interface NewArticle {
  articleId: string;
  account: Account;
  request: ArticleRequest;
  requestHash: string;
  now: number;
  charge: CreationCharge;
  imageWords: number;
  idempotencyKey: string | undefined;
  flaws: ArticleFlaws | undefined;
}

/** Queue a billed article: its record, its draft, its ledger entry and idempotency key. */
function queueArticle(ctx: EmulatorContext, article: NewArticle): void {
  const { articleId, account, request, requestHash, now, charge } = article;
  const failureFault = ctx.faults.current.articleFailure();
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
    writingMs: writingTime(ctx.timing, request, articleId, ctx.timingRandom),
    queueDelayMs: queueDelay(ctx.timing, ctx.timingRandom),
    ...(failureFault === undefined ? {} : { failure: { ...failureFault, atStep: failureStep(charge.steps, ctx.failureRandom) } }),
    ...(article.flaws === undefined ? {} : { flaws: article.flaws }),
  };
  ctx.articles.set(articleId, record);
  if (charge.draft !== undefined) ctx.pendingDrafts.set(articleId, charge.draft);
  ctx.ledger.recordCreation({
    articleId,
    account: account.name,
    requestHash,
    targetKeyword: request.targetKeyword,
    at: now,
    words: charge.words,
    images: charge.generatedImages,
    imageWords: article.imageWords,
    outcome: 'pending',
  });
  if (article.idempotencyKey !== undefined) ctx.idempotency.remember({ account: account.name, key: article.idempotencyKey, requestHash, articleId, at: now });
  ctx.workers.add(record);
}

/** POST /api/articles/ */
export async function createArticle(ctx: EmulatorContext, req: IncomingMessage, account: Account): Promise<RouteResult> {
  const idempotencyKey = req.headers['idempotency-key'];
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))) {
    return { answer: invalid('The Idempotency-Key header must be 1 to 255 visible ASCII characters.') };
  }
  const parsed = await parseJsonBody(req, ctx.maxBodyBytes, articleRequestSchema);
  if ('answer' in parsed) return parsed;
  const request = parsed.data;
  const unknown = unknownReference(request, account);
  if (unknown !== undefined) return { answer: unknown };
  const requestHash = canonicalJsonHash(request);
  const now = Date.now();
  const key = typeof idempotencyKey === 'string' ? idempotencyKey : undefined;
  const replay = key === undefined ? undefined : idempotentReplay(ctx, account, key, requestHash, now);
  if (replay !== undefined) return { answer: replay };

  const articleId = randomUUID();
  const flaws = flawsOfNew(ctx, account, request);
  const charge = creationCharge(ctx, { account: account.name, request, ...(flaws === undefined ? {} : { flaws }) });
  const imageWords = charge.generatedImages * imageWordCostFor(imageModelOf(request), ctx.options.imageWordCost);
  const cost = charge.words + imageWords;
  const left = remainingWords(ctx.ledger, account);
  if (cost > left) {
    return {
      answer: failure(402, 'insufficient_credits', `The account's word balance (${left} words) cannot cover this article (${cost} words); top up the balance or shorten the article.`),
    };
  }
  queueArticle(ctx, { articleId, account, request, requestHash, now, charge, imageWords, idempotencyKey: key, flaws });
  // With a state file, the article exists on disk before its id is handed out: a process
  // killed right after this answer still knows the id the caller may have recorded.
  if (ctx.stateFile !== undefined) {
    ctx.persist();
    await ctx.stateFile.flush();
  }
  return { answer: json(200, { articleId }) };
}

/** GET /api/articles/{id} */
export function getArticle(ctx: EmulatorContext, articleId: string, account: Account): Answer {
  const record = ctx.articles.get(articleId);
  // Another account's article is as unknown as a missing one.
  if (record === undefined || record.account !== account.name) {
    return failure(404, 'not_found', `No article with id "${articleId}" exists for this API key; check the id returned by the create call.`);
  }
  return json(200, statusRecord(ctx, record));
}
