// Articles into Astro's store: a finished article's entry (unless its digest says the store holds it), its processed record kept or made, and placeholders.
import type { ArticleSpec } from '../manifest/index.js';
import type { EntryReviewState } from '../review/review-state.js';
import { ArticleLoaderError } from '../errors.js';
import { editHash, firstCreatedAt, readEdit, type CachedOutput, type LockEntry, type LockEntryError, type ServedArticle } from '../sync/index.js';
import { articleCover, type ArticleCover } from '../cover/article-cover.js';
import { chosenHtml, finishedEntry, firstImage, placeholderEntry } from './article-entry.js';
import { emptyCounts, type EntryCounts } from './collection-log.js';
import type { CollectionScope } from './collection-scope.js';
import { entryDigest, entryInputs, entryProcessedKey } from './entry-inputs.js';
import type { PassContext } from './pass-context.js';
import { inProcess, type ArticleProcessor } from './pipeline-pool.js';
import type { PlaceholderState } from './placeholder-progress.js';
import { ownDigest } from './findings-book.js';
import { readProcessed, type ProcessedRecord } from './processed-entries.js';
import { entryReview, placeholderReview } from './review-gate.js';

/** A finished article whose entry must be (re)written: its digest, its processed-cache key and the record kept under it. */
export interface PreparedEntry {
  spec: ArticleSpec;
  served: ServedArticle;
  /** The lock entry when it records this article's creation time. */
  lockEntry: LockEntry | undefined;
  url: string;
  /** The hand edit's HTML, when there is one. */
  edit: string | undefined;
  digest: string;
  key: string;
  kept: ProcessedRecord | undefined;
  /** `entry.data.review.state`. */
  review: EntryReviewState;
}

/** What preparing a finished article found: the store already holds its entry, or the entry to write. */
export type Preparation = { kind: 'unchanged' } | { kind: 'prepared'; entry: PreparedEntry };

/** Reads a finished article's output from the cache, when the pipeline must run on it. */
export type OutputReader = () => Promise<CachedOutput | undefined>;

export class StoreWriter {
  readonly #scope: CollectionScope;
  #counts: EntryCounts = emptyCounts();

  constructor(scope: CollectionScope) {
    this.#scope = scope;
  }

  /** What the writes since `resetCounts` did, for a pass's closing lines. */
  get counts(): EntryCounts {
    return this.#counts;
  }

  resetCounts(): void {
    this.#counts = emptyCounts();
  }

