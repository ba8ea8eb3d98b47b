// A translated article's alternates: the absolute URL of each of its translations (itself included) and x-default, by Astro's i18n routing, for hreflang links and sitemaps.
import { ArticleLoaderError } from '../errors.js';
import { escapeHtml } from '../lang/escape.js';

/** What `articleAlternates` reads of an entry: `entry` from `getEntry()` / `getCollection()`. */
export interface AlternatesEntry {
  id: string;
  data: {
    /** The entry's BCP 47 locale (`de`, `pt-BR`); null for an article of a site without `languages`. */
    locale: string | null;
    /** locale → entry id of each translation in the group, this entry's own included. */
    translations: Readonly<Record<string, string>>;
    /** The id shared by the group (the base entry's slug). */
    translationKey?: string | null;
  };
}

/** Astro's `i18n.locales`: codes, or `{ path, codes }` for a locale served under a path of its own. */
export type AstroLocales = readonly (string | { readonly path: string; readonly codes: readonly string[] })[];

/** Astro's i18n settings: the `i18n` of astro.config (or of `astro:config/client`), or the same with `prefixDefaultLocale` at the top. */
export interface AlternatesI18n {
  locales: AstroLocales;
  defaultLocale: string;
  /** Top-level shorthand for `routing.prefixDefaultLocale`. Default false, as in Astro. */
  prefixDefaultLocale?: boolean;
  routing?: 'manual' | { prefixDefaultLocale?: boolean };
}

/** One translation as `path` sees it. */
export interface AlternatePage {
  /** The translation's entry id, e.g. `de/pour-over-kaffee`. */
  id: string;
  /** Its locale, e.g. `de`. */
  locale: string;
  /** Its id without the leading locale segment, e.g. `pour-over-kaffee`. */
  slug: string;
  /** The group's `translationKey` (the base entry's slug), or null when the entry has none. */
  key: string | null;
}

export interface AlternatesOptions {
  /** The site's origin (`Astro.site`), to make URLs absolute. */
  site: URL | string;
  /** Astro's `base` (`import.meta.env.BASE_URL`), put before every path. Default `/`. */
  base?: string;
  /** Astro's i18n config. Without it, every locale is a path prefix, written as the entry's locale. */
  i18n?: AlternatesI18n;
  /** A page's path after the locale prefix. Default: `` `${slug}/` ``. */
  path?: (page: AlternatePage) => string;
  /**
   * Whether the translation with this entry id has a page. `translations` lists every language of the
   * manifest entry, drafts and failed articles included: given the ids of the collection a build renders,
   * those are left out (this entry never is). Default: every translation has one.
   */
  hasPage?: (id: string) => boolean;
}

/** One `<link rel="alternate">`: a BCP 47 `hreflang` (or `x-default`) and an absolute `href`. */
export interface ArticleAlternate {
  hreflang: string;
  href: string;
}

/** A translation that Astro's i18n config cannot route; the message names the entry, the locale and what to do. */
export class AlternatesError extends ArticleLoaderError {
  constructor(message: string) {
    super('alternate_locale_not_routed', message);
  }
}

const normalized = (code: string) => code.replaceAll('_', '-').toLowerCase();

/** The Astro locale item serving `locale` (case and `_`/`-` ignored, as Astro normalizes a code for a URL), as its path and whether it is the default. */
function routeOf(locale: string, i18n: AlternatesI18n, entryId: string): { prefix: string; isDefault: boolean } {
  const wanted = normalized(locale);
  for (const item of i18n.locales) {
    const codes = typeof item === 'string' ? [item] : item.codes;
    if (!codes.some((code) => normalized(code) === wanted)) continue;
    const path = typeof item === 'string' ? item : item.path;
    const isDefault = [path, ...codes].some((name) => normalized(name) === normalized(i18n.defaultLocale));
    return { prefix: normalized(path), isDefault };
  }
  const known = i18n.locales.map((item) => (typeof item === 'string' ? item : `${item.path} (${item.codes.join(', ')})`)).join(', ');
  throw new AlternatesError(
    `articleAlternates: entry "${entryId}" has a translation in locale "${locale}", which Astro's i18n.locales (${known}) does not list. ` +
      `Add "${locale}" to i18n.locales in astro.config, or remove its language from the entry's \`languages\` in the manifest.`,
  );
}

function prefixesDefault(i18n: AlternatesI18n): boolean {
  if (i18n.prefixDefaultLocale !== undefined) return i18n.prefixDefaultLocale;
  return typeof i18n.routing === 'object' && i18n.routing.prefixDefaultLocale === true;
}

/** The id without its leading locale segment (compared ignoring case and `_`/`-`). */
function slugOf(id: string, locale: string): string {
  const slash = id.indexOf('/');
  return slash > 0 && normalized(id.slice(0, slash)) === normalized(locale) ? id.slice(slash + 1) : id;
}

function joinPath(...parts: string[]): string {
  const inner = parts.map((part) => part.replace(/^\/+|\/+$/g, '')).filter((part) => part !== '');
  const last = parts.at(-1) ?? '';
  return `/${inner.join('/')}${inner.length > 0 && last.endsWith('/') ? '/' : ''}`;
}

/**
 * The alternates of a translated article's page: one `{ hreflang, href }` per translation (this
 * entry's own included; with `hasPage`, only those with a page), in the order of
 * `entry.data.translations`, then `x-default` — the translation in Astro's `defaultLocale`, else
 * this entry. URLs follow Astro's i18n routing: a
 * locale's path prefix (its `path` for a `{ path, codes }` locale), left out for `defaultLocale`
 * unless `prefixDefaultLocale`; then `path(page)`. An entry without a locale has none: `[]`.
 */
export function articleAlternates(entry: AlternatesEntry, options: AlternatesOptions): ArticleAlternate[] {
  const { locale, translations } = entry.data;
  if (locale === null || locale === undefined) return [];
  const site = new URL(String(options.site));
  const pathOf = options.path ?? ((page: AlternatePage) => `${page.slug}/`);
  const key = entry.data.translationKey ?? null;
  const isSelf = (code: string) => normalized(code) === normalized(locale);
  const group = Object.entries(translations).filter(([code, id]) => isSelf(code) || (options.hasPage?.(id) ?? true));
  if (!group.some(([code]) => isSelf(code))) group.push([locale, entry.id]);
  let fallback: string | undefined;
  const alternates = group.map(([code, id]): ArticleAlternate => {
    const route = options.i18n === undefined ? { prefix: code, isDefault: false } : routeOf(code, options.i18n, entry.id);
    const prefixed = options.i18n === undefined || !route.isDefault || prefixesDefault(options.i18n);
    const path = joinPath(options.base ?? '/', prefixed ? route.prefix : '', pathOf({ id, locale: code, slug: slugOf(id, code), key }));
    const href = new URL(path, site).href;
    if (route.isDefault) fallback = href;
    return { hreflang: code, href };
  });
  const self = alternates.find((alternate) => isSelf(alternate.hreflang))!;
  return [...alternates, { hreflang: 'x-default', href: fallback ?? self.href }];
}

/**
 * The alternates as `<link rel="alternate" hreflang="…" href="…">` tags, escaped, one string each:
 * for a page's `<head>` with `<Fragment set:html={alternateLinkTags(alternates).join('')} />`.
 */
export function alternateLinkTags(alternates: readonly ArticleAlternate[]): string[] {
  return alternates.map(({ hreflang, href }) => `<link rel="alternate" hreflang="${escapeHtml(hreflang)}" href="${escapeHtml(href)}">`);
}
