// What one finished article's entry is made from, as one value: the store digest and the processed record's key both come from it.
import { PACKAGE_VERSION } from '../lang/package-version.js';
import type { ArticleSpec } from '../manifest/index.js';
import type { EntryReviewState } from '../review/review-state.js';
import type { ServedArticle } from '../sync/index.js';
import { entryConfig, siteFieldsDigest } from './article-entry.js';
import type { ArticleEntryConfig } from './entry-schema.js';
import { processedKey } from './processed-entries.js';

/**
 * Everything an entry is made from, in two parts: what the pipeline reads (the processed record's key is made of
 * that part alone, so a record is reused across changes the pipeline never sees), and what the entry adds around
 * the processed article. The digest covers both: a change to any input rewrites the entry.
 */
export interface EntryInputs {
  processing: {
    /** This package's version. */
    version: string;
    /** The output hash in the cache (`sha256:…`), which fixes the service's HTML. */
    output: string;
    /** The hand edit's HTML when there is one: it is processed instead of the output. */
    edit: string | null;
    /** The pass's pipeline settings and link map, hashed once (see `pipelineSettings`). */
    pipeline: string;
    /** The manifest's keyword (the digest has it through `config`, whose `targetKeyword` it is). */
    keyword: string;
    url: string;
    /** The request, less the members that name the account's integrations. */
    config: ArticleEntryConfig;
  };
  entry: {
    articleId: string;
    current: boolean;
    emulator: boolean;
    /** The lock entry's creation time when the lock entry is this article's, else null. */
    createdAt: string | null;
    /** The site's own fields (`data`, `draft`, `publishDate`). */
    site: Record<string, unknown>;
    /** The review gate's state (`entry.data.review`): an approval rewrites the entry, never the processed record. */
    review: EntryReviewState;
    /** The pass's cover card settings (`PassContext.coverFingerprint`): the card is made around the processed article. */
    cover: string;
    /** The loader option `entryData`, sorted: asking for a detail puts it on every entry. */
    entryData: string[];
  };
}

/** The inputs of an article served from `served`, its hand edit (if any) and the pass's pipeline fingerprint. */
export function entryInputs(spec: ArticleSpec, served: ServedArticle, parts: { createdAt: string | null; edit: string | undefined; url: string; pipeline: string; review: EntryReviewState; cover: string; entryData: readonly string[] }): EntryInputs {
  return {
    processing: { version: PACKAGE_VERSION, output: served.output, edit: parts.edit ?? null, pipeline: parts.pipeline, keyword: spec.keyword, url: parts.url, config: entryConfig(spec.request) },
    entry: { articleId: served.articleId, current: served.current, emulator: served.emulator === true, createdAt: parts.createdAt, site: siteFieldsDigest(spec), review: parts.review, cover: parts.cover, entryData: [...new Set(parts.entryData)].sort() },
  };
}

/** The store digest: equal inputs, the entry is left as it is. */
export function entryDigest(inputs: EntryInputs, generateDigest: (data: Record<string, unknown>) => string): string {
  const { processing: p, entry: e } = inputs;
  // These names in this order are what every stored digest was made from: another order would rewrite every entry once.
  return generateDigest({
    edit: p.edit,
    version: p.version,
    output: p.output,
    articleId: e.articleId,
    current: e.current,
    emulator: e.emulator,
    createdAt: e.createdAt,
    config: p.config,
    url: p.url,
    pipeline: p.pipeline,
    site: e.site,
    // Only with the gate on: with it off every digest stays what it was before the gate existed.
    ...(e.review === 'not-required' ? {} : { review: e.review }),
    // Added with entry.data.cover: every entry stored before it is written once more, with its cover.
    cover: e.cover,
    // Added with the slim entry (issue 42): every entry stored before it is written once more, slim.
    entryData: e.entryData,
  });
}

/** The processed record's key: equal processing inputs, the record kept in the cache is what the pipeline would make. */
export function entryProcessedKey(inputs: EntryInputs): string {
  const { version, output, edit, pipeline, keyword, url, config } = inputs.processing;
  // The shape every committed record's key was made from: another shape would make every record a miss once.
  return processedKey({ version, output, edit, pipeline, article: { keyword, url, config } });
}
