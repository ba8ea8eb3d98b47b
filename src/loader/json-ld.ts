// schema.org data for an article page: an `Article`, and a `FAQPage` when the article has a FAQ. Built from the entry's data, for a <script type="application/ld+json">.
import { articleAlternates, type AlternatesOptions } from './article-alternates.js';
import type { ArticleEntryData } from './entry-schema.js';

/** What `articleJsonLd` reads of an entry: `entry` from `getEntry()` / `getCollection()`, or just its data. */
export interface JsonLdEntry {
  id?: string;
  data: Pick<ArticleEntryData, 'title' | 'description' | 'wordCount' | 'keyword' | 'createdAt' | 'updatedAt' | 'publishDate' | 'image' | 'faq'> & Partial<Pick<ArticleEntryData, 'cover'>> & {
    /** A translated article's locale and its translations (locale → entry id); absent or null on a site without `languages`. */
    locale?: string | null;
    translations?: Readonly<Record<string, string>>;
    translationKey?: string | null;
  };
}

export interface JsonLdOptions {
  /** The site's origin (`Astro.site`), to make URLs absolute. */
  site: URL | string;
  /** The page's URL or path (`Astro.url`); without it, `/<entry id>/` under `site`. */
  url?: URL | string;
  /** Who publishes it: a name, or a schema.org `Organization` / `Person` object. */
  publisher?: string | Record<string, unknown>;
  /** For a translated article: how its translations' URLs are made, as for `articleAlternates`. */
  i18n?: AlternatesOptions['i18n'];
  base?: AlternatesOptions['base'];
  path?: AlternatesOptions['path'];
  hasPage?: AlternatesOptions['hasPage'];
}

type JsonLd = Record<string, unknown>;

function absolute(value: string, site: URL): string {
  try {
    return new URL(value, site).href;
  } catch {
    return value;
  }
}

function isoDate(value: Date | string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The `image`: the cover (the first image, else the generated card), else the first image for data made before covers. */
function imageOf(data: JsonLdEntry['data'], site: URL): JsonLd | undefined {
  const image = data.cover ?? data.image;
  if (image === null || image === undefined) return undefined;
  const width = image.width ?? undefined;
  const height = image.height ?? undefined;
  return { '@type': 'ImageObject', url: absolute(image.src, site), ...(width === undefined ? {} : { width }), ...(height === undefined ? {} : { height }) };
}

function publisherOf(publisher: JsonLdOptions['publisher']): JsonLd | undefined {
  if (publisher === undefined) return undefined;
  return typeof publisher === 'string' ? { '@type': 'Organization', name: publisher } : { '@type': 'Organization', ...publisher };
}

/**
 * A translated article's language and the URLs of its other translations (absent for an entry
 * without a locale, so its JSON-LD is what it was before languages). Written per language from one
 * keyword list, no article is the source of another, so each names the others as `workTranslation`
 * (never `translationOfWork`), each by its URL as `@id`, which its own `Article` carries too.
 */
function languageOf(entry: JsonLdEntry, options: JsonLdOptions): { locale: string; self: string; translations: string[] } | undefined {
  const { locale, translations = {}, translationKey = null } = entry.data;
  if (locale === undefined || locale === null) return undefined;
  const alternates = articleAlternates({ id: entry.id ?? '', data: { locale, translations, translationKey } }, options).slice(0, -1);
  const isSelf = (hreflang: string) => hreflang.toLowerCase() === locale.toLowerCase();
  const self = alternates.find((alternate) => isSelf(alternate.hreflang))!.href;
  return { locale, self, translations: alternates.filter((alternate) => !isSelf(alternate.hreflang)).map(({ href }) => href) };
}

/**
 * The JSON-LD for an article page: a schema.org `Article` (headline, description, wordCount,
 * datePublished and dateModified when known, url, image (the cover), publisher; for a translated article also
 * `@id`, `inLanguage` and `workTranslation`), followed by a `FAQPage` when the article has a FAQ. Returns an array: serialize it into one
 * `<script type="application/ld+json">`, escaping `<` (see "SEO data" in docs/running-a-site.md).
 */
export function articleJsonLd(entry: JsonLdEntry, options: JsonLdOptions): JsonLd[] {
  const site = new URL(String(options.site));
  const { data } = entry;
  const language = languageOf(entry, options);
  const url = absolute(String(options.url ?? language?.self ?? `/${entry.id ?? ''}/`), site);
  const published = isoDate(data.publishDate) ?? isoDate(data.createdAt);
  const modified = isoDate(data.updatedAt);
  const publisher = publisherOf(options.publisher);
  const image = imageOf(data, site);
  const article: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: data.title,
    description: data.description,
    keywords: data.keyword,
    wordCount: data.wordCount,
    url,
    mainEntityOfPage: url,
    ...(language === undefined ? {} : { '@id': url, inLanguage: language.locale }),
    ...(language === undefined || language.translations.length === 0 ? {} : { workTranslation: language.translations.map((href) => ({ '@id': href })) }),
    ...(published === undefined ? {} : { datePublished: published }),
    ...(modified === undefined ? {} : { dateModified: modified }),
    ...(image === undefined ? {} : { image }),
    ...(publisher === undefined ? {} : { publisher }),
  };
  if (data.faq.length === 0) return [article];
  const faqPage: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    url,
    mainEntity: data.faq.map(({ question, answer }) => ({ '@type': 'Question', name: question, acceptedAnswer: { '@type': 'Answer', text: answer } })),
  };
  return [article, faqPage];
}

/** The JSON-LD as the text of a `<script type="application/ld+json">`: `<` escaped, so no text in it can close the script. */
export function jsonLdScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
