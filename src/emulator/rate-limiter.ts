// Per-account request rate limiting with a token bucket, answering how long to wait when empty.

export interface RateLimitOptions {
  /** Sustained requests per second per account. */
  requestsPerSecond: number;
  /** Requests allowed at once before the rate applies. Default 2 × requestsPerSecond. */
  burst?: number;
}

/** The default limit; the spec shows no numbers ("Numeric rate limits: not shown"). */
export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = { requestsPerSecond: 100, burst: 300 };

export class RateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: RateLimitOptions) {
    this.#rate = options.requestsPerSecond;
    this.#burst = options.burst ?? Math.max(1, Math.ceil(options.requestsPerSecond * 2));
  }

  /** Takes a token for `key`; returns 0 when allowed, else the whole seconds to wait (≥ 1). */
  take(key: string, now: number): number {
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#rate);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate));
  }

  reset(): void {
    this.#buckets.clear();
  }
}
