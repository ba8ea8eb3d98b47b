// The quality checks of one pass: which settings it uses (the loader option wins over the manifest's), near_duplicate across the collection once every entry is in the store, and the pass's findings.
import { createHash, hash } from 'node:crypto';
import type { LoaderContext } from 'astro/loaders';
import type { ArticleSpec, Manifest } from '../manifest/index.js';
import { checksOff } from '../quality/article-quality.js';
import type { CountedFindings, Finding } from '../quality/finding.js';
import { manifestQuality } from '../quality/manifest-quality.js';
import { articlePairFindings, articlePairs, findSignedNearDuplicates, type ArticlePairs } from '../quality/near-duplicates.js';
import type { QualityOptions } from '../quality/quality-options.js';
import type { KeyedStore } from '../sync/index.js';
import { entryQuality } from './article-entry.js';
import type { CollectionScope } from './collection-scope.js';
import { ownDigest, type FindingsBook } from './findings-book.js';
import { memoKey, readMemo, writeMemo } from '../quality/near-duplicate-memo.js';
import type { NearDuplicateInputs } from './pass-context.js';
import type { PassChecks } from './quality-thread.js';

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

/** What the last pass kept of each finished entry: its signature and its record key's first 16 hex digits (`[signature, key]`). */
type KeptInputs = Record<string, [string, string]>;

/**
 * near_duplicate across the finished entries of the store: signatures from this pass's records, else as kept by the last pass;
 * an entry whose near-duplicate findings changed has them in the book, and is written again when that changed what it holds
 * (its digest marked, so the next pass knows its own).
 */
export async function applyNearDuplicates(scope: CollectionScope, options: QualityOptions, signatures: ReadonlyMap<string, NearDuplicateInputs | null>, memo: KeyedStore, book: FindingsBook): Promise<void> {
  const { store, meta } = scope.context;
  // In slug order, not the order entries finished in: the data store is then the same from one build to the next
  // (Node's compile cache, which `astro` turns on, then skips compiling its data-store module: about a second at 600 articles).
  const finished = [...store.values()].filter((entry) => (entry.data as { status?: unknown }).status === 'finished').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Nothing written this pass, and the same articles, kept inputs and settings as when the findings in the store were decided:
  // they stand, and what was kept stays as it is. (A warm build of 1,000 unchanged articles spent 0.7 s deciding them again.)
  // Hashed part by part: the kept text (5.6 MB at 10,000 articles) inside one JSON array was escaped and copied whole first.
  const decidedFrom = (keptText: string) =>
    createHash('sha256')
      .update(JSON.stringify([options.nearDuplicateThreshold, options.codes.near_duplicate]))
      .update('\u0000')
      .update(keptText)
      .update('\u0000')
      .update(JSON.stringify(finished.map((entry) => entry.id)))
      .digest('hex');
  if (signatures.size === 0 && options.codes.near_duplicate !== 'off' && meta.get(DECIDED_KEY) === decidedFrom(meta.get(SIGNATURES_KEY) ?? '')) return;
  const kept = parseKept(meta.get(SIGNATURES_KEY));
  const known: KeptInputs = {};
  for (const entry of finished) {
    const inputs = signatures.get(entry.id);
    const mine = signatures.has(entry.id) ? (inputs?.signature == null ? undefined : ([inputs.signature, inputs.key.slice(0, 16)] as [string, string])) : kept[entry.id];
    if (mine !== undefined) known[entry.id] = mine;
  }
  const keptText = JSON.stringify(known);
  meta.set(SIGNATURES_KEY, keptText);
  if (options.codes.near_duplicate === 'off') return;
  const decided = decidedFrom(keptText);
  // Each article's findings made from its own pairs, as its list: made as one list for all, each was pushed again into its article's.
  const found = new Map<string, Finding[]>();
  for (const article of await decidedPairs(scope, options, { finished, known, signatures, memo })) {
    const findings = articlePairFindings([article], options);
    const mine = found.get(article.slug);
    if (mine === undefined) found.set(article.slug, findings);
    else mine.push(...findings);
  }
  for (const entry of finished) {
    const mine = found.get(entry.id) ?? [];
    // The entry's findings are in the book (findings-book.ts), not on the entry, which has their counts (and them only with `entryData: ['findings']`).
    const { others, nearDuplicates } = splitFindings(book.ofEntry(entry));
    if (sameFindings(nearDuplicates, mine)) continue;
    book.setNearDuplicates(entry.id, mine);
    const quality = entryQuality([...others, ...mine], scope.options.entryData);
    const digest = `${ownDigest(entry.digest)}+${dataMark(quality, mine)}`;
    // The same counts on a slim entry: its data is what it was, and only the book's findings changed.
    if (digest !== entry.digest) store.set({ ...entry, data: { ...entry.data, quality }, digest });
  }
  meta.set(DECIDED_KEY, decided);
}

