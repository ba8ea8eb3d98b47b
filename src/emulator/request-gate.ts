// Who may call: the bearer API key that names the account, and the per-account rate limit.
import type { IncomingMessage } from 'node:http';
import type { Account, AccountRegistry } from './accounts.js';
import { failure, type Answer } from './answer.js';
import type { RateLimiter } from './rate-limiter.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="article-service"' };

/** The account whose key the Authorization header carries, or the 401 answer. */
export function authenticate(accounts: AccountRegistry, req: IncomingMessage): Account | Answer {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') {
    return failure(401, 'unauthorized', 'Missing API key: send the header Authorization: Bearer <API_KEY>.', undefined, CHALLENGE);
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const account = match === null ? undefined : accounts.authenticate(match[1] as string);
  if (account === undefined) return failure(401, 'unauthorized', 'Invalid API key: check the key you configured for the article service.', undefined, CHALLENGE);
  return account;
}

/** The 429 answer when the account is over its rate limit now, else undefined (a request is counted). */
export function overRateLimit(limiter: RateLimiter | undefined, account: Account): Answer | undefined {
  if (limiter === undefined) return undefined;
  const wait = limiter.take(account.name, Date.now());
  if (wait > 0) return failure(429, 'rate_limited', `Too many requests for this API key; retry after ${wait} s.`, undefined, { 'retry-after': String(wait) });
  return undefined;
}
