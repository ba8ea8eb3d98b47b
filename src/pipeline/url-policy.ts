// URL rules shared by the plugins: scheme normalisation and allow-list, the site's origins, internal vs external, identity.

import { rule } from './option-check.js';

/** Schemes allowed per URL attribute; anything else is dropped. Relative URLs are always allowed. */
export const ALLOWED_SCHEMES = {
  href: ['http', 'https', 'mailto'],
  src: ['http', 'https'],
  cite: ['http', 'https'],
} as const satisfies Record<string, readonly string[]>;

// What the WHATWG URL parser ignores: leading/trailing C0 controls and spaces, and tabs/newlines anywhere.
const EDGE_JUNK = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Bring a URL attribute into the form a browser would act on, with a lower-case scheme, so that a
 * case-sensitive allow-list (hast-util-sanitize's) sees what the browser sees:
 * `" JaVa\tScRiPt:x"` becomes `"javascript:x"` (then dropped), `"HTTPS://x"` becomes `"https://x"` (kept).
 */
export function normalizeUrl(value: string): string {
  let url = value.replace(EDGE_JUNK, '');
  if (url.includes('\t') || url.includes('\n') || url.includes('\r')) url = url.replace(TAB_OR_NEWLINE, '');
  const match = SCHEME.exec(url);
  if (match && match[1] !== match[1]!.toLowerCase()) url = match[1]!.toLowerCase() + url.slice(match[1]!.length);
  return url;
}

/**
 * The scheme of a normalised URL, or undefined when it is relative. Mirrors hast-util-sanitize:
 * a colon after the first `/`, `?` or `#` is not a scheme separator.
 */
export function schemeOf(url: string): string | undefined {
  const colon = url.indexOf(':');
  if (colon < 0) return undefined;
  for (const stop of ['/', '?', '#']) {
    const index = url.indexOf(stop);
    if (index > -1 && colon > index) return undefined;
  }
  return url.slice(0, colon);
}

export function isAllowedUrl(url: string, schemes: readonly string[]): boolean {
  const scheme = schemeOf(url);
  return scheme === undefined || schemes.includes(scheme);
}

/** The site: its origin(s), as URLs or strings such as `'https://example.com'`. */
export type SiteOption = string | URL | readonly (string | URL)[];

/** The origin of an absolute http(s) URL, or undefined for anything else. */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof URL)) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The rule of a `site` option: every entry an absolute http(s) URL. */
export const siteSchema = rule<SiteOption>((value) =>
  (Array.isArray(value) ? value : [value]).every((site) => originOf(site) !== undefined)
    ? undefined
    : 'must be an absolute http(s) URL such as "https://example.com", or a list of them',
);

/** The origins links to which are internal: the site's, plus any others given (already checked). */
export function siteOrigins(site: SiteOption | undefined, ...others: (string | URL | undefined)[]): ReadonlySet<string> {
  const sites = site === undefined ? [] : Array.isArray(site) ? site : [site as string | URL];
  const origins = new Set<string>();
  for (const value of [...sites, ...others]) {
    const origin = originOf(value);
    if (origin !== undefined) origins.add(origin);
  }
  return origins;
}

/**
 * Whether an href points into the site: relative (including `#fragment` and `?query`), or absolute
 * on one of the site's origins. `mailto:` and other sites are not internal.
 */
export function isInternalHref(href: string, internalOrigins: ReadonlySet<string>): boolean {
  const scheme = schemeOf(href);
  if (scheme === undefined && !href.startsWith('//')) return true;
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return false;
  if (internalOrigins.size === 0) return false;
  try {
    return internalOrigins.has(new URL(href, 'https://relative.invalid').origin);
  } catch {
    return false;
  }
}

/** Whether an href leads to another website: absolute or protocol-relative http(s), not internal. */
export function isExternalHref(href: string, internalOrigins: ReadonlySet<string>): boolean {
  const scheme = schemeOf(href);
  const web = scheme === 'http' || scheme === 'https' || (scheme === undefined && href.startsWith('//'));
  return web && !isInternalHref(href, internalOrigins);
}

const LOCAL_BASE = 'https://local.invalid';
// Plain absolute and root-relative URLs, which most links are: keyed without the cost of a URL parse.
const PLAIN_ABSOLUTE = /^(https?):\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(\/[^?#]*)?(\?[^#]*)?(?:#.*)?$/i;
const PLAIN_RELATIVE = /^(\/(?!\/)[^?#]*)(\?[^#]*)?(?:#.*)?$/;
// Anything a URL parser would rewrite in the path: dot segments, escapes, backslashes, non-ASCII, spaces.
const PATH_NEEDS_PARSER = /\.\.|\/\.(?:\/|$)|%|\\|[^\x21-\x7e]/;

/**
 * A comparison key for "the same page": the URL without its fragment and trailing slash, with
 * internal origins folded away so `/a/` and `https://site/a` are the same page.
 */
export function pageKey(href: string, internalOrigins: ReadonlySet<string>): string {
  const absolute = PLAIN_ABSOLUTE.exec(href);
  const relative = absolute ? null : PLAIN_RELATIVE.exec(href);
  const path = absolute ? (absolute[3] ?? '/') : relative?.[1];
  if (path !== undefined && !PATH_NEEDS_PARSER.test(path)) {
    const search = (absolute ? absolute[4] : relative![2]) ?? '';
    const trimmed = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
    let origin = '';
    if (absolute) {
      origin = `${absolute[1]!.toLowerCase()}://${absolute[2]!.toLowerCase()}`;
      if (internalOrigins.has(origin)) origin = '';
    }
    return origin + trimmed + (search === '?' ? '' : search);
  }
  try {
    const url = new URL(href, LOCAL_BASE);
    url.hash = '';
    const origin = internalOrigins.has(url.origin) || url.origin === LOCAL_BASE ? '' : url.origin;
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') || '/' : url.pathname;
    return origin + pathname + url.search;
  } catch {
    return href;
  }
}
