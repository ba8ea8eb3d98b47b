// Requests `articleRequestSchema` made and that were frozen since (the manifest's): parsing one again gives it back
// unchanged, so hashing it skips that parse (a tenth of a warm 1,000-article build's load() was zod parsing requests twice).

const parsed = new WeakSet<object>();

/** Marks a frozen request made by `articleRequestSchema` (a request that is not frozen is not marked: it could change). */
export function markParsedRequest<T extends object>(request: T): T {
  if (Object.isFrozen(request)) parsed.add(request);
  return request;
}

/** Whether `value` is a request `markParsedRequest` marked. */
export function isParsedRequest(value: unknown): boolean {
  return typeof value === 'object' && value !== null && parsed.has(value);
}
