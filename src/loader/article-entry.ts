// One article as an Astro store entry: the processed article or a placeholder, its data, rendered HTML and digest.
import type { ArticleRequest } from '../contract/request-schema.js';
import { qualitySummary } from '../quality/article-quality.js';
import type { Finding } from '../quality/finding.js';
import type { ArticleContext, ProcessedArticle } from '../pipeline/index.js';
import type { ArticleSpec } from '../manifest/index.js';
import type { CachedOutput, LockEntry, LockEntryError } from '../sync/index.js';
import type { EntryReviewState } from '../review/review-state.js';
import type { ArticleCover } from '../cover/article-cover.js';
import type { ArticleEntryConfig, ArticleEntryData, ArticleEntryStatus, FullEntryData } from './entry-schema.js';
import type { EntryDataPart } from './option-declarations.js';
import { escapeHtml } from '../lang/escape.js';
import { inItsLanguage, translationFields } from './translation-entry.js';
import { settingsOfLocale, type LocaleSettings } from './locale-links.js';

/** What Astro's store keeps for an entry (a subset of its `DataEntry`). */
export interface StoreEntry {
  id: string;
  data: Record<string, unknown>;
  digest: string;
  rendered: { html: string; metadata: { headings: FullEntryData['headings']; imagePaths: string[] } };
  /** With images handed to astro:assets: the file their import paths are relative to (the manifest), from the site root. */
  filePath?: string;
  /** The images' import paths, which Astro bundles and optimizes. */
  assetImports?: string[];
}

/** The request without the members that name the account's integrations (never shown on a site). */
export function entryConfig(request: ArticleRequest): ArticleEntryConfig {
  const { integrationId: _integration, webhookUrl: _webhook, ...config } = request as ArticleRequest & { integrationId?: unknown; webhookUrl?: unknown };
  return config as ArticleEntryConfig;
}

/** The HTML to process: the polished version when there is one and it is wanted. */
export function chosenHtml(output: CachedOutput, usePolished: boolean): { html: string; polished: boolean } {
  const polished = usePolished && typeof output.polishedHtml === 'string' && output.polishedHtml.trim() !== '';
  return { html: polished ? output.polishedHtml! : output.html, polished };
}

/** The site's own fields of an entry, as the manifest gave them. */
export type EntrySiteFields = Pick<ArticleSpec, 'data' | 'draft' | 'publishDate' | 'translation'>;

/** The owner's data first, then the built-in fields (a clash is refused when the manifest is read), draft and publish date last. */
function withSiteFields(site: EntrySiteFields, data: Omit<FullEntryData, 'draft' | 'publishDate' | 'locale' | 'translationKey' | 'translations' | 'dir'>, parts: readonly EntryDataPart[]): Record<string, unknown> {
  const full: FullEntryData = { ...data, draft: site.draft, publishDate: site.publishDate ?? null, ...translationFields(site.translation) };
  return { ...site.data, ...slimmed(full, parts) };
}

/**
 * What the entry keeps of its full data: what a page renders (issue 42), and the details `entryData` asks for. The
 * others stay reachable through `articleDetails()` (the processed record, the pass's findings and request).
 */
export function slimmed(full: FullEntryData, parts: readonly EntryDataPart[]): Record<string, unknown> {
  const { config, headings, images, links, quality, ...kept } = full;
  const asked = new Set(parts);
  return {
    ...kept,
    links: asked.has('links') ? links : internalHrefs(links),
    quality: entryQuality(quality.findings, parts),
    ...(asked.has('request') ? { config } : {}),
    ...(asked.has('headings') ? { headings } : {}),
    ...(asked.has('images') ? { images } : {}),
  };
}

/** `entry.data.quality`: the counts, and the findings when `entryData` asks for them. */
export function entryQuality(findings: readonly Finding[], parts: readonly EntryDataPart[]): ArticleEntryData['quality'] | FullEntryData['quality'] {
  const summary = qualitySummary(findings);
  return parts.includes('findings') ? summary : { errors: summary.errors, warnings: summary.warnings };
}

