// Processed articles kept in the committed cache: the key that says a record still holds what the pipeline would make,
// and the shape a record must have to be used. A build with a cold Astro data store (CI, a fresh clone) takes each
// unchanged article from here instead of running the pipeline again.
import { hash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProcessedArticle } from '../pipeline/index.js';
import { checkedWithSchema } from '../quality/checked-with.js';
import { findingSchema, type Finding } from '../quality/finding.js';
import type { ArticleQuality } from '../quality/article-quality.js';
import { isPlainObject } from '../lang/plain-object.js';
import { editHash, type ProcessedStore } from '../sync/index.js';

/** Bumped when the record's shape or meaning changes: every record made before is then a miss. */
// 2: the record keeps the article's quality findings and near-duplicate signature.
const RECORD_FORMAT = 2;

/** What the pipeline made of one article, plus what its entry needs from the output (so a hit reads no output). */
export interface ProcessedRecord {
  article: ProcessedArticle;
  polished: boolean;
  updatedAt: number;
  /** The sha256 (hex) of the hand edit processed, null for the service's HTML: `check` tells a record of the current edit from an older one. */
  edit: string | null;
  /** The quality checks' findings with the pass's settings (they are part of the key), the near-duplicate signature (the shingles are not written); null when every code is off. */
  quality: ArticleQuality | null;
}

const headingSchema = z.object({ depth: z.number(), slug: z.string(), text: z.string() });
const imageSchema = z.object({ src: z.string(), alt: z.string(), width: z.number().optional(), height: z.number().optional(), originalSrc: z.string().optional() });
const imagesSchema = z.array(imageSchema);
const stringsSchema = z.array(z.string());
const linkSchema = z.object({ href: z.string(), text: z.string(), internal: z.boolean(), source: z.enum(['article', 'local', 'service']) });
const recordSchema = z.object({
  article: z.object({
    html: z.string(),
    title: z.string(),
    headings: z.array(headingSchema),
    images: imagesSchema,
    links: z.array(linkSchema),
    wordCount: z.number(),
    readingTime: z.number(),
    excerpt: z.string(),
    faq: z.array(z.object({ question: z.string(), answer: z.string() })),
    imageImports: stringsSchema,
    warnings: stringsSchema,
  }),
  polished: z.boolean(),
  updatedAt: z.number(),
  edit: z.string().nullable(),
  quality: z.object({ findings: z.array(findingSchema), signature: z.string().nullable(), checkedWith: checkedWithSchema.optional() }).nullable(),
});

/**
 * A record found under the key it was looked up by: written by this version (the key holds the version) from these very
 * inputs, so the items of its long lists (headings, links, FAQ, findings) are not checked one by one, only its shape down to
 * them (a damaged file fails gzip's CRC first); its images and short lists of text are checked item by item, by the schema.
 * Checked here rather than by a schema of that shape, whose copy of every record was 59 MB of garbage at 10,000 articles,
 * checked in 49–109 ms against 30–54 ms here (every check in it is one of `recordSchema`'s: the tests hold the two to the
 * same answers). What it returns has only the record's own members, as the schema's copy had. A record of any key (`check`,
 * `articleDetails()`) is checked whole, by `recordSchema`.
 */
function keyedRecord(value: unknown): ProcessedRecord | undefined {
  if (!isPlainObject(value) || typeof value.polished !== 'boolean' || !isNumber(value.updatedAt) || !(value.edit === null || typeof value.edit === 'string')) return undefined;
  const article = keyedArticle(value.article);
  const quality = keyedQuality(value.quality);
  if (article === undefined || quality === undefined) return undefined;
  return { article, polished: value.polished, updatedAt: value.updatedAt, edit: value.edit, quality };
}

function keyedArticle(value: unknown): ProcessedArticle | undefined {
  if (!isPlainObject(value)) return undefined;
  const { html, title, headings, images, links, wordCount, readingTime, excerpt, faq, imageImports, warnings } = value;
  if (typeof html !== 'string' || typeof title !== 'string' || typeof excerpt !== 'string' || !isNumber(wordCount) || !isNumber(readingTime)) return undefined;
  if (!Array.isArray(headings) || !Array.isArray(links) || !Array.isArray(faq)) return undefined;
  // The images stay checked whole: whether their downloads are still there is read from them (most articles have none or a few).
  const checkedImages = imagesSchema.safeParse(images);
  if (!checkedImages.success || !stringsSchema.safeParse(imageImports).success || !stringsSchema.safeParse(warnings).success) return undefined;
  return { html, title, headings, images: checkedImages.data, links, wordCount, readingTime, excerpt, faq, imageImports, warnings } as ProcessedArticle;
}

