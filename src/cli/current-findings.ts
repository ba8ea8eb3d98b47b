// What `check` reports for a project: each finished article's findings on what the build publishes (its processed record, else the pipeline run now), with near_duplicate across them.
import { z } from 'zod';
import { processArticle } from '../pipeline/index.js';
import { articleQuality, checkedWith, checkedWithSchema, findingSchema, findSignedNearDuplicates, type ArticleQuality, type CollectionPaths, type Finding, type QualityOptions } from '../quality/index.js';
import { findMemo, memoKey, NEAR_DUPLICATES_STORE, type MemoArticle } from '../quality/near-duplicate-memo.js';
import { articlePairFindings, articlePairs } from '../quality/near-duplicates.js';
import { editHash, editsDirFor, listEdits, readEdit, readLockState, type LockEntry, type LockState } from '../sync/index.js';
import type { ProjectFiles } from './project-files.js';

/** Where an article's checked HTML came from: the build's processed record, or the pipeline run now with default settings. */
export type FindingsSource = 'record' | 'pipeline';

export interface CurrentQuality {
  findings: Map<string, Finding[]>;
  sources: Map<string, FindingsSource>;
}

/** The part of a processed record `check` reads (the loader writes it: loader/processed-entries.ts). */
interface RecordView {
  html: string;
  title: string;
  edit: string | null;
  /** The article's own findings, when the record says what they were decided from (`checkedWith`). */
  quality: Required<Omit<ArticleQuality, 'shingles'>> | undefined;
  signature: string | null;
}

function recordView(value: unknown): RecordView | undefined {
  const record = value as { article?: { html?: unknown; title?: unknown }; edit?: unknown; quality?: { signature?: unknown } | null } | null;
  if (typeof record?.article?.html !== 'string' || typeof record.article.title !== 'string') return undefined;
  // A record made before the checks (format 1) has no `edit`: it cannot say which edit it holds.
  if (record.edit !== null && typeof record.edit !== 'string') return undefined;
  const signature = typeof record.quality?.signature === 'string' ? record.quality.signature : null;
  // The findings with what they were decided from; a record written before that was kept has none to offer.
  const kept = z.object({ findings: z.array(findingSchema), checkedWith: checkedWithSchema }).safeParse(record.quality);
  const quality = kept.success ? { ...kept.data, signature } : undefined;
  return { html: record.article.html, title: record.article.title, edit: record.edit, quality, signature };
}

/** An article's HTML as its processed record holds it, read when asked for. */
function recordHtml(state: LockState, slug: string): () => string {
  return () => recordView(state.cache.processed.latestNow(slug)?.value)?.html ?? '';
}

interface FinalHtml {
  html: string;
  title: string;
  signature: string | null;
  /** The record's key, when the HTML is the record's: the near-duplicate memo is keyed on it. */
  key: string | undefined;
  /** The findings the record keeps, with what they were decided from. */
  recorded: RecordView['quality'];
  source: FindingsSource;
}

/** The final HTML the build publishes for one article: the record of its current output and hand edit, else the pipeline run now. */
async function finalHtml(state: LockState, slug: string, entry: LockEntry, edit: string | undefined): Promise<FinalHtml | undefined> {
  const latest = await state.cache.processed.latest(slug);
  const view = latest?.output === entry.output ? recordView(latest?.value) : undefined;
  const edited = edit === undefined ? null : editHash(edit);
  if (view !== undefined && view.edit === edited) return { html: view.html, title: view.title, signature: view.signature, key: latest!.key, recorded: view.quality, source: 'record' };
  const cached = await state.cache.readFor(entry.output!, { lockFile: state.lockFile, slug, articleId: entry.articleId!, keyword: entry.keyword });
  if (cached === undefined) return undefined;
  const polished = typeof cached.polishedHtml === 'string' && cached.polishedHtml.trim() !== '';
  const processed = await processArticle(edit ?? (polished ? cached.polishedHtml! : cached.html), { keyword: entry.keyword, slug });
  return { html: processed.html, title: processed.title, signature: null, key: undefined, recorded: undefined, source: 'pipeline' };
}

