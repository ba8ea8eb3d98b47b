// The emulator's request hash: SHA-256 of the parsed request as JSON with keys sorted at every level.
import { createHash } from 'node:crypto';

/** JSON text of a value with object keys sorted recursively, so equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  return value;
}

/** Hex SHA-256 of the canonical JSON of a parsed request: the ledger's `requestHash`. */
export function hashRequest(parsedRequest: unknown): string {
  return createHash('sha256').update(canonicalJson(parsedRequest)).digest('hex');
}