/** The hrefs of the internal links, in order, each once: what a listing of related articles reads. */
function internalHrefs(links: FullEntryData['links']): string[] {
  return [...new Set(links.filter((link) => link.internal).map((link) => link.href))];
}

/** What the digest keeps of the site's fields: a change to any of them rewrites the entry. */
export function siteFieldsDigest(site: EntrySiteFields): Record<string, unknown> {
  // Only for a translation: a one-language entry keeps the digest it had.
  return { data: site.data, draft: site.draft, publishDate: site.publishDate?.toISOString() ?? null, ...(site.translation === undefined ? {} : { translation: site.translation }) };
}

/** The body's first image, for `og:image` and JSON-LD. */
export function firstImage(article: ProcessedArticle): ArticleEntryData['image'] {
  const image = article.images[0];
  if (image === undefined) return null;
  return { src: image.src, alt: image.alt, ...(image.width === undefined ? {} : { width: image.width }), ...(image.height === undefined ? {} : { height: image.height }) };
}

/** What a finished article's entry is made from. */
export interface FinishedInput {
  slug: string;
  keyword: string;
  request: ArticleRequest;
  article: ProcessedArticle;
  polished: boolean;
  articleId: string;
  lockEntry: LockEntry | undefined;
  /** The output's `updatedAt` (the service's Unix time in ms). */
  updatedAt: number;
  current: boolean;
  emulator: boolean;
  /** Served from a hand edit (`articles.edits/<slug>.html`). */
  edited: boolean;
  digest: string;
  site: EntrySiteFields;
  /** See `StoreEntry.filePath`; used only when the article has image imports. */
  filePath: string;
  /** The quality checks' findings on this article. */
  findings: readonly Finding[];
  review: EntryReviewState;
  cover: ArticleCover | null;
  /** The loader option `entryData`: the details put back on the entry. */
  parts: readonly EntryDataPart[];
}

/** The entry of a finished article; its cover (cover/article-cover.ts) is made around the processed article by the store writer. */
export function finishedEntry(input: FinishedInput): StoreEntry {
  const { article } = input;
  const data = withSiteFields(input.site, {
    keyword: input.keyword,
    title: article.title,
    slug: input.slug,
    description: article.excerpt,
    articleType: input.request.articleType,
    wordCount: article.wordCount,
    readingTime: article.readingTime,
    headings: article.headings,
    images: article.images,
    links: article.links,
    status: 'finished',
    statusDetail: null,
    progress: 1,
    error: null,
    articleId: input.articleId,
    // The store passes the lock entry only when it dates this article (see sync's `firstCreatedAt`).
    createdAt: input.lockEntry === undefined ? null : new Date(input.lockEntry.firstCreatedAt ?? input.lockEntry.createdAt),
    updatedAt: Number.isFinite(input.updatedAt) && input.updatedAt > 0 ? new Date(input.updatedAt) : null,
    polished: input.polished,
    current: input.current,
    emulator: input.emulator,
    edited: input.edited,
    config: entryConfig(input.request),
    quality: qualitySummary(input.findings),
    image: firstImage(article),
    cover: input.cover,
    faq: article.faq,
    review: { state: input.review },
  }, input.parts);
  return {
    id: input.slug,
    data,
    digest: input.digest,
    rendered: { html: inItsLanguage(article.html, input.site.translation), metadata: { headings: article.headings, imagePaths: article.imageImports } },
    ...(article.imageImports.length === 0 ? {} : { filePath: input.filePath, assetImports: article.imageImports }),
  };
}

