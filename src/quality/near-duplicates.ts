// near_duplicate: articles of one collection so alike that they compete, found with MinHash over word shingles and LSH banding.
import { forEachWord, htmlToText } from '../contract/word-count.js';
import { capped, MAX_FINDINGS_PER_CODE } from './check-context.js';
import type { Finding } from './finding.js';
import type { QualityOptions } from './quality-options.js';

/** Words per shingle: long enough that shared stock phrases ("in the long run") do not make articles alike. */
export const SHINGLE_WORDS = 5;
/** MinHash signature length: the estimate's error is about 1/√96 ≈ 0.1 before the exact check. */
const SIGNATURE_LENGTH = 96;
/** LSH must propose a pair at the threshold with at least this probability. */
const RECALL_AT_THRESHOLD = 0.995;
/** A candidate pair at the threshold is left unmeasured (its signatures agree too little) with at most this probability. */
const MISS_BY_ESTIMATE = 1e-6;

export interface ArticleText {
  slug: string;
  /** The article's final HTML (its visible text is compared). */
  html: string;
}

export interface NearDuplicatePair {
  /** The later article of the pair, in the order given. */
  slug: string;
  /** The earlier one. */
  otherSlug: string;
  /** Jaccard similarity of the two articles' sets of 5-word shingles, 0–1. */
  similarity: number;
  /** True when `similarity` is the signatures' estimate (about ±0.05), not measured: see `certainAgreement`. */
  estimated?: boolean;
  /** True when the later article was proposed with only a window of a large bucket (BUCKET_WINDOW): it may have more pairs than were found. */
  windowed?: boolean;
}

