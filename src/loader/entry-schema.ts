// The schema of an article entry's `data`, built with Astro's own zod so Astro infers the entry types from it.
import { z } from 'astro/zod';
import { ARTICLE_TYPES } from '../contract/article-types.js';
import type { ArticleRequest } from '../contract/request-schema.js';
import type { BuiltInEntryField } from '../manifest/built-in-entry-fields.js';
import { QUALITY_CODES, SEVERITIES } from '../quality/finding.js';
import { ENTRY_REVIEW_STATES } from '../review/review-state.js';
import type { EntryDataPart } from './option-declarations.js';

/**
 * - `finished`: the article, processed.
 * - `queued` / `processing`: still being written (dev server only): a placeholder with `progress`.
 * - `failed`: could not be served (dev server only; a build leaves it out or fails, see `onFailure`).
 */
export const ENTRY_STATUSES = ['finished', 'queued', 'processing', 'failed'] as const;
export type ArticleEntryStatus = (typeof ENTRY_STATUSES)[number];

/** The request sent for the article, without the members that could identify your account's integrations. */
export type ArticleEntryConfig = Omit<ArticleRequest, 'integrationId' | 'webhookUrl'>;

const headingsSchema = z.array(z.object({ depth: z.number(), slug: z.string(), text: z.string() }));
const imagesSchema = z.array(
  z.object({
    src: z.string(),
    alt: z.string(),
    width: z.number().optional(),
    height: z.number().optional(),
    originalSrc: z.string().optional(),
  }),
);
const linksSchema = z.array(
  z.object({
    href: z.string(),
    text: z.string(),
    internal: z.boolean(),
    source: z.enum(['article', 'local', 'service']),
  }),
);
const findingsSchema = z.array(z.object({ slug: z.string(), code: z.enum(QUALITY_CODES), severity: z.enum(SEVERITIES), message: z.string() }));

// Only APIs zod 3 and zod 4 share: Astro 5 ships zod 3 as `astro/zod`, Astro 6 and 7 ship zod 4.
// What a page renders, and nothing else (issue 42): the details a page seldom reads are on the entry only when the
// loader option `entryData` asks for them (`ENTRY_DETAIL_FIELDS`), and always through `articleDetails()`.
const slimEntryShape = {
  /** The target keyword, as written in the manifest. */
  keyword: z.string(),
  /** The article's `<h1>` (or `<title>`); the keyword while it is being written. */
  title: z.string(),
  /** The entry id: safe as a URL segment. */
  slug: z.string(),
  /** About 160 characters of plain text from the first paragraph, for `<meta name="description">` and cards. */
  description: z.string(),
  articleType: z.enum(ARTICLE_TYPES),
  wordCount: z.number(),
  /** Minutes, rounded up. */
  readingTime: z.number(),
  /** The hrefs of the body's internal links (to articles, your `links` and the service's), in order, each once. */
  links: z.array(z.string()),
  status: z.enum(ENTRY_STATUSES),
  /** The service's description of the current step while being written (`"Writing section 3 of 7"`), else null. */
  statusDetail: z.string().nullable(),
  /** 0 to 1; 1 when finished. */
  progress: z.number(),
  /** Why the article is not served (status `failed`), else null. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  articleId: z.string().nullable(),
  /** When the article was created at the service (from the lock file). */
  createdAt: z.coerce.date().nullable(),
  /** When the service last changed the article. */
  updatedAt: z.coerce.date().nullable(),
  /** Whether the service's polished HTML was used. */
  polished: z.boolean(),
  /** False while the earlier article is served because a changed request is being written. */
  current: z.boolean(),
  /** Written by the embedded emulator (offline mode): placeholder text, not a real article. */
  emulator: z.boolean(),
  /** Served from a hand edit (`articles.edits/<slug>.html`, see the CLI's `edit`) instead of the service's HTML. */
  edited: z.boolean(),
  /**
   * How many of the quality checks' findings on the article's final HTML (hand edit included) are errors and warnings
   * (see docs/quality.md); 0 for a placeholder. The findings themselves: `entryData: ['findings']` or `articleDetails()`.
   */
  quality: z.object({ errors: z.number(), warnings: z.number() }),
  /** `draft: true` in the manifest: shown by the dev server, left out of a build unless the loader option `drafts` is on. */
  draft: z.boolean(),
  /** `publishDate` in the manifest, else null. A later date leaves the article out of a build, as a draft is. */
  publishDate: z.coerce.date().nullable(),
  /** The first image of the body (for `og:image`), else null. */
  image: z.object({ src: z.string(), alt: z.string(), width: z.number().optional(), height: z.number().optional() }).nullable(),
  /**
   * The article's cover, for `og:image`, JSON-LD and listings: its first image (`generated: false`), else a generated
   * 1200×630 PNG card with its title and the site's name (`generated: true`, see the loader option `coverCard`);
   * null when the article has no image and the card is off or its font lacks a letter of the title, and for a placeholder.
   */
  cover: z.object({ src: z.string(), alt: z.string(), width: z.number().nullable(), height: z.number().nullable(), generated: z.boolean() }).nullable(),
  /** The question/answer pairs of the article's FAQ section (answers as plain text); empty when it has none. */
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  /**
   * The review gate (loader option or manifest `review`): `approved`, `edited` (a hand edit is served) or `waiting`
   * (a build leaves it out; the dev server shows it, for a page to mark "needs review"); `not-required` when it is off.
   */
  review: z.object({ state: z.enum(ENTRY_REVIEW_STATES) }),
  /** The article's BCP 47 locale (`de`, `pt-BR`) when its manifest entry has `languages`, else null (docs/languages.md). */
  locale: z.string().nullable(),
  /** Shared by every language of one manifest entry (the first language's slug), else null. */
  translationKey: z.string().nullable(),
  /** Locale → entry id of each language of the entry, this one included; {} without `languages`. */
  translations: z.record(z.string(), z.string()),
  /** `rtl` for right-to-left languages (Arabic, Hebrew, Persian, Urdu, …), `ltr` for the others, null without `languages`. */
  dir: z.enum(['ltr', 'rtl']).nullable(),
  // `satisfies`: a name in the manifest's list of built-in fields (which a `data:` field may not take) that neither this
  // shape nor a detail below writes, or one written that the list lacks, fails to compile.
} satisfies Record<Exclude<BuiltInEntryField, DetailOnlyField>, unknown>;

