// Where each article's page is, under Astro's i18n routing: English (the defaultLocale) without a prefix, German under /de/.
import type { AlternatePage, ArticleAlternate } from 'astro-article-loader';

/** The site's languages as Astro's i18n config lists them, with the name the language switcher shows. */
export const LANGUAGE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch' };
export const DEFAULT_LOCALE = 'en';

/** An article's locale: an entry of a one-language manifest entry (no `languages`) is English. */
export function localeOf(entry: { data: { locale?: string | null } }): string {
  return entry.data.locale ?? DEFAULT_LOCALE;
}

/** The id without its locale segment: `de/mahlgrad` → `mahlgrad`; an id without one is kept. */
export function slugOf(id: string): string {
  const [first, ...rest] = id.split('/');
  return rest.length > 0 && first! in LANGUAGE_NAMES ? rest.join('/') : id;
}

/** The page of the article with this id: `/articles/<slug>/`, or `/de/articles/<slug>/` for a German one. */
export function articleHref(id: string): string {
  const [first] = id.split('/');
  const prefix = id.includes('/') && first !== DEFAULT_LOCALE && first! in LANGUAGE_NAMES ? `/${first}` : '';
  return `${prefix}/articles/${slugOf(id)}/`;
}

/** For articleAlternates() and articleJsonLd(): the path after the locale prefix, as articleHref makes it. */
export const alternatePath = ({ slug }: AlternatePage) => `articles/${slug}/`;

/** The home pages' alternates: each language's home, English the x-default. */
export function homeAlternates(site: URL): ArticleAlternate[] {
  const homes = Object.keys(LANGUAGE_NAMES).map((locale) => ({ hreflang: locale, href: new URL(locale === DEFAULT_LOCALE ? '/' : `/${locale}/`, site).href }));
  return [...homes, { hreflang: 'x-default', href: new URL('/', site).href }];
}