/** FNV-1a of `text.slice(start, end).toLowerCase()`; an ASCII word is lowered here, without making the two strings. */
function wordHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0x80) return fnv1a(text.slice(start, end).toLowerCase());
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash >>> 0;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A 32-bit mix (murmur3's finaliser): turns one shingle hash into the i-th independent-looking hash. */
function mix(value: number): number {
  let h = value;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const SEEDS = Uint32Array.from({ length: SIGNATURE_LENGTH }, (_, i) => mix(0x9e3779b9 + i * 0x7f4a7c15));

/** The sorted, distinct hashes of the text's word shingles (a text shorter than one shingle is one shingle). */
export function shinglesOf(text: string): Uint32Array {
  const words: number[] = [];
  forEachWord(text, (start, end) => words.push(wordHash(text, start, end)));
  if (words.length === 0) return new Uint32Array(0);
  const count = Math.max(1, words.length - SHINGLE_WORDS + 1);
  const hashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let hash = 0;
    for (let j = i; j < Math.min(words.length, i + SHINGLE_WORDS); j++) hash = mix(Math.imul(hash, 31) + words[j]!);
    hashes[i] = hash;
  }
  // Sorted, then each value once: a typed array is several times faster than a Set of numbers this size.
  hashes.sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[distinct++] = hashes[i]!;
  return hashes.slice(0, distinct);
}

function signatureOf(shingles: Uint32Array): Uint32Array {
  const signature = new Uint32Array(SIGNATURE_LENGTH);
  // One hash function at a time over every shingle: the least value stays in a local (about 15% faster than the other order).
  for (let i = 0; i < SIGNATURE_LENGTH; i++) {
    const seed = SEEDS[i]!;
    let least = 0xffffffff;
    for (let j = 0; j < shingles.length; j++) {
      const value = mix(shingles[j]! ^ seed);
      if (value < least) least = value;
    }
    signature[i] = least;
  }
  return signature;
}

/** Exact Jaccard similarity of two sorted hash sets, by one merge. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) (shared++, i++, j++);
    else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

/** The most rows per band (fewest false candidates) that still proposes a pair at the threshold with RECALL_AT_THRESHOLD. */
export function bandingFor(threshold: number): { bands: number; rows: number } {
  for (let rows = 8; rows > 1; rows--) {
    const bands = Math.floor(SIGNATURE_LENGTH / rows);
    if (1 - (1 - threshold ** rows) ** bands >= RECALL_AT_THRESHOLD) return { bands, rows };
  }
  return { bands: SIGNATURE_LENGTH, rows: 1 };
}

/**
 * In a bucket of more than this many articles, each is proposed with only the BUCKET_WINDOW articles before it. A
 * bucket that large is stock phrasing every article of a template shares, or one text copied that many times: listing
 * every pair of it was quadratic (a template site of 20,000 articles spent 8 s proposing pairs no exact check kept, 100,000
 * would spend minutes), and a copied text still shows in each article's pairs, only no longer all of them.
 */
export const BUCKET_WINDOW = 32;

/**
 * Calls `visit(earlier, later)` once for each pair of articles that share a band of their signatures (the candidates),
 * in order of `later`; in a bucket larger than BUCKET_WINDOW, only with the BUCKET_WINDOW articles before `later` in it.
 * No set of pairs is kept: on a corpus of many alike articles there are millions, and each band proposes most of them
 * again; an article marks the earlier ones it has met instead. Returns which articles met only a window of a bucket.
 */
function forEachCandidate(signatures: readonly Uint32Array[], bands: number, rows: number, visit: (earlier: number, later: number) => void): Uint8Array {
  const count = signatures.length;
  // Per band, each article's bucket (the articles, in index order, whose values in that band are its own) and its place in it.
  const bucketOf: number[][][] = [];
  const placeIn: Int32Array[] = [];
  for (let band = 0; band < bands; band++) {
    const buckets = new Map<number, number[]>();
    const ofIndex = new Array<number[]>(count);
    const place = new Int32Array(count);
    for (let index = 0; index < count; index++) {
      const signature = signatures[index]!;
      let key = band;
      for (let r = band * rows; r < (band + 1) * rows; r++) key = mix(Math.imul(key, 31) + signature[r]!);
      let bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, (bucket = []));
      place[index] = bucket.length;
      bucket.push(index);
      ofIndex[index] = bucket;
    }
    bucketOf.push(ofIndex);
    placeIn.push(place);
  }
  const metBy = new Int32Array(count).fill(-1);
  const windowed = new Uint8Array(count);
  for (let later = 0; later < count; later++) {
    for (let band = 0; band < bands; band++) {
      const bucket = bucketOf[band]![later]!;
      const place = placeIn[band]![later]!;
      const from = Math.max(0, place - BUCKET_WINDOW);
      if (from > 0) windowed[later] = 1;
      for (let at = place - 1; at >= from; at--) {
        const earlier = bucket[at]!;
        if (metBy[earlier] === later) continue;
        metBy[earlier] = later;
        visit(earlier, later);
      }
    }
  }
  return windowed;
}

/** An article's shingles (its visible text's, see `shinglesOf`): what its signature is made of, and what an exact measure compares. */
export function articleShingles(html: string): Uint32Array {
  return shinglesOf(htmlToText(html));
}

/** Values as text (base64, little-endian): how a processed record keeps a signature. */
function valuesText(values: Uint32Array): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeUInt32LE(value, index * 4));
  return bytes.toString('base64');
}

function readValues(text: string): Uint32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length % 4 !== 0) return undefined;
  const values = new Uint32Array(bytes.length / 4);
  for (let index = 0; index < values.length; index++) values[index] = bytes.readUInt32LE(index * 4);
  return values;
}

/** The MinHash signature of these shingles as text: what a processed record keeps, so a cold store does not compute it again. */
export function signatureText(shingles: Uint32Array): string {
  return valuesText(signatureOf(shingles));
}

/** An article's MinHash signature as text (base64, little-endian). */
export function nearDuplicateSignature(html: string): string {
  return signatureText(articleShingles(html));
}

function readSignature(text: string): Uint32Array | undefined {
  const values = readValues(text);
  return values?.length === SIGNATURE_LENGTH ? values : undefined;
}

