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

/** Frozen requests equal to a frozen request (their base) but for `targetKeyword`: the manifest's entries made from the defaults alone. */
const variants = new WeakMap<object, object>();

/**
 * Marks `request` as `base` with another `targetKeyword` and nothing else changed, both frozen (otherwise nothing is marked):
 * its request hash is then written from the base's canonical text around its keyword (sync/canonical-request.ts).
 */
export function markKeywordVariant(request: object, base: object): void {
  if (request !== base && Object.isFrozen(request) && Object.isFrozen(base)) variants.set(request, base);
}

/** The base `markKeywordVariant` marked `value` a variant of, if any. */
export function keywordVariantBase(value: object): object | undefined {
  return variants.get(value);
}
