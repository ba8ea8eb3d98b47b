// The canonical form of an article request and its hash: what decides whether an article is paid for again.
import { canonicalJsonHash, canonicalValue, type CanonicalValue } from '../contract/canonical-json.js';
import { articleRequestSchema, type ArticleRequest, type ArticleRequestInput } from '../contract/request-schema.js';
import { isParsedRequest } from '../contract/parsed-requests.js';
import { InvalidSpecError } from './errors.js';

/**
 * Parameters that do not change the article's text: where the finished article is delivered.
 * Leaving them out means moving to another integration never pays for an article again (and keeps
 * a webhook URL, which may embed a token, out of the lock file).
 */
export const NON_CONTENT_PARAMETERS = ['integrationId', 'webhookUrl'] as const;

export type { CanonicalValue } from '../contract/canonical-json.js';
export type CanonicalRequest = { [key: string]: CanonicalValue };

/** One parameter that differs between two requests; `path` is dotted (`polishSettings.humanize`). */
export interface RequestChange {
  path: string;
  from: CanonicalValue | undefined;
  to: CanonicalValue | undefined;
}

function parseRequest(request: ArticleRequestInput | ArticleRequest | Record<string, unknown>): ArticleRequest {
  if (isParsedRequest(request)) return request as ArticleRequest;
  const parsed = articleRequestSchema.safeParse(request);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`);
    throw new InvalidSpecError([`the article request is invalid: ${problems.join('; ')}`]);
  }
  return parsed.data;
}

/**
 * The request with every spec default applied, the non-content parameters removed and keys sorted
 * at every level. Two requests that mean the same article have the same canonical request.
 */
export function canonicalRequest(request: ArticleRequestInput | ArticleRequest | Record<string, unknown>): CanonicalRequest {
  const parsed: Record<string, unknown> = { ...parseRequest(request) };
  for (const key of NON_CONTENT_PARAMETERS) delete parsed[key];
  return canonicalValue(parsed) as CanonicalRequest;
}

/**
 * Hashes by request object: a sync hashes each spec's request when it checks the specs and again
 * when it plans (twice per pass for 1,000 articles showed in a cold build's profile). A frozen
 * request can't change under its hash; others are hashed each time.
 */
const hashes = new WeakMap<object, string>();

/** `sha256:<hex>` of the canonical request's JSON. */
export function requestHash(request: ArticleRequestInput | ArticleRequest | Record<string, unknown>): string {
  const known = hashes.get(request);
  if (known !== undefined) return known;
  // The parsed request's canonical text less its non-content members: canonicalRequest's copy is not made.
  const hash = `sha256:${canonicalJsonHash(parseRequest(request), { omit: NON_CONTENT_PARAMETERS })}`;
  if (Object.isFrozen(request)) hashes.set(request, hash);
  return hash;
}

function sameValue(a: CanonicalValue | undefined, b: CanonicalValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The canonical request without the members that equal their defaults for its article type:
 * what the lock file stores so `plan` can show a field diff without a 40-line entry per article.
 * `canonicalRequest(explicitParameters(r))` equals `canonicalRequest(r)`.
 */
export function explicitParameters(request: ArticleRequestInput | ArticleRequest | Record<string, unknown>): CanonicalRequest {
  const full = canonicalRequest(request);
  const defaults = canonicalRequest({ targetKeyword: full.targetKeyword as string, articleType: full.articleType as string });
  return pruneDefaults(full, defaults, true) as CanonicalRequest;
}

function pruneDefaults(value: CanonicalRequest, defaults: CanonicalRequest, top: boolean): CanonicalRequest {
  const explicit: CanonicalRequest = {};
  for (const [key, member] of Object.entries(value)) {
    const fallback = defaults[key];
    // The keyword and type identify the request; keep them even though they "equal the defaults" above.
    if (top && (key === 'targetKeyword' || key === 'articleType')) explicit[key] = member;
    else if (isObject(member) && isObject(fallback)) {
      const nested = pruneDefaults(member, fallback, false);
      if (Object.keys(nested).length > 0) explicit[key] = nested;
    } else if (!sameValue(member, fallback)) explicit[key] = member;
  }
  return explicit;
}

function isObject(value: CanonicalValue | undefined): value is { [key: string]: CanonicalValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The parameters that differ between two canonical requests, sorted by path. Nested objects are
 * compared member by member; arrays (outline, urls) as a whole.
 */
export function diffRequests(from: CanonicalRequest, to: CanonicalRequest): RequestChange[] {
  const changes: RequestChange[] = [];
  const walk = (a: CanonicalValue | undefined, b: CanonicalValue | undefined, path: string): void => {
    if (isObject(a) && isObject(b)) {
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        walk(a[key], b[key], path === '' ? key : `${path}.${key}`);
      }
    } else if (!sameValue(a, b)) {
      changes.push({ path, from: a, to: b });
    }
  };
  walk(from, to, '');
  return changes;
}