/** One article as the pass knows it: a kept signature (made by `nearDuplicateSignature`) when there is one, and its HTML, read only for a candidate pair. */
export interface SignedArticle {
  slug: string;
  signature: string | undefined;
  html: () => string;
  /** Its shingles when known (the pass that checked it made them): a candidate pair is then measured without reading its HTML. */
  shingles?: (() => Uint32Array | undefined) | undefined;
}

/** The pairs at or above `threshold` from kept signatures: only candidate pairs read their shingles, else their HTML (to measure them exactly). */
export function findSignedNearDuplicates(articles: readonly SignedArticle[], threshold = 0.6): NearDuplicatePair[] {
  const signatures = articles.map((article) => (article.signature === undefined ? undefined : readSignature(article.signature)) ?? readSignature(nearDuplicateSignature(article.html()))!);
  const shingles = new Map<number, Uint32Array>();
  const shinglesAt = (index: number): Uint32Array => {
    let found = shingles.get(index);
    if (found === undefined) shingles.set(index, (found = articles[index]!.shingles?.() ?? articleShingles(articles[index]!.html())));
    return found;
  };
  return pairsOf(articles, signatures, shinglesAt, threshold);
}

/**
 * The pairs of articles whose 5-word-shingle Jaccard similarity is at least `threshold`, most alike
 * first. MinHash signatures and LSH banding propose candidates in about linear time; each candidate
 * is then measured exactly, unless its signatures agree so much that it is above the threshold beyond doubt
 * (`certainAgreement`): its similarity is then the estimate, marked so. A pair at the threshold may rarely be
 * missed (RECALL_AT_THRESHOLD); one below it is reported with probability at most MISS_BY_ESTIMATE.
 */
export function findNearDuplicates(articles: readonly ArticleText[], threshold = 0.6): NearDuplicatePair[] {
  const shingles = articles.map((article) => shinglesOf(htmlToText(article.html)));
  return pairsOf(articles, shingles.map(signatureOf), (index) => shingles[index]!, threshold);
}

/**
 * The fewest of the SIGNATURE_LENGTH slots two signatures must agree in for their pair to be measured:
 * a pair of similarity `threshold` agrees in each slot with probability `threshold`, so in fewer than
 * this many with probability at most MISS_BY_ESTIMATE (binomial), and a more similar pair less often.
 * Articles written by one template share stock phrasing (similarity 0.1–0.2), enough for the banding to
 * propose many of their pairs; this drops them for 96 comparisons each instead of a merge of two shingle sets.
 */
export function minimumAgreement(threshold: number): number {
  let below = 0;
  for (let agree = 0; agree <= SIGNATURE_LENGTH; agree++) {
    below += binomial(SIGNATURE_LENGTH, agree) * threshold ** agree * (1 - threshold) ** (SIGNATURE_LENGTH - agree);
    if (below > MISS_BY_ESTIMATE) return agree;
  }
  return SIGNATURE_LENGTH;
}

/**
 * The fewest agreeing slots that put a pair at or above `threshold` beyond doubt: a pair below the threshold
 * agrees in this many or more with probability at most MISS_BY_ESTIMATE. Such a pair is reported with its
 * estimated similarity, and its texts are not read: on a site of many alike articles, measuring every such pair
 * exactly (shingling both texts again from HTML) was most of what the checks cost on a build with processed records.
 */
export function certainAgreement(threshold: number): number {
  let above = 0;
  for (let agree = SIGNATURE_LENGTH; agree >= 0; agree--) {
    above += binomial(SIGNATURE_LENGTH, agree) * threshold ** agree * (1 - threshold) ** (SIGNATURE_LENGTH - agree);
    if (above > MISS_BY_ESTIMATE) return agree + 1;
  }
  return 0;
}

function binomial(n: number, k: number): number {
  let value = 1;
  for (let i = 1; i <= k; i++) value = (value * (n - k + i)) / i;
  return value;
}

function agreement(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < SIGNATURE_LENGTH; i++) if (a[i] === b[i]) same++;
  return same;
}