/**
 * The collection the links are judged in, by the site's origins: the article paths as the loader's default URL makes
 * them (a site with its own `url` option has its links judged by the build only), and the origins the build judged
 * with, as a record says (`check` cannot read the Astro config's `site`). One value per set of origins, so its
 * paths are hashed once (checked-with.ts).
 */
function collections(slugs: string[]): (origins: readonly string[]) => CollectionPaths {
  const paths = slugs.map((slug) => `/articles/${slug}/`);
  const made = new Map<string, CollectionPaths>();
  return (origins) => {
    const key = JSON.stringify(origins);
    const known = made.get(key);
    if (known !== undefined) return known;
    const collection = origins.length === 0 ? { paths } : { paths, origins };
    made.set(key, collection);
    return collection;
  };
}

/**
 * Each manifest article with a finished output in the cache: its findings with `settings`, on the HTML the build
 * publishes (hand edit included), with near_duplicate across them. Reads the lock file and the cache only: 0 requests.
 */
export async function currentQuality(project: ProjectFiles, settings: QualityOptions): Promise<CurrentQuality> {
  const state = await readLockState(project.lockFile);
  const editsDir = editsDirFor(state.lockFile);
  // Listed once: at 10,000 articles, asking for each article's edit file opened 10,000 files that are not there.
  const edited = new Set(await listEdits(editsDir));
  const specs = project.manifest.specs;
  const collection = collections(specs.map((spec) => spec.slug));
  const findings = new Map<string, Finding[]>();
  const sources = new Map<string, FindingsSource>();
  const signed: { slug: string; signature: string | undefined; html: () => string }[] = [];
  const remembered: MemoArticle[] = [];
  for (const spec of specs) {
    const entry = state.lock.articles[spec.slug];
    if (entry?.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) continue;
    const edit = edited.has(spec.slug) ? (await readEdit(editsDir, spec.slug))?.html : undefined;
    const final = await finalHtml(state, spec.slug, entry, edit);
    if (final === undefined) continue;
    const article = { slug: spec.slug, html: final.html, title: final.title, request: spec.request, collection: collection(final.recorded?.checkedWith.origins ?? []) };
    // The record's own findings stand when they were decided from what the checks would read now: at 10,000 articles, checking them all again took 40 s.
    const quality = final.recorded?.checkedWith.digest === checkedWith(article, settings).digest ? final.recorded : await articleQuality(article, settings);
    findings.set(spec.slug, quality.findings);
    sources.set(spec.slug, final.source);
    // A record's HTML is read again for the few candidate pairs measured exactly: holding every article's HTML took 3.6 GB at 100,000 articles.
    const html = final.source === 'record' ? recordHtml(state, spec.slug) : () => final.html;
    signed.push({ slug: spec.slug, signature: final.signature ?? quality.signature ?? undefined, html });
    remembered.push({ slug: spec.slug, key: final.signature === null ? undefined : final.key?.slice(0, 16) });
  }
  // The pairs the last build decided, when it decided them from these very records (the loader's memo in the committed
  // cache); else measured now, at a cost that grows with the square of a cluster of alike articles (docs/builds.md).
  const decided = memoKey(settings.nearDuplicateThreshold, remembered);
  const memo = decided === undefined ? undefined : await findMemo(state.cache.keyedStore(NEAR_DUPLICATES_STORE), decided);
  const pairs = memo ?? articlePairs(findSignedNearDuplicates(signed, settings.nearDuplicateThreshold));
  for (const finding of articlePairFindings(pairs, settings)) findings.get(finding.slug)?.push(finding);
  return { findings, sources };
}

/** What `check` reports for each article of the manifest that has an output (the review helper's `approve --all-clean` reads it too). */
export async function currentFindings(project: ProjectFiles, settings: QualityOptions): Promise<Map<string, Finding[]>> {
  return (await currentQuality(project, settings)).findings;
}