/** A stand-in for an article that is not ready: shown by the dev server until the article is. */
export function placeholderEntry(input: {
  slug: string;
  keyword: string;
  request: ArticleRequest;
  status: Exclude<ArticleEntryStatus, 'finished'>;
  statusDetail: string | null;
  progress: number;
  error: LockEntryError | null;
  lockEntry: LockEntry | undefined;
  generateDigest: (data: Record<string, unknown>) => string;
  site: EntrySiteFields;
  review: EntryReviewState;
  parts: readonly EntryDataPart[];
}): StoreEntry {
  const progress = Math.min(1, Math.max(0, input.progress));
  const data = withSiteFields(input.site, {
    keyword: input.keyword,
    title: input.keyword,
    slug: input.slug,
    description: input.status === 'failed' ? `This article could not be written: ${input.error?.message ?? 'unknown error'}` : 'This article is being written.',
    articleType: input.request.articleType,
    wordCount: 0,
    readingTime: 0,
    headings: [],
    images: [],
    links: [],
    status: input.status,
    statusDetail: input.statusDetail,
    progress,
    error: input.error === null ? null : { code: input.error.code, message: input.error.message },
    articleId: input.lockEntry?.articleId ?? null,
    createdAt: input.lockEntry?.createdAt === undefined ? null : new Date(input.lockEntry.createdAt),
    updatedAt: null,
    polished: false,
    current: true,
    emulator: false,
    edited: false,
    config: entryConfig(input.request),
    quality: qualitySummary([]),
    image: null,
    cover: null,
    faq: [],
    review: { state: input.review },
  }, input.parts);
  return {
    id: input.slug,
    data,
    digest: input.generateDigest({ placeholder: 1, ...data, ...siteFieldsDigest(input.site), createdAt: input.lockEntry?.createdAt ?? null }),
    rendered: { html: inItsLanguage(placeholderHtml(input.keyword, input.status, input.statusDetail, progress, input.error), input.site.translation), metadata: { headings: [], imagePaths: [] } },
  };
}

/** Plain markup with no script and no style: the site's own CSS decides how it looks (class `article-placeholder`). */
export function placeholderHtml(keyword: string, status: Exclude<ArticleEntryStatus, 'finished'>, detail: string | null, progress: number, error: LockEntryError | null): string {
  const percent = Math.round(progress * 100);
  if (status === 'failed') {
    return (
      `<div class="article-placeholder" data-status="failed"><p><strong>“${escapeHtml(keyword)}” could not be written.</strong></p>` +
      `<p>${escapeHtml(error?.message ?? 'The article service reported a failure.')}</p></div>`
    );
  }
  const what = status === 'queued' ? 'is queued' : 'is being written';
  return (
    `<div class="article-placeholder" data-status="${status}"><p><strong>“${escapeHtml(keyword)}” ${what}.</strong> ` +
    `${detail === null || detail === '' ? '' : `${escapeHtml(detail)} · `}${percent}%</p>` +
    `<progress max="100" value="${percent}">${percent}%</progress>` +
    '<p>This page updates when the article is finished; reload to see it.</p></div>'
  );
}

/** The pipeline settings every article of a pass shares. */
export type SiteContext = Omit<ArticleContext, 'keyword' | 'slug' | 'url' | 'articleType' | 'imageSize'> & {
  /** With several languages: each locale's link map and service domain (see `locale-links.ts`). */
  byLocale?: LocaleSettings;
};

/** The pipeline context of one article: the site-wide settings plus what is particular to it. */
export function articleContext(site: SiteContext, article: { keyword: string; slug: string; url: string; request: ArticleRequest; locale?: string | undefined }): ArticleContext {
  const { imageSize, multimediaOption } = article.request as { imageSize?: unknown; multimediaOption?: unknown };
  // The size the service generates images at: only a request that asks for images has any (the schema gives every blog
  // post the default 1024x1024; without this test, every image of an article without generated images got it).
  const generated = multimediaOption === 'images' || multimediaOption === 'auto';
  return {
    ...settingsOfLocale(site, article.locale),
    keyword: article.keyword,
    slug: article.slug,
    url: article.url,
    articleType: article.request.articleType,
    ...(typeof imageSize === 'string' && generated ? { imageSize } : {}),
  };
}