function pairsOf(articles: readonly { slug: string }[], signatures: readonly Uint32Array[], shinglesAt: (index: number) => Uint32Array, threshold: number): NearDuplicatePair[] {
  const { bands, rows } = bandingFor(threshold);
  const least = minimumAgreement(threshold);
  const certain = certainAgreement(threshold);
  const found: NearDuplicatePair[] = [];
  const windowed = forEachCandidate(signatures, bands, rows, (earlier, later) => {
    const agreed = agreement(signatures[earlier]!, signatures[later]!);
    if (agreed < least) return;
    const slugs = { slug: articles[later]!.slug, otherSlug: articles[earlier]!.slug };
    if (agreed >= certain) {
      found.push({ ...slugs, similarity: agreed / SIGNATURE_LENGTH, estimated: true });
      return;
    }
    const similarity = jaccard(shinglesAt(earlier), shinglesAt(later));
    if (similarity >= threshold) found.push({ ...slugs, similarity });
  });
  const slugsWindowed = new Set(articles.filter((_, index) => windowed[index] === 1).map((article) => article.slug));
  for (const pair of found) if (slugsWindowed.has(pair.slug)) pair.windowed = true;
  return found.sort((a, b) => b.similarity - a.similarity || a.slug.localeCompare(b.slug) || a.otherSlug.localeCompare(b.otherSlug));
}

/** One article's near-duplicate pairs as its findings show them: the most alike first, at most MAX_FINDINGS_PER_CODE, and how many more. */
export interface ArticlePairs {
  /** The later article of each of its pairs. */
  slug: string;
  pairs: NearDuplicatePair[];
  more: number;
  /** True when `more` is a lower bound: the article was proposed with only a window of a large bucket. */
  windowed?: boolean;
}

/** The pairs by their later article, each article's most alike first (ties by the other slug), capped as every code is. */
export function articlePairs(pairs: readonly NearDuplicatePair[]): ArticlePairs[] {
  const bySlug = new Map<string, NearDuplicatePair[]>();
  for (const pair of pairs) {
    const own = bySlug.get(pair.slug);
    if (own === undefined) bySlug.set(pair.slug, [pair]);
    else own.push(pair);
  }
  return [...bySlug].map(([slug, own]) => {
    own.sort((a, b) => b.similarity - a.similarity || a.otherSlug.localeCompare(b.otherSlug));
    const windowed = own.some((pair) => pair.windowed === true);
    // The window is the article's, not each pair's: it is kept once, on the article's pairs.
    const shown = own.slice(0, MAX_FINDINGS_PER_CODE).map(({ windowed: _windowed, ...pair }) => pair);
    return { slug, pairs: shown, more: Math.max(0, own.length - MAX_FINDINGS_PER_CODE), ...(windowed ? { windowed } : {}) };
  });
}

/** One finding per pair kept, on the later article, naming both (the last saying how many more); none when `near_duplicate` is off. */
export function articlePairFindings(articles: readonly ArticlePairs[], options: QualityOptions): Finding[] {
  const severity = options.codes.near_duplicate;
  if (severity === 'off') return [];
  return articles.flatMap(({ slug, pairs, more, windowed }) => {
    const observations = pairs.map((pair) => ({
      code: 'near_duplicate' as const,
      message: `"${pair.slug}" and "${pair.otherSlug}" are ${pair.estimated === true ? 'about ' : ''}${Math.round(pair.similarity * 100)}% alike (shared 5-word shingles); they compete for the same searches: regenerate or edit one of them, or give one a different keyword`,
    }));
    return capped(observations, pairs.length + more, windowed === true).map(({ code, message }) => ({ slug, code, severity, message }));
  });
}

/** One finding per pair, on the later article, naming both; none when `near_duplicate` is off. */
export function nearDuplicateFindings(pairs: readonly NearDuplicatePair[], options: QualityOptions): Finding[] {
  return articlePairFindings(articlePairs(pairs), options);
}
