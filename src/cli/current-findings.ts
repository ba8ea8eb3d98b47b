// What `check` reports for a project: each finished article's findings on what the build publishes (its processed record, else the pipeline run now), with near_duplicate across them.
import { processArticle } from '../pipeline/index.js';
import { articleQuality, findSignedNearDuplicates, nearDuplicateFindings, type Finding, type QualityOptions } from '../quality/index.js';
import { editHash, editsDirFor, readEdit, readLockState, type LockEntry, type LockState } from '../sync/index.js';
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
  signature: string | null;
}

function recordView(value: unknown): RecordView | undefined {
  const record = value as { article?: { html?: unknown; title?: unknown }; edit?: unknown; quality?: { signature?: unknown } | null } | null;
  if (typeof record?.article?.html !== 'string' || typeof record.article.title !== 'string') return undefined;
  // A record made before the checks (format 1) has no `edit`: it cannot say which edit it holds.
  if (record.edit !== null && typeof record.edit !== 'string') return undefined;
  const signature = record.quality?.signature;
  return { html: record.article.html, title: record.article.title, edit: record.edit, signature: typeof signature === 'string' ? signature : null };
}

/** The final HTML the build publishes for one article: the record of its current output and hand edit, else the pipeline run now. */
async function finalHtml(state: LockState, slug: string, entry: LockEntry, edit: string | undefined): Promise<{ html: string; title: string; signature: string | null; source: FindingsSource } | undefined> {
  const latest = await state.cache.processed.latest(slug);
  const view = latest?.output === entry.output ? recordView(latest?.value) : undefined;
  const edited = edit === undefined ? null : editHash(edit);
  if (view !== undefined && view.edit === edited) return { html: view.html, title: view.title, signature: view.signature, source: 'record' };
  const cached = await state.cache.readFor(entry.output!, { lockFile: state.lockFile, slug, articleId: entry.articleId!, keyword: entry.keyword });
  if (cached === undefined) return undefined;
  const polished = typeof cached.polishedHtml === 'string' && cached.polishedHtml.trim() !== '';
  const processed = await processArticle(edit ?? (polished ? cached.polishedHtml! : cached.html), { keyword: entry.keyword, slug });
  return { html: processed.html, title: processed.title, signature: null, source: 'pipeline' };
}

/**
 * Each manifest article with a finished output in the cache: its findings with `settings`, on the HTML the build
 * publishes (hand edit included), with near_duplicate across them. Reads the lock file and the cache only: 0 requests.
 */
export async function currentQuality(project: ProjectFiles, settings: QualityOptions): Promise<CurrentQuality> {
  const state = await readLockState(project.lockFile);
  const editsDir = editsDirFor(state.lockFile);
  const specs = project.manifest.specs;
  // Article paths as the loader's default URL makes them: a site with its own `url` option has its links judged by the build only.
  const collection = { paths: specs.map((spec) => `/articles/${spec.slug}/`) };
  const findings = new Map<string, Finding[]>();
  const sources = new Map<string, FindingsSource>();
  const signed: { slug: string; signature: string | undefined; html: () => string }[] = [];
  for (const spec of specs) {
    const entry = state.lock.articles[spec.slug];
    if (entry?.status !== 'finished' || entry.output === undefined || entry.articleId === undefined) continue;
    const edit = (await readEdit(editsDir, spec.slug))?.html;
    const final = await finalHtml(state, spec.slug, entry, edit);
    if (final === undefined) continue;
    const quality = await articleQuality({ slug: spec.slug, html: final.html, title: final.title, request: spec.request, collection }, settings);
    findings.set(spec.slug, quality.findings);
    sources.set(spec.slug, final.source);
    signed.push({ slug: spec.slug, signature: final.signature ?? quality.signature ?? undefined, html: () => final.html });
  }
  for (const finding of nearDuplicateFindings(findSignedNearDuplicates(signed, settings.nearDuplicateThreshold), settings)) findings.get(finding.slug)?.push(finding);
  return { findings, sources };
}

/** What `check` reports for each article of the manifest that has an output (the review helper's `approve --all-clean` reads it too). */
export async function currentFindings(project: ProjectFiles, settings: QualityOptions): Promise<Map<string, Finding[]>> {
  return (await currentQuality(project, settings)).findings;
}
