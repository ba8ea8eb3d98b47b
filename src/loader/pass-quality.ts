// The quality checks of one pass: which settings it uses (the loader option wins over the manifest's), and near_duplicate across the collection once every entry is in the store.
import { createHash } from 'node:crypto';
import type { ArticleSpec, Manifest } from '../manifest/index.js';
import { checksOff, qualitySummary, type QualitySummary } from '../quality/article-quality.js';
import type { Finding } from '../quality/finding.js';
import { manifestQuality } from '../quality/manifest-quality.js';
import { findSignedNearDuplicates, nearDuplicateFindings } from '../quality/near-duplicates.js';
import type { QualityOptions } from '../quality/quality-options.js';
import type { CollectionScope } from './collection-scope.js';
import type { NearDuplicateInputs } from './pass-context.js';
import type { PassChecks } from './pipeline-pool.js';

/** Where the store's signatures are kept between passes (Astro's meta store, beside the entries): an unchanged entry is not read again. */
const SIGNATURES_KEY = 'quality-signatures';
/** What the near-duplicate findings in the store were decided from (settings and signatures, hashed): unchanged, they are not decided again. */
const DECIDED_KEY = 'quality-near-duplicates-decided';

/** The settings of a pass: the loader option when given (said once when it differs from the manifest's), else the manifest's `quality:`. */
export function passQuality(scope: CollectionScope, manifest: Manifest): QualityOptions {
  const fromManifest = manifestQuality(manifest);
  const given = scope.options.quality;
  if (given === undefined) return fromManifest;
  if (JSON.stringify(given) !== JSON.stringify(fromManifest)) scope.log.qualitySettingsDiffer(manifest.file);
  return given;
}

/** What the pipeline's jobs check, or undefined when every code is off (nothing is run at all). */
export function passChecks(scope: CollectionScope, options: QualityOptions, specs: readonly ArticleSpec[]): PassChecks | undefined {
  if (checksOff(options)) return undefined;
  const site = scope.context.config.site;
  return { options, collection: { paths: specs.map((spec) => scope.url(spec.slug)), ...(site === undefined ? {} : { origins: [site] }) } };
}

/** A store digest with the near-duplicate findings it was given after the pass: the part before `+` is the entry's own. */
export function ownDigest(digest: string | undefined): string | undefined {
  return digest?.split('+')[0];
}

function findingsOf(data: Record<string, unknown>): Finding[] {
  return ((data.quality as QualitySummary | undefined)?.findings ?? []) as Finding[];
}

/**
 * near_duplicate across the finished entries of the store: signatures from this pass's records, else as kept by the last pass;
 * an entry whose near-duplicate findings changed is written again (its digest marked, so the next pass knows its own).
 */
export function applyNearDuplicates(scope: CollectionScope, options: QualityOptions, signatures: ReadonlyMap<string, NearDuplicateInputs | null>): void {
  const { store, meta } = scope.context;
  const kept = parseSignatures(meta.get(SIGNATURES_KEY));
  const finished = [...store.values()].filter((entry) => (entry.data as { status?: unknown }).status === 'finished');
  const known = new Map<string, string>();
  for (const entry of finished) {
    const signature = signatures.has(entry.id) ? signatures.get(entry.id)?.signature : kept[entry.id];
    if (typeof signature === 'string') known.set(entry.id, signature);
  }
  // In slug order, not the order entries finished in: the data store is then the same from one build to the next
  // (Node's compile cache, which `astro` turns on, then skips compiling its data-store module: about a second at 600 articles).
  const signatureList = JSON.stringify(Object.fromEntries([...known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  meta.set(SIGNATURES_KEY, signatureList);
  if (options.codes.near_duplicate === 'off') return;
  // Nothing written this pass, and the same articles, signatures and settings as when the findings in the store were decided:
  // they stand. (A warm build of 1,000 unchanged articles spent 0.7 s here deciding them again.)
  const decided = createHash('sha256').update(JSON.stringify([options.nearDuplicateThreshold, options.codes.near_duplicate, signatureList])).digest('hex');
  if (signatures.size === 0 && meta.get(DECIDED_KEY) === decided) return;
  // An article checked in this pass has its shingles in memory: a candidate pair is measured on them, not on its HTML shingled again.
  const shinglesOf = (id: string) => () => signatures.get(id)?.shingles ?? undefined;
  const articles = finished.map((entry) => ({ slug: entry.id, signature: known.get(entry.id), html: () => entry.rendered?.html ?? '', shingles: shinglesOf(entry.id) }));
  const found = new Map<string, Finding[]>();
  for (const finding of nearDuplicateFindings(findSignedNearDuplicates(articles, options.nearDuplicateThreshold), options)) {
    const mine = found.get(finding.slug);
    if (mine === undefined) found.set(finding.slug, [finding]);
    else mine.push(finding);
  }
  for (const entry of finished) {
    const mine = found.get(entry.id) ?? [];
    const before = findingsOf(entry.data);
    if (JSON.stringify(before.filter((f) => f.code === 'near_duplicate')) === JSON.stringify(mine)) continue;
    const findings = [...before.filter((f) => f.code !== 'near_duplicate'), ...mine];
    const mark = createHash('sha256').update(JSON.stringify(mine)).digest('hex').slice(0, 16);
    store.set({ ...entry, data: { ...entry.data, quality: qualitySummary(findings) }, digest: `${ownDigest(String(entry.digest))}+${mark}` });
  }
  meta.set(DECIDED_KEY, decided);
}

function parseSignatures(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = text === undefined ? {} : JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Every finding of the store's finished entries, by slug, for the log and the build summary. */
export function storeFindings(scope: CollectionScope): Finding[] {
  return [...scope.context.store.values()].flatMap((entry) => findingsOf(entry.data));
}
