// Processed articles kept in the committed cache: the key that says a record still holds what the pipeline would make,
// and the shape a record must have to be used. A build with a cold Astro data store (CI, a fresh clone) takes each
// unchanged article from here instead of running the pipeline again.
import { hash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ProcessedArticle } from '../pipeline/index.js';
import { checkedWithSchema } from '../quality/checked-with.js';
import { findingSchema } from '../quality/finding.js';
import type { ArticleQuality } from '../quality/article-quality.js';
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
const linkSchema = z.object({ href: z.string(), text: z.string(), internal: z.boolean(), source: z.enum(['article', 'local', 'service']) });
const recordSchema = z.object({
  article: z.object({
    html: z.string(),
    title: z.string(),
    headings: z.array(headingSchema),
    images: z.array(imageSchema),
    links: z.array(linkSchema),
    wordCount: z.number(),
    readingTime: z.number(),
    excerpt: z.string(),
    faq: z.array(z.object({ question: z.string(), answer: z.string() })),
    imageImports: z.array(z.string()),
    warnings: z.array(z.string()),
  }),
  polished: z.boolean(),
  updatedAt: z.number(),
  edit: z.string().nullable(),
  quality: z.object({ findings: z.array(findingSchema), signature: z.string().nullable(), checkedWith: checkedWithSchema.optional() }).nullable(),
});

/**
 * A record found under the key it was looked up by: written by this version (the key holds the version) from these very
 * inputs, so the items of its long lists (headings, links, FAQ, findings) are not checked one by one, only its shape down to
 * them (a damaged file fails gzip's CRC first). Checking each heading, link and finding made a copy of each: 5.4 KB a
 * record, about 0.25 s of a 10,000-article cold-store load(). A record of any key (`check`, `articleDetails()`) is
 * checked whole.
 */
const anyItems = z.array(z.unknown());
const keyedRecordSchema = recordSchema.extend({
  // The images stay checked whole: whether their downloads are still there is read from them (most articles have none or a few).
  article: recordSchema.shape.article.extend({ headings: anyItems, links: anyItems, faq: anyItems }),
  quality: recordSchema.shape.quality.unwrap().extend({ findings: anyItems }).nullable(),
});

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
  const parsed = keyedRecordSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const record = parsed.data as ProcessedRecord;
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
