// Canonical JSON: keys sorted at every level, so equal requests have one text and one hash (the lock file's request hash, the emulator's ledger and its writer's seed).
import { hash } from 'node:crypto';

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
  return sortedValue(value, path === '' ? [] : [path]);
}

/**
 * `value` sorted, `at` being where it is: keys and indexes, pushed and popped on the way down, and made into a path only
 * for an error. A path string for every member cost more than the sorting (two requests an article in a build).
 */
function sortedValue(value: unknown, at: (string | number)[]): CanonicalValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) {
    const items: CanonicalValue[] = [];
    for (let index = 0; index < value.length; index += 1) items.push(member(value[index], index, at));
    return items;
  }
  if (typeof value !== 'object' || value === null || !hasPlainPrototype(value)) throw new CanonicalJsonError(pathOf(at), describe(value));
  const sorted: { [key: string]: CanonicalValue } = {};
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner !== undefined) sorted[key] = member(inner, key, at);
  }
  return sorted;
}

function member(value: unknown, where: string | number, at: (string | number)[]): CanonicalValue {
  at.push(where);
  const sorted = sortedValue(value, at);
  at.pop();
  return sorted;
}

/** `maxImages`, `outline[2].title`; empty for the value itself. */
function pathOf(at: readonly (string | number)[]): string {
  let path = '';
  for (const part of at) path = typeof part === 'number' ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`;
  return path;
}

/**
 * The canonical JSON text of a value: `JSON.stringify(canonicalValue(value))`, written as it is walked rather than through a
 * sorted copy (the copies were 10 KB of garbage a request, hashed once an article in every pass). Members come in the order
 * the sorted copy holds them: array-index keys (`"0"`, `"10"`) first, by number, as every JavaScript object orders them; then
 * the others, sorted.
 */
export function canonicalJson(value: unknown, options: { omit?: readonly string[] } = {}): string {
  return textOf(value, [], options.omit);
}

/** `omit`: members of `value` itself (not of the values inside it) left out, as if they were undefined. */
function textOf(value: unknown, at: (string | number)[], omit?: readonly string[]): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length <= MAX_QUOTED_LENGTH ? quoted(value) : JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // A finite number's JSON is its shortest text, as String writes it (-0 as 0 too).
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) text += `${index === 0 ? '' : ','}${memberText(value[index], index, at)}`;
    return `${text}]`;
  }
  if (typeof value !== 'object' || !hasPlainPrototype(value)) throw new CanonicalJsonError(pathOf(at), describe(value));
  let text = '{';
  for (const key of keysInOrder(value)) {
    const inner = (value as Record<string, unknown>)[key];
    // `__proto__` never reached the sorted copy's text: assigning it set the copy's prototype.
    if (inner !== undefined && key !== '__proto__' && omit?.includes(key) !== true) text += `${text === '{' ? '' : ','}${quoted(key)}:${memberText(inner, key, at)}`;
  }
  return `${text}}`;
}

/**
 * Short texts quoted so far: a request's keys, and most of its values (`"default"`, `"blog_post"`), are the same few dozen in
 * every request; quoting them was a third of hashing 10,000 requests.
 */
const QUOTED = new Map<string, string>();
/** At most this many, each at most MAX_QUOTED_LENGTH letters: an owner's own keywords and keys may be many. */
const MAX_QUOTED = 4096;
const MAX_QUOTED_LENGTH = 40;

/** `JSON.stringify(text)`, from the map once quoted. */
function quoted(text: string): string {
  let json = QUOTED.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    if (QUOTED.size < MAX_QUOTED) QUOTED.set(text, json);
  }
  return json;
}

function memberText(value: unknown, where: string | number, at: (string | number)[]): string {
  at.push(where);
  const text = textOf(value, at);
  at.pop();
  return text;
}

/** An array index as an object key: an object lists these first, in numeric order, whatever order they were added in. */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

function isArrayIndex(key: string): boolean {
  // A key that does not start with a digit is none: most keys, told apart without the expression.
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;
}

function keysInOrder(value: object): string[] {
  const keys = Object.keys(value).sort();
  if (!keys.some(isArrayIndex)) return keys;
  return [...keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((key) => !isArrayIndex(key))];
}

/** Hex SHA-256 of a value's canonical JSON (`omit`: as `canonicalJson`'s). */
export function canonicalJsonHash(value: unknown, options: { omit?: readonly string[] } = {}): string {
  return hash('sha256', canonicalJson(value, options), 'hex');
}