/** The built-in fields only a detail writes. */
type DetailOnlyField = 'config' | 'headings' | 'images';

/** What the loader option `entryData` can put back on an entry, each the fields it adds (or widens) there. */
export const ENTRY_DETAIL_FIELDS = {
  /** `quality.findings`: each finding, beside the counts. */
  findings: {
    quality: z.object({ findings: findingsSchema, errors: z.number(), warnings: z.number() }),
  },
  /** `config`: the request, defaults applied, without `integrationId` and `webhookUrl`. */
  request: {
    config: z.custom<ArticleEntryConfig>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
  },
  /** `headings`: the body's headings (Astro's MarkdownHeading shape), which `render(entry)` returns too. */
  headings: { headings: headingsSchema },
  /** `images`: every image of the body, with its original address when it was downloaded. */
  images: { images: imagesSchema },
  /** `links`: every link of the body as `{ href, text, internal, source }`, external ones included, instead of the internal hrefs. */
  links: { links: linksSchema },
} satisfies Record<EntryDataPart, Partial<Record<BuiltInEntryField, unknown>>> & Record<'request', { config: unknown }> & Record<'headings', { headings: unknown }> & Record<'images', { images: unknown }>;

/** The fields the parts `P` add, as a zod shape (`{}` for none). */
export type EntryDetailShape<P extends EntryDataPart> = [P] extends [never] ? {} : UnionToIntersection<(typeof ENTRY_DETAIL_FIELDS)[P]>;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

const slimEntrySchema = z.object(slimEntryShape);

/** The entry's data: the slim built-in fields, and beside them the manifest's own `data:` fields (checked and typed by the loader option `dataSchema` when given). */
export const articleEntrySchema = slimEntrySchema.catchall(z.unknown());

/** The entry schema with the details `parts` asks for (`entryData`). */
export function entrySchemaWith(parts: readonly EntryDataPart[]): typeof articleEntrySchema {
  const shape = Object.assign({}, ...parts.map((part) => ENTRY_DETAIL_FIELDS[part])) as z.ZodRawShape;
  return parts.length === 0 ? articleEntrySchema : (articleEntrySchema.extend(shape) as unknown as typeof articleEntrySchema);
}

/** The built-in fields of an entry's data, as the slim default writes them. */
export type ArticleEntryData = z.infer<typeof slimEntrySchema>;

/** An entry's data with every detail `entryData` can add (what the loader makes before it leaves out the ones not asked for). */
export type FullEntryData = Omit<ArticleEntryData, 'quality' | 'links'> & {
  quality: z.infer<typeof ENTRY_DETAIL_FIELDS.findings.quality>;
  config: ArticleEntryConfig;
  headings: z.infer<typeof headingsSchema>;
  images: z.infer<typeof imagesSchema>;
  links: z.infer<typeof linksSchema>;
};
