// The planner: compares the manifest's specs with the lock file and the cache, and says what each article needs.
import { articleRequestSchema, type ArticleRequest } from '../contract/request-schema.js';
import { canonicalRequest, diffRequests, requestHash, type CanonicalRequest } from './canonical-request.js';
import type { LockEntry, LockFile } from './lock-file.js';
import { formatAge, servedSince, type ArticleAge } from './refresh-due.js';
import { estimateWords, type WordEstimate } from './word-estimate.js';
import type { CreateReason } from './create-reason.js';

export { describeCreateReason, type CreateReason } from './create-reason.js';

/**
 * What sync needs of an article: structurally a subset of the manifest's ArticleSpec, so sync does
 * not depend on how manifests are read. `request` is the full request sent on create (it may carry
 * `integrationId` / `webhookUrl`, which the hash leaves out).
 */
export interface SyncSpec {
  slug: string;
  keyword: string;
  request: ArticleRequest;
}

/**
 * - `reuse`: same hash, finished, output in the cache. No request.
 * - `fetch`: same hash, finished, output not in the cache (a fresh clone): one GET, never a create.
 * - `wait`: same hash, article id known, not finished: poll it.
 * - `create`: no entry, the hash changed, or an explicit retry: a new (paid) article.
 * - `restore`: the request went back to the one of the earlier finished article: serve it again, no create.
 * - `failed`: the article failed (or the service lost it); surfaced, not re-created unless `retryFailed`.
 * - `unknown`: a create may have been billed but no id came back; surfaced, not re-created unless
 *   `retryUnknown` (or `idempotentCreates`, where retrying with the same key cannot bill twice).
 * - `orphan`: in the lock file but not in the manifest: kept (prune is explicit).
 */
export type PlanAction = 'reuse' | 'fetch' | 'wait' | 'create' | 'restore' | 'failed' | 'unknown' | 'orphan';

export interface PlannedArticle {
  slug: string;
  keyword: string;
  action: PlanAction;
  /** The hash of the spec's canonical request (for an orphan: the lock entry's). */
  hash: string;
  /** The lock entry as the plan found it. */
  entry: LockEntry | undefined;
  /** For `create`. */
  reason?: CreateReason;
  /** For `create`: the attempt number, part of the idempotency key (same key = same article). */
  attempt?: number;
  /** For `create`: estimated words billed. */
  estimate?: WordEstimate;
  /**
   * The lock entry this article takes over: one the manifest no longer lists under its slug, made from the same
   * request (a slug changed, an entry moved into a language). Its article is this one's, no create; sync records it
   * under the new slug.
   */
  movedFrom?: string;
}

export interface SyncPlan {
  /** One per spec, in manifest order. */
  articles: PlannedArticle[];
  /** Lock entries whose slug is not in the manifest, sorted by slug. */
  orphans: PlannedArticle[];
  counts: Record<PlanAction, number>;
  creates: PlannedArticle[];
  /** Estimated words the creates bill (text and images). */
  estimatedWords: number;
}

/**
 * What the sync talks to. `emulator`: the offline emulator (placeholder articles, free).
 * `remote`: the real, paid service.
 */
export type SyncService = 'emulator' | 'remote';

export interface PlanOptions {
  /**
   * Default `remote`. Against the real service, every entry the emulator wrote is created again
   * (`create`, reason `emulator`): placeholder text is never served on a real site as if it were
   * an article. Against the emulator, entries it wrote that failed or were lost are created again
   * (free), and an `unknown` real create is never repeated there automatically.
   */
  service?: SyncService;
  /** Re-create `failed` articles (a new, paid article each): `true` for all, or a list of slugs. */
  retryFailed?: boolean | readonly string[];
  /**
   * Create `unknown` articles again with the same idempotency key: `true` for all, or a list of
   * slugs. Safe only when the service honours Idempotency-Key; otherwise it may pay twice.
   */
  retryUnknown?: boolean | readonly string[];
  /**
   * The service honours Idempotency-Key: `unknown` entries are created again with the same key
   * automatically, since that cannot create a second article.
   */
  idempotentCreates?: boolean;
  /** Slugs of finished articles to create again on purpose (a new, paid article each; the current one is served until it is finished). */
  regenerate?: readonly string[];
  /**
   * Due articles to refresh (see `sync/refresh-due.ts`): each is created again like a regenerate, but only while it
   * still serves the article that was due (another run may have refreshed it meanwhile).
   */
  refresh?: readonly ArticleAge[];
  /**
   * Every slug of the manifest, when the specs planned are only some of them (`regenerate`): a lock entry is an
   * orphan only when the manifest does not list it, not merely when this run leaves it alone. Default: the specs' slugs.
   */
  manifestSlugs?: readonly string[];
}

/** The output hashes present in the cache (a `Set<string>` will do). */
export interface CacheIndex {
  has(outputHash: string): boolean;
}

function selected(option: boolean | readonly string[] | undefined, slug: string): boolean {
  return option === true || (Array.isArray(option) && option.includes(slug));
}

function earlierRequest(entry: LockEntry): CanonicalRequest | undefined {
  if (entry.request === undefined) return undefined;
  try {
    return canonicalRequest(entry.request);
  } catch {
    // Recorded by an older schema: show the recorded parameters as they are.
    return entry.request as CanonicalRequest;
  }
}

