// Canonical JSON: keys sorted at every level, so equal requests have one text and one hash (the lock file's request hash, the emulator's ledger and its writer's seed).
import { createHash } from 'node:crypto';

/** A JSON value with object keys in sorted order. */
export type CanonicalValue = null | boolean | number | string | CanonicalValue[] | { [key: string]: CanonicalValue };

/**
 * A value JSON cannot hold exactly: NaN, ±Infinity, a BigInt, a function, a date, `undefined` in a
 * list. `JSON.stringify` would write `null` or `{}` for it (or leave it out), so two different
 * requests could share a hash, or a request could change without its hash changing. A parsed
 * request never holds one (the request schema refuses them first), so this is a fault of ours, not
 * the owner's: a plain Error with a code, and the contract imports nothing of ours.
 */
export class CanonicalJsonError extends Error {
  readonly code = 'not_canonical_json';
  /** Where the value is: `maxImages`, `outline[2].title`; empty for the value itself. */
  readonly path: string;

  constructor(path: string, what: string) {
    super(`${path === '' ? 'the value' : path} is ${what}, which JSON cannot hold exactly; a request holds only text, finite numbers, true/false, null, lists and mappings`);
    this.name = 'CanonicalJsonError';
    this.path = path;
  }
}

function hasPlainPrototype(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name ?? 'non-plain object'}`;
  return `a ${typeof value}`;
}

/**
 * The value with object keys sorted at every level. A member that is `undefined` is left out (as an
 * optional parameter not given); anything JSON cannot hold exactly throws a CanonicalJsonError.
 */
export function canonicalValue(value: unknown, path = ''): CanonicalValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item, index) => canonicalValue(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null || !hasPlainPrototype(value)) throw new CanonicalJsonError(path, describe(value));
  const sorted: { [key: string]: CanonicalValue } = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) sorted[key] = canonicalValue(member, path === '' ? key : `${path}.${key}`);
  }
  return sorted;
}

/** The canonical JSON text of a value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalValue(value));
}

/** Hex SHA-256 of a value's canonical JSON. */
export function canonicalJsonHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
