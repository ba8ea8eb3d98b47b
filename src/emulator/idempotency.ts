// Idempotency-Key memory: the same key and body return the same article instead of a second paid one.

/** How long a key is remembered. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** 1..255 visible ASCII characters (CONTRACTS.md). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyEntry {
  account: string;
  key: string;
  requestHash: string;
  articleId: string;
  at: number;
}

export class IdempotencyStore {
  readonly #entries = new Map<string, IdempotencyEntry>();
  readonly #ttlMs: number;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /** The live entry for an account's key, if any. */
  lookup(account: string, key: string, now: number): IdempotencyEntry | undefined {
    const id = `${account}\u0000${key}`;
    const entry = this.#entries.get(id);
    if (entry !== undefined && now - entry.at > this.#ttlMs) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry;
  }

  remember(entry: IdempotencyEntry): void {
    this.#entries.set(`${entry.account}\u0000${entry.key}`, entry);
  }

  entries(): IdempotencyEntry[] {
    return [...this.#entries.values()].map((entry) => ({ ...entry }));
  }

  restore(entries: readonly IdempotencyEntry[]): void {
    this.#entries.clear();
    for (const entry of entries) this.remember({ ...entry });
  }
}
