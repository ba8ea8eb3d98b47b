// Removing the API key from anything that came back from the service, in every form a service might echo it in.
import { escapeRegExp } from '../lang/escape.js';

/** Shorter "keys" are not secrets worth mangling every message for (and would be found everywhere). */
const MIN_SECRET_LENGTH = 6;
/** Encoded forms shorter than this could match by chance in ordinary text. */
const MIN_FORM_LENGTH = 8;
export const REDACTED = '[redacted]';

/**
 * The characters of the base64 (or base64url) encoding of `bytes` that depend on `bytes` alone,
 * when they start `offset` bytes (0, 1 or 2) into a longer encoded text: what a key looks like
 * inside the base64 of `Bearer <key>`, `user:<key>`, or a JSON document that holds it.
 */
function base64Core(bytes: Buffer, offset: number, alphabet: 'base64' | 'base64url'): string {
  const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]);
  const encoded = padded.toString(alphabet);
  const first = Math.ceil((8 * offset) / 6);
  const end = Math.floor((8 * (offset + bytes.length)) / 6);
  return encoded.slice(first, end);
}

/** A URL-encoded form, matched whatever the case of its `%XX` hex digits. */
function urlEncodedPattern(secret: string): string | undefined {
  const encoded = encodeURIComponent(secret);
  if (encoded === secret) return undefined;
  return encoded
    .split(/(%[0-9A-F]{2})/)
    .map((part) => (/^%[0-9A-F]{2}$/.test(part) ? `%[${part[1]}${part[1]!.toLowerCase()}][${part[2]}${part[2]!.toLowerCase()}]` : escapeRegExp(part)))
    .join('');
}

/**
 * HTML's named character references for the ASCII punctuation a key may hold (letters and digits have none), from
 * the HTML standard's table (the `character-entities` package): `&lowbar;` is `_`, `&period;` is `.`.
 */
const NAMED_REFERENCES: Readonly<Record<string, readonly string[]>> = {
  '!': ['excl'], '"': ['quot', 'QUOT'], '#': ['num'], $: ['dollar'], '%': ['percnt'], '&': ['amp', 'AMP'], "'": ['apos'], '(': ['lpar'], ')': ['rpar'],
  '*': ['ast', 'midast'], '+': ['plus'], ',': ['comma'], '.': ['period'], '/': ['sol'], ':': ['colon'], ';': ['semi'], '<': ['lt', 'LT'], '=': ['equals'],
  '>': ['gt', 'GT'], '?': ['quest'], '@': ['commat'], '[': ['lsqb', 'lbrack'], '\\': ['bsol'], ']': ['rsqb', 'rbrack'], '^': ['Hat'], _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'], '{': ['lcub', 'lbrace'], '|': ['verbar', 'vert', 'VerticalLine'], '}': ['rcub', 'rbrace'],
};

/** A hexadecimal number matched whatever the case of its digits. */
function caseless(hex: string): string {
  return [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/**
 * The secret with any of its characters written as an HTML character reference (`s&#107;-live`, `&#x73;&#x6B;`,
 * `sk&#45;live`, `a&lowbar;b`; a numeric one with or without its `;`, with leading zeros): the pipeline decodes them,
 * so an article echoing the key that way would show it in plain text on the page.
 */
function characterReferencePattern(secret: string): string {
  return [...secret]
    .map((character) => {
      const code = character.codePointAt(0)!;
      const named = (NAMED_REFERENCES[character] ?? []).map((name) => `&${name};`);
      return `(?:${[escapeRegExp(character), `&#0*${code};?`, `&#[xX]0*${caseless(code.toString(16))};?`, ...named].join('|')})`;
    })
    .join('');
}

/** Every form of the secret to look for: itself, URL-encoded, hex (either case), base64 and base64url at each byte alignment. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret, bytes.toString('hex'), bytes.toString('hex').toUpperCase()]);
  for (const alphabet of ['base64', 'base64url'] as const) for (const offset of [0, 1, 2]) forms.add(base64Core(bytes, offset, alphabet));
  return [...forms].filter((form) => form.length >= MIN_FORM_LENGTH || form === secret);
}

/**
 * A function that replaces every form of `secret` in a text with `[redacted]`, and reports whether
 * it replaced anything. Longest forms first, so a form that contains another is replaced whole.
 */
export function secretRedactor(secret: string): { redact: (text: string) => string; found: (text: string) => boolean } {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return { redact: (text) => text, found: () => false };
  const patterns = secretForms(secret)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const url = urlEncodedPattern(secret);
  if (url !== undefined) patterns.unshift(url);
  // First: a match of it is at least as long as the secret itself.
  patterns.unshift(characterReferencePattern(secret));
  const pattern = new RegExp(patterns.join('|'), 'g');
  const test = new RegExp(pattern.source);
  return { redact: (text) => text.replace(pattern, REDACTED), found: (text) => test.test(text) };
}

/**
 * Bounds of a walk over a value from the service (a status record's `error` or `config`): beyond
 * them a part is replaced by OMITTED, so a hostile answer can neither keep the secret deep inside
 * nor make the walk slow.
 */
const MAX_DEPTH = 8;
const MAX_VALUES = 1_000;
export const OMITTED = '[omitted]';

/** `value` with every string (and property name) redacted, within the walk's bounds. */
export function redactedValue(value: unknown, redact: (text: string) => string): unknown {
  let budget = MAX_VALUES;
  const walk = (part: unknown, depth: number): unknown => {
    budget -= 1;
    if (budget < 0) return OMITTED;
    if (typeof part === 'string') return redact(part);
    if (typeof part !== 'object' || part === null) return part;
    if (depth >= MAX_DEPTH) return OMITTED;
    const entries = Array.isArray(part) ? part.entries() : Object.entries(part);
    const kept: [string | number, unknown][] = [];
    for (const [key, item] of entries) {
      if (budget <= 0) {
        kept.push([Array.isArray(part) ? kept.length : OMITTED, OMITTED]);
        break;
      }
      kept.push([typeof key === 'string' ? redact(key) : key, walk(item, depth + 1)]);
    }
    // fromEntries defines own properties, so a "__proto__" key in the answer stays data.
    return Array.isArray(part) ? kept.map(([, item]) => item) : Object.fromEntries(kept);
  };
  return walk(value, 0);
}