  /** The article's digest and processed-cache key, and the kept record when it matches; unchanged when the store already holds the entry. */
  async prepare(spec: ArticleSpec, served: ServedArticle, lockEntry: LockEntry | undefined, pass: PassContext): Promise<Preparation> {
    const { context, progress } = this.#scope;
    progress.forget(spec.slug);
    const url = this.#scope.url(spec.slug);
    const createdAt = firstCreatedAt(lockEntry, served.articleId);
    const edit = pass.edits.has(spec.slug) ? (await readEdit(pass.editsDir, spec.slug))?.html : undefined;
    const review = entryReview(this.#scope, pass, spec.slug, lockEntry, served.output);
    // The panel lists what waits for review, and offers Approve on it.
    this.#scope.tracker.describe(spec.slug, { review });
    const inputs = entryInputs(spec, served, { createdAt, edit, url, pipeline: pass.fingerprint, review, cover: pass.coverFingerprint, entryData: this.#scope.options.entryData });
    const digest = entryDigest(inputs, context.generateDigest);
    // A digest with `+…` carries the near-duplicate findings the pass gave it after: its own part is what the inputs make.
    // The entry's findings are not on it but in the book (findings-book.ts): an entry the book lost is written again.
    if (ownDigest(context.store.get(spec.slug)?.digest) === digest && pass.findings.get(spec.slug, digest) !== undefined) {
      this.#counts.unchanged += 1;
      return { kind: 'unchanged' };
    }
    const key = entryProcessedKey(inputs);
    const kept = await readProcessed(pass.processed, spec.slug, key, pass.downloads);
    return { kind: 'prepared', entry: { spec, served, lockEntry: createdAt === null ? undefined : lockEntry, url, edit, digest, key, kept, review } };
  }

  /** The entry of a prepared article, from its kept record or processed now by `processor` (and kept), into the store. */
  async finish(prepared: PreparedEntry, read: OutputReader, processor: ArticleProcessor | undefined, pass: PassContext): Promise<void> {
    const { spec, served } = prepared;
    const { article, polished, updatedAt, quality } = prepared.kept ?? (await this.#process(prepared, read, processor, pass));
    pass.signatures.set(spec.slug, quality === null ? null : { signature: quality.signature, shingles: quality.shingles ?? null, key: prepared.key });
    if (prepared.kept !== undefined) this.#counts.reused += 1;
    this.#scope.log.articleWarnings(spec.slug, article.warnings);
    const cover = await this.#cover(spec.slug, spec.translation?.locale, article, pass);
    const entry = finishedEntry({
      slug: spec.slug,
      keyword: spec.keyword,
      request: spec.request,
      article,
      polished,
      articleId: served.articleId,
      lockEntry: prepared.lockEntry,
      updatedAt,
      current: served.current,
      emulator: served.emulator === true,
      edited: prepared.edit !== undefined,
      digest: prepared.digest,
      site: spec,
      filePath: pass.entryFile,
      findings: quality?.findings ?? [],
      review: prepared.review,
      cover,
      parts: this.#scope.options.entryData,
    });
    pass.findings.write(spec.slug, prepared.digest, quality?.findings ?? []);
    const { context } = this.#scope;
    const data = await context.parseData({ id: entry.id, data: entry.data });
    context.store.set({ ...entry, data });
  }

  /** One finished article into the store, processed in this thread (the dev server's background wait, one at a time). */
  async serve(spec: ArticleSpec, served: ServedArticle, lockEntry: LockEntry | undefined, read: OutputReader, pass: PassContext): Promise<void> {
    const preparation = await this.prepare(spec, served, lockEntry, pass);
    if (preparation.kind === 'prepared') await this.finish(preparation.entry, read, inProcess(pass.site, pass.checks), pass);
  }

  /** The article's cover: its first image, else its card (counted as drawn or cached, and what it lacks a font for); a card that cannot be drawn is a warning and no cover. */
  async #cover(slug: string, locale: string | undefined, article: ProcessedRecord['article'], pass: PassContext): Promise<ArticleCover | null> {
    try {
      const { cover, drawn, missing } = await articleCover({ slug, title: article.title, image: firstImage(article), locale }, pass.cards);
      if (drawn === true) this.#counts.cardsDrawn += 1;
      if (drawn === false) this.#counts.cardsCached += 1;
      // One warning per font package; the scripts no package sets share one.
      for (const need of missing) {
        const key = need.package ?? '';
        this.#counts.cardsLacking.set(key, { need: this.#counts.cardsLacking.get(key)?.need ?? need, slugs: [...(this.#counts.cardsLacking.get(key)?.slugs ?? []), slug] });
      }
      return cover;
    } catch (error) {
      this.#scope.log.cardFailed(slug, error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  /** Runs the pipeline for an article the processed cache does not have, and keeps the result there. */
  async #process(prepared: PreparedEntry, read: OutputReader, processor: ArticleProcessor | undefined, pass: PassContext): Promise<ProcessedRecord> {
    const { spec, served } = prepared;
    if (processor === undefined) throw new Error(`internal: article "${spec.slug}" needs the pipeline, and was placed before the pass chose where it runs`);
    const output = await read();
    if (output === undefined) {
      throw new ArticleLoaderError('output_unavailable', `the output of article ${served.articleId} is not in the cache; run the build again with the service reachable`);
    }
    const chosen = chosenHtml(output, this.#scope.options.usePolished);
    // A hand edit replaces the service's HTML, and goes through the same sanitizer and pipeline.
    const { html, polished } = prepared.edit === undefined ? chosen : { html: prepared.edit, polished: false };
    const record = await processor.process({
      html,
      article: { keyword: spec.keyword, slug: spec.slug, url: prepared.url, request: spec.request, ...(spec.translation === undefined ? {} : { locale: spec.translation.locale }) },
      keep: { cacheDir: pass.processed.cacheDir, output: served.output, key: prepared.key, polished, updatedAt: output.updatedAt, edit: prepared.edit === undefined ? null : editHash(prepared.edit) },
    });
    this.#counts.rendered += 1;
    return record;
  }

  /** Dev: an article being written, as its placeholder shows it. */
  pending(spec: ArticleSpec, shown: PlaceholderState, lockEntry: LockEntry | undefined): void {
    this.#placeholder(spec, { ...shown, error: null }, lockEntry);
  }

  /** Dev: an article that failed or was never created, with the reason. */
  failed(spec: ArticleSpec, error: LockEntryError, lockEntry: LockEntry | undefined): void {
    this.#scope.progress.forget(spec.slug);
    this.#placeholder(spec, { status: 'failed', statusDetail: null, progress: 0, error }, lockEntry);
  }

  #placeholder(spec: ArticleSpec, shown: { status: 'queued' | 'processing' | 'failed'; statusDetail: string | null; progress: number; error: LockEntryError | null }, lockEntry: LockEntry | undefined): void {
    const { context } = this.#scope;
    const entry = placeholderEntry({ slug: spec.slug, keyword: spec.keyword, request: spec.request, ...shown, lockEntry, generateDigest: context.generateDigest, site: spec, review: placeholderReview(this.#scope), parts: this.#scope.options.entryData });
    // Not through parseData: a placeholder is our own shape, and a user schema may demand fields only finished articles have.
    if (context.store.set({ id: entry.id, data: entry.data, digest: entry.digest, rendered: entry.rendered })) this.#counts.placeholders += 1;
  }
}
