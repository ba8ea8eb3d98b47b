// Links stay within a language: one local link map per locale (an entry without languages links only to others without), and the service's domain per locale.
import type { ArticleSpec } from '../manifest/index.js';
import type { ArticleContext } from '../pipeline/index.js';
import { buildLinkMap, type BuildLinkMapOptions, type LinkMap } from '../pipeline/link-map.js';

/** What differs per locale in an article's pipeline settings; keyed by locale, `''` for the entries without languages. */
export type LocaleSettings = Record<string, Pick<ArticleContext, 'links' | 'serviceLinks'>>;

/** The locale key of a spec: its locale, or `''` without languages. */
export function localeKey(spec: Pick<ArticleSpec, 'translation'>): string {
  return spec.translation?.locale ?? '';
}

/**
 * The site's link map, and with several languages one per locale: an article links only to the articles of its own
 * locale, so a German article never links an English one. The user's own `links` go into every map.
 * Without any translation, the one map it always was (and `byLocale` undefined), so a one-language site is unchanged.
 */
export function localeLinkMaps(specs: readonly ArticleSpec[], url: (slug: string) => string, links: BuildLinkMapOptions['links']): { links: LinkMap; byLocale?: Record<string, LinkMap> } {
  const own = links === undefined ? {} : { links };
  const article = (spec: ArticleSpec) => ({ slug: spec.slug, keyword: spec.keyword });
  if (!specs.some((spec) => spec.translation !== undefined)) return { links: buildLinkMap({ articles: specs.map(article), url, ...own }) };
  const groups = new Map<string, ArticleSpec[]>([['', []]]);
  for (const spec of specs) {
    const group = groups.get(localeKey(spec));
    if (group === undefined) groups.set(localeKey(spec), [spec]);
    else group.push(spec);
  }
  const byLocale = Object.fromEntries([...groups].map(([locale, group]) => [locale, buildLinkMap({ articles: group.map(article), url, ...own })]));
  return { links: byLocale['']!, byLocale };
}

/** The pipeline settings of an article of `locale`: the shared ones, with its locale's link map and service domain. */
export function settingsOfLocale<S extends { links?: LinkMap | undefined; serviceLinks?: ArticleContext['serviceLinks'] }>(site: S & { byLocale?: LocaleSettings | undefined }, locale: string | undefined): S {
  const { byLocale, ...shared } = site;
  const own = byLocale?.[locale ?? ''];
  return { ...shared, ...(own?.links === undefined ? {} : { links: own.links }), ...(own?.serviceLinks === undefined ? {} : { serviceLinks: own.serviceLinks }) } as S;
}
