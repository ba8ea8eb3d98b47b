// Reads an HTTP `Retry-After` header (delay in seconds or an HTTP date) as milliseconds to wait.

/**
 * Milliseconds to wait before retrying, or undefined when the header is absent or unreadable
 * (the caller then falls back to its own backoff). A date in the past means "now" (0).
 * Decimal seconds are accepted because some servers send them, though RFC 9110 says integer.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const ms = Math.ceil(Number(raw) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  // Only the date forms carry letters; `Date.parse` would also read "2" or "-1" as a date.
  if (!/[a-z]/i.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
