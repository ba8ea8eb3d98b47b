// The article client's options checked and defaulted once, before anything is sent: the service's origin and path prefix, timeouts, limits.
import { ArticleLoaderError } from '../errors.js';
import { DEFAULT_UNREACHABLE_AFTER } from './circuit-breaker.js';
import type { ArticleClientOptions } from './client-options.js';
import { type RetryPolicy, resolveRetryPolicy } from './retry-policy.js';
import { apiKeyProblem, serviceAddressProblems } from '../contract/service-address.js';

/** The options as the client uses them: checked, defaulted, the base URL split in two. */
export interface ResolvedSettings {
  /** Scheme, host and port: what the connection pool connects to. */
  origin: string;
  /** The base URL's path without its trailing slashes, put before every endpoint's path. */
  pathPrefix: string;
  timeoutMs: number;
  concurrency: number;
  idempotentCreates: boolean;
  unreachableAfter: number;
  policy: RetryPolicy;
}

/** Longest one request (one exchange with the service) may take: 30 seconds. Not a run's wait: see `sync/run-rules.ts`. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Requests in flight at once through one client. */
const DEFAULT_REQUEST_CONCURRENCY = 8;

/** The options with defaults applied; throws `invalid_client_options` listing every value that cannot work. */
export function resolveSettings(options: ArticleClientOptions): ResolvedSettings {
  const problems: string[] = [];
  const url = serviceUrl(options.baseUrl, problems);
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    problems.push('apiKey is empty: set ARTICLES_API_KEY to your API key');
  } else {
    const problem = apiKeyProblem(options.apiKey);
    if (problem !== undefined) problems.push(`apiKey ${problem} (in ARTICLES_API_KEY?)`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) problems.push('timeoutMs must be a positive number of milliseconds');
  const concurrency = options.concurrency ?? DEFAULT_REQUEST_CONCURRENCY;
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

/** `baseUrl` parsed, with a problem added for each way it cannot serve as the service's root. */
function serviceUrl(baseUrl: string, problems: string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    problems.push('baseUrl must be an absolute http(s) URL such as https://api.example.com');
    return undefined;
  }
  for (const problem of serviceAddressProblems(url)) problems.push(`baseUrl ${problem}`);
  return url;
}