/** An entry's findings: its near-duplicate ones (the pass's to decide), and the others (its record's), each in their order. */
function splitFindings(findings: readonly Finding[]): { others: Finding[]; nearDuplicates: Finding[] } {
  const others: Finding[] = [];
  const nearDuplicates: Finding[] = [];
  for (const finding of findings) (finding.code === 'near_duplicate' ? nearDuplicates : others).push(finding);
  return { others, nearDuplicates };
}

/** The same findings, in the same order (a near-duplicate finding is told by its severity and message: its slug and code are the entry's). */
function sameFindings(a: readonly Finding[], b: readonly Finding[]): boolean {
  return a.length === b.length && a.every((finding, i) => finding.severity === b[i]!.severity && finding.message === b[i]!.message);
}

/**
 * The mark a digest carries for what the near-duplicate pass put on an entry's data: changed data, a changed digest. A slim
 * entry has only the counts (the findings are in the book), so they are the mark; with `entryData: ['findings']` the findings
 * are on the entry, and hashed. (Hashing the 48,811 messages of the bench's 10,000-article site, 10.7 MB, took 32-37 ms of a cold load().)
 */
function dataMark(quality: ReturnType<typeof entryQuality>, nearDuplicates: readonly Finding[]): string {
  if (!('findings' in quality)) return `${quality.errors}.${quality.warnings}`;
  let text = '';
  for (const finding of nearDuplicates) text += `${finding.severity}\u0000${finding.message}\u0001`;
  return hash('sha256', text, 'hex').slice(0, 16);
}

interface Collection {
  finished: ReturnType<LoaderContext['store']['values']>;
  known: KeptInputs;
  signatures: ReadonlyMap<string, NearDuplicateInputs | null>;
  memo: KeyedStore;
}

/**
 * The collection's pairs: as the committed cache keeps them when its articles and threshold are those they were decided
 * from (a cold store of an unchanged site), else measured, and kept.
 */
async function decidedPairs(scope: CollectionScope, options: QualityOptions, { finished, known, signatures, memo }: Collection): Promise<ArticlePairs[]> {
  const collection = scope.context.collection;
  const key = memoKey(options.nearDuplicateThreshold, finished.map((entry) => ({ slug: entry.id, key: known[entry.id]?.[1] })));
  const remembered = key === undefined ? undefined : await readMemo(memo, collection, key);
  if (remembered !== undefined) return remembered;
  // An article checked in this pass has its shingles in memory: a candidate pair is measured on them, not on its HTML shingled again.
  const shinglesOf = (id: string) => () => signatures.get(id)?.shingles ?? undefined;
  const articles = finished.map((entry) => ({ slug: entry.id, signature: known[entry.id]?.[0], html: () => entry.rendered?.html ?? '', shingles: shinglesOf(entry.id) }));
  const pairs = articlePairs(findSignedNearDuplicates(articles, options.nearDuplicateThreshold));
  if (key !== undefined) await writeMemo(memo, collection, key, pairs);
  return pairs;
}

function parseKept(text: string | undefined): KeptInputs {
  try {
    const value: unknown = text === undefined ? {} : JSON.parse(text);
    if (value === null || typeof value !== 'object') return {};
    // A store written before record keys were kept has bare signatures: those entries are read as unknown.
    return Object.fromEntries(Object.entries(value).filter((pair): pair is [string, [string, string]] => Array.isArray(pair[1]) && pair[1].length === 2 && pair[1].every((part: unknown) => typeof part === 'string')));
  } catch {
    return {};
  }
}

/**
 * Every finding of the store's entries, from the findings book (not the entries), for the log, the build summary and the panel:
 * counted once here (the log and the summary each counted them over again: 30 ms at 76,000 findings).
 */
export function passFindings(scope: CollectionScope, book: FindingsBook): CountedFindings {
  const counted: CountedFindings = { all: [], errors: [], articles: 0 };
  for (const entry of scope.context.store.values()) {
    const findings = book.ofEntry(entry);
    if (findings.length > 0) counted.articles += 1;
    for (const finding of findings) {
      counted.all.push(finding);
      if (finding.severity === 'error') counted.errors.push(finding);
    }
  }
  return counted;
}
