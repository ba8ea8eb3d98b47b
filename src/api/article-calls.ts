// The client's three operations as calls: each input validated (nothing is sent for a bad one), then where it goes and how its answer is read.
import type { z } from 'zod';
import { capitalize, fieldsText } from './attempt-failure.js';
import { mapOutcome, readJson, readLinkedContent } from './answer-reading.js';
import type { CallDefinition } from './call-definition.js';
import { type FieldProblem, InvalidRequestError } from './errors.js';
import { redactedValue } from './secret-redactor.js';
import { type ArticleRequest, type ArticleRequestInput, articleRequestSchema } from '../contract/request-schema.js';
import {
  type ArticleStatus,
  type InternalLinkRequest,
  type InternalLinksJson,
  articleIdSchema,
  articleStatusSchema,
  createArticleResultSchema,
  internalLinkRequestSchema,
  internalLinksJsonSchema,
} from '../contract/response-schema.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** What building a call needs from its client. */
export interface CallTarget {
  /** The path of the service's root, without a trailing slash (`/v2`, or empty). */
  pathPrefix: string;
  redact: (text: string) => string;
  /** A status record as kept: redacted, the echo of the key reported. */
  keptStatus: (status: ArticleStatus) => ArticleStatus;
}

/** `POST /api/articles/`: resolves to the new article's id. Throws `InvalidRequestError` for a bad request or idempotency key. */
export function createArticleCall(request: ArticleRequestInput | ArticleRequest, idempotencyKey: string | undefined, target: CallTarget): CallDefinition<string> {
  const { redact } = target;
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
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new InvalidRequestError(
      `The idempotencyKey of ${subject} must be 1 to 255 visible ASCII characters (no spaces); nothing was sent to the service.`,
      { fields: [{ path: 'idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' }] },
    );
  }
  return {
    operation: 'createArticle',
    method: 'POST',
    path: `${target.pathPrefix}/api/articles/`,
    subject,
    keyword: redact(parsed.data.targetKeyword),
    body: JSON.stringify(parsed.data),
    accept: 'application/json',
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    read: (answer) => readJson(answer, createArticleResultSchema, redact, (result) => result.articleId),
  };
}

/** `GET /api/articles/{id}`: resolves to the status record as kept. Throws `InvalidRequestError` for an id that is not a UUID. */
export function getArticleCall(articleId: string, target: CallTarget): CallDefinition<ArticleStatus> {
  const id = articleIdSchema.safeParse(articleId);
  if (!id.success) {
    throw new InvalidRequestError(
      `The article id ${JSON.stringify(target.redact(String(articleId)))} is not a UUID, so it cannot be an id the service gave out. ` +
        `Check the lock file entry it came from; nothing was sent to the service.`,
      { fields: [{ path: 'articleId', message: 'must be a UUID' }] },
    );
  }
  return {
    operation: 'getArticle',
    method: 'GET',
    path: `${target.pathPrefix}/api/articles/${encodeURIComponent(id.data)}`,
    subject: `article ${id.data}`,
    accept: 'application/json',
    read: (answer) => readJson(answer, articleStatusSchema, target.redact, target.keptStatus),
  };
}

/** `POST /api/internal-links/`: the link data (format `json`) or the linked content, redacted either way. */
export function internalLinksCall(request: InternalLinkRequest, target: CallTarget): CallDefinition<string | InternalLinksJson> {
  const { redact } = target;
  const parsed = internalLinkRequestSchema.safeParse(request);
  if (!parsed.success) {
    const fields = fieldProblems(parsed.error.issues, redact);
    throw new InvalidRequestError(`The internal-link request is invalid: ${issuesText(parsed.error.issues, redact)}. Nothing was sent to the service.`, {
      fields,
    });
  }
  const { format, domainId } = parsed.data;
  return {
    operation: 'createInternalLinks',
    method: 'POST',
    path: `${target.pathPrefix}/api/internal-links/`,
    subject: `the internal-link request for domain "${redact(domainId)}" (format ${format})`,
    body: JSON.stringify(parsed.data),
    accept: format === 'json' ? 'application/json' : `text/${format}, application/json;q=0.5`,
    // Kept in the cache: the key is removed from the answer, whatever its format.
    read: (answer) =>
      format === 'json'
        ? readJson(answer, internalLinksJsonSchema, redact, (links) => redactedValue(links, redact) as InternalLinksJson)
        : mapOutcome(readLinkedContent(answer, redact), redact),
  };
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
