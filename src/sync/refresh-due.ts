// The refresh rule: an article is due when the output it serves is older than its entry's `refreshAfter`; due ones are paid for oldest first, within the run's budget, and a hand edit is never due.
import type { ArticleRequest } from '../contract/request-schema.js';
import { addDuration, formatDurationText, type Duration } from '../lang/duration.js';
import { requestHash } from './canonical-request.js';
import type { LockEntry, LockFile } from './lock-file.js';

/**
 * How an article stands against its `refreshAfter`:
 * - `fresh`: younger than it; `due`: as old or older (`sync --refresh` pays for a new one);
 * - `hand-edited`: served from `articles.edits/<slug>.html`, never refreshed while the edit exists;
 * - `refreshing`: a new article for it is being written (or failed, or had an unknown create): not due again;
 * - `no-refresh`: the entry has no `refreshAfter`.
 */
export type RefreshState = 'fresh' | 'due' | 'hand-edited' | 'refreshing' | 'no-refresh';

/** The age of the article a slug serves, and whether it is due. */
export interface ArticleAge {
  slug: string;
  /** When the served article finished (its first article, or the last refresh): the age counts from here. */
  since: string;
  ageMs: number;
  /** `30d`, as the manifest gave it; null without `refreshAfter`. */
  refreshAfter: string | null;
  /** When it is (or was) due: `since` + `refreshAfter`; null without `refreshAfter`. */
  dueAt: string | null;
  state: RefreshState;
}

/** What the rule reads of an entry of the manifest. */
export interface RefreshSpec {
  slug: string;
  request: ArticleRequest;
  refreshAfter?: Duration;
}

/** The finish time the served article's age counts from (its lock entry's, or the earlier article's while a new one is written). */
export function servedSince(entry: LockEntry | undefined): string | undefined {
  if (entry === undefined) return undefined;
  if (entry.status === 'finished' && entry.output !== undefined) return entry.finishedAt ?? entry.createdAt;
  return entry.previous === undefined ? undefined : (entry.previous.finishedAt ?? entry.createdAt);
}

/**
 * The age of what `spec` serves at `now`, or undefined when it serves nothing yet. Only a finished article of the
 * manifest's current request can be due: a changed request is created anyway, and an unfinished one is being written.
 */
export function articleAge(spec: RefreshSpec, entry: LockEntry | undefined, now: Date, edited: boolean): ArticleAge | undefined {
  const since = servedSince(entry);
  if (entry === undefined || since === undefined) return undefined;
  const ageMs = Math.max(0, now.getTime() - Date.parse(since));
  const dueAt = spec.refreshAfter === undefined ? undefined : addDuration(new Date(since), spec.refreshAfter);
  const base = { slug: spec.slug, since, ageMs, refreshAfter: spec.refreshAfter === undefined ? null : formatDurationText(spec.refreshAfter), dueAt: dueAt?.toISOString() ?? null };
  return { ...base, state: stateOf(entry, spec, dueAt, now, edited) };
}

function stateOf(entry: LockEntry, spec: RefreshSpec, dueAt: Date | undefined, now: Date, edited: boolean): RefreshState {
  if (dueAt === undefined) return 'no-refresh';
  if (edited) return 'hand-edited';
  if (entry.status !== 'finished') return 'refreshing';
  if (entry.hash !== requestHash(spec.request)) return 'fresh';
  return now.getTime() >= dueAt.getTime() ? 'due' : 'fresh';
}

/** Every due article of the manifest, oldest first (then in manifest order). `edited`: the slugs served from a hand edit. */
export function dueArticles(specs: readonly RefreshSpec[], lock: LockFile, now: Date, edited: ReadonlySet<string>): ArticleAge[] {
  const ages = specs.map((spec) => articleAge(spec, lock.articles[spec.slug], now, edited.has(spec.slug)));
  const due = ages.filter((age): age is ArticleAge => age?.state === 'due');
  // A stable sort keeps manifest order among articles of the same age.
  return due.sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
}

/** The hand-edited articles that would otherwise be due: `plan` says they are not refreshed, and why. */
export function editedPastDue(specs: readonly RefreshSpec[], lock: LockFile, now: Date, edited: ReadonlySet<string>): ArticleAge[] {
  return specs
    .filter((spec) => edited.has(spec.slug))
    .map((spec) => articleAge(spec, lock.articles[spec.slug], now, true))
    .filter((age): age is ArticleAge => age !== undefined && age.dueAt !== null && now.getTime() >= Date.parse(age.dueAt));
}

/**
 * The due articles one run pays for: the oldest, as many as the budget leaves after the run's other creates (new
 * entries, changed requests), which come first. The rest wait for a later run, still due.
 */
export function refreshesWithinBudget(due: readonly ArticleAge[], budget: number, otherCreates: number): { chosen: ArticleAge[]; later: ArticleAge[] } {
  const slots = Math.max(0, budget - otherCreates);
  return { chosen: due.slice(0, slots), later: due.slice(slots) };
}

/** An age as people read it: `45d`, `36h`, `20m`, `40s`. */
export function formatAge(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'm']];
  for (const [size, unit] of units) if (ms >= (unit === 'd' ? 2 : 1) * size) return `${Math.floor(ms / size)}${unit}`;
  return `${Math.floor(ms / 1000)}s`;
}