/** Decides what to do for each spec. Pure: no I/O. */
export function planSync(specs: readonly SyncSpec[], lock: LockFile, cache: CacheIndex, options: PlanOptions = {}): SyncPlan {
  const remote = (options.service ?? 'remote') === 'remote';
  const inManifest = new Set(options.manifestSlugs ?? specs.map((spec) => spec.slug));
  const moves = movedEntries(specs, lock, inManifest);
  const articles = specs.map((spec) => {
    const from = moves.get(spec.slug);
    if (from === undefined) return planArticle(spec, lock.articles[spec.slug], cache, options, remote);
    const planned = planArticle(spec, lock.articles[from], cache, options, remote);
    // Created under the old slug: retried under this one, its idempotency key would differ, and it could be billed twice.
    return { ...(planned.action === 'create' && planned.reason?.kind === 'retry-unknown' ? { ...planned, action: 'unknown' as const, reason: undefined, attempt: undefined, estimate: undefined } : planned), movedFrom: from };
  });
  const moved = new Set(moves.values());
  const orphans: PlannedArticle[] = Object.keys(lock.articles)
    .filter((slug) => !inManifest.has(slug) && !moved.has(slug))
    .sort()
    .map((slug) => {
      const entry = lock.articles[slug]!;
      return { slug, keyword: entry.keyword, action: 'orphan', hash: entry.hash, entry };
    });
  const counts: Record<PlanAction, number> = { reuse: 0, fetch: 0, wait: 0, create: 0, restore: 0, failed: 0, unknown: 0, orphan: orphans.length };
  for (const article of articles) counts[article.action] += 1;
  const creates = articles.filter((article) => article.action === 'create');
  const estimatedWords = creates.reduce((sum, article) => sum + (article.estimate?.words ?? 0), 0);
  return { articles, orphans, counts, creates, estimatedWords };
}

/**
 * Specs without a lock entry that take over one the manifest no longer lists, made from the same request (its hash:
 * the keyword and every parameter): new slug → old slug. Changing a slug, or moving entries into `languages:`, must not
 * buy their articles again. Each old entry goes to one spec, the first in manifest order; old slugs in slug order.
 */
export function movedEntries(specs: readonly Pick<SyncSpec, 'slug' | 'request'>[], lock: LockFile, inManifest: ReadonlySet<string>): Map<string, string> {
  const byHash = new Map<string, string[]>();
  for (const slug of Object.keys(lock.articles).sort()) {
    if (inManifest.has(slug)) continue;
    const hash = lock.articles[slug]!.hash;
    byHash.set(hash, [...(byHash.get(hash) ?? []), slug]);
  }
  const moves = new Map<string, string>();
  if (byHash.size === 0) return moves;
  for (const spec of specs) {
    if (lock.articles[spec.slug] !== undefined) continue;
    const from = byHash.get(requestHash(spec.request))?.shift();
    if (from !== undefined) moves.set(spec.slug, from);
  }
  return moves;
}

/** Records each move of `movedEntries` in `lock`: the entry under its new slug, none under the old (the same request, so the same keyword). */
export function recordMoves(lock: LockFile, moves: Iterable<{ from: string; to: string }>): void {
  for (const { from, to } of moves) {
    const entry = lock.articles[from];
    if (entry === undefined || lock.articles[to] !== undefined) continue;
    lock.articles[to] = entry;
    delete lock.articles[from];
  }
}

/** One spec's action, from its lock entry (if any) and the cache. */
function planArticle(spec: SyncSpec, entry: LockEntry | undefined, cache: CacheIndex, options: PlanOptions, remote: boolean): PlannedArticle {
  const hash = requestHash(spec.request);
  const base = { slug: spec.slug, keyword: spec.keyword, hash, entry };
  const create = (reason: CreateReason, attempt: number): PlannedArticle => ({
    ...base,
    action: 'create',
    reason,
    attempt,
    estimate: estimateWords(articleRequestSchema.parse(spec.request)),
  });
  if (entry === undefined) return create({ kind: 'new' }, 1);
  if (remote && entry.emulator === true && entry.hash === hash) return create({ kind: 'emulator' }, entry.attempt);
  if (entry.hash !== hash) {
    if (entry.previous?.hash === hash && cache.has(entry.previous.output)) {
      return remote && entry.previous.emulator === true ? create({ kind: 'emulator' }, 1) : { ...base, action: 'restore' };
    }
    const from = earlierRequest(entry);
    const changes = from === undefined ? [] : diffRequests(from, canonicalRequest(spec.request));
    return create({ kind: 'changed', changes, fromHash: entry.hash }, 1);
  }
  switch (entry.status) {
    case 'finished': {
      const due = dueNow(options.refresh, spec.slug, entry);
      if (options.regenerate?.includes(spec.slug) === true) return create({ kind: 'regenerate' }, entry.attempt + 1);
      if (due !== undefined) return create({ kind: 'refresh', age: formatAge(due.ageMs), refreshAfter: due.refreshAfter ?? '' }, entry.attempt + 1);
      return { ...base, action: entry.output !== undefined && cache.has(entry.output) ? 'reuse' : 'fetch' };
    }
    case 'pending':
      return { ...base, action: 'wait' };
    case 'failed':
      return selected(options.retryFailed, spec.slug) || (!remote && entry.emulator === true)
        ? create({ kind: 'retry-failed', error: entry.error }, entry.attempt + 1)
        : { ...base, action: 'failed' };
    case 'unknown':
      // The emulator's idempotency keys say nothing of the real service's: a real create is not repeated there unasked.
      return (options.idempotentCreates === true && (remote || entry.emulator === true)) || selected(options.retryUnknown, spec.slug)
        ? create({ kind: 'retry-unknown', error: entry.error }, entry.attempt)
        : { ...base, action: 'unknown' };
  }
}

/** The due record of `slug` when its entry still serves the article that was found due. */
function dueNow(refresh: readonly ArticleAge[] | undefined, slug: string, entry: LockEntry): ArticleAge | undefined {
  const due = refresh?.find((candidate) => candidate.slug === slug);
  return due !== undefined && due.since === servedSince(entry) ? due : undefined;
}