/** The record's quality (null when every code was off); undefined when it is not of that shape. */
function keyedQuality(value: unknown): ArticleQuality | null | undefined {
  if (value === null) return null;
  if (!isPlainObject(value) || !Array.isArray(value.findings) || !(value.signature === null || typeof value.signature === 'string')) return undefined;
  if (value.checkedWith === undefined) return { findings: value.findings as Finding[], signature: value.signature };
  const checkedWith = checkedWithSchema.safeParse(value.checkedWith);
  return checkedWith.success ? { findings: value.findings as Finding[], signature: value.signature, checkedWith: checkedWith.data } : undefined;
}

/** As the schema's `z.number()`: finite. */
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Where a record keeps the article's HTML, its one long text: a read-ahead carries it apart from the rest (processed-store.ts, `readAhead`). */
export const RECORD_TEXT = ['article', 'html'] as const;

/** Everything the pipeline's result depends on. Equal parts, equal key; any part changed, a miss. */
export interface ProcessedKeyParts {
  /** This package's version: a new release may process differently. */
  version: string;
  /** The output hash in the cache (`sha256:…`), which fixes the service's HTML. */
  output: string;
  /** The hand edit's HTML when there is one: it is processed instead of the output. */
  edit: string | null;
  /** The pipeline settings and link map of the pass (the entry digest's `pipeline` fingerprint). */
  pipeline: string;
  /** What is particular to the article: keyword, slug, URL, request. */
  article: Record<string, unknown>;
}

/** The key of these parts; the loader makes the parts from an entry's inputs (`entryProcessedKey` in entry-inputs.ts). */
export function processedKey(parts: ProcessedKeyParts): string {
  const edit = parts.edit === null ? null : editHash(parts.edit);
  const text = JSON.stringify({ format: RECORD_FORMAT, ...parts, edit });
  return hash('sha256', text, 'hex');
}

/** Where downloaded images live: a record is only used while every image it downloaded is still on disk. */
export interface DownloadedImages {
  dir: string;
  publicPath: string;
}

/** The record of `slug` under `key`, when it is sound and the images it downloaded are all still there. */
export async function readProcessed(store: ProcessedStore, slug: string, key: string, downloads: DownloadedImages | undefined): Promise<ProcessedRecord | undefined> {
  const value = await store.get(slug, key);
  if (value === undefined) return undefined;
  const record = keyedRecord(value);
  if (record === undefined) return undefined;
  return (await downloadsPresent(record.article, downloads)) ? record : undefined;
}

/** A stored value as a record, when it has a record's shape. */
export function parseRecord(value: unknown): ProcessedRecord | undefined {
  const parsed = recordSchema.safeParse(value);
  return parsed.success ? (parsed.data as ProcessedRecord) : undefined;
}

export function writeProcessed(store: ProcessedStore, slug: string, output: string, key: string, record: ProcessedRecord): Promise<void> {
  // The shingles stay with the pass that made them: written, they would double the record.
  const quality = record.quality === null ? null : { findings: record.quality.findings, signature: record.quality.signature, checkedWith: record.quality.checkedWith };
  return store.set(slug, { output, key, value: { ...record, quality } });
}

/** A downloaded (or handed to astro:assets) image deleted or never committed since: process again, which downloads it again. */
async function downloadsPresent(article: ProcessedArticle, downloads: DownloadedImages | undefined): Promise<boolean> {
  if (downloads === undefined) return article.images.every((image) => image.originalSrc === undefined);
  const prefix = `${downloads.publicPath.replace(/\/+$/, '')}/`;
  for (const image of article.images) {
    if (!image.src.startsWith(prefix)) {
      if (image.originalSrc !== undefined) return false;
      continue;
    }
    try {
      await stat(join(downloads.dir, image.src.slice(prefix.length)));
    } catch {
      return false;
    }
  }
  return true;
}
