// The refresh rule on a fixed clock: due once the served article is older than refreshAfter (calendar months too), oldest first, never a hand edit, never an article being written; within the budget left by the run's other creates.
import { describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { parseDuration } from '../../src/lang/duration.js';
import { refreshAfterOf } from '../../src/manifest/refresh-after.js';
import {
  articleAge, dueArticles, editedPastDue, firstCreatedAt, formatAge, planSync, refreshesWithinBudget, requestHash,
  type LockEntry, type LockFile, type RefreshSpec
} from '../../src/sync/index.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const HASH = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;

function spec(slug: string, refreshAfter: string | null = '30d'): RefreshSpec {
  return { slug, request: articleRequestSchema.parse({ articleType: 'blog_post', targetKeyword: slug.replace(/-/g, ' ') }), ...(refreshAfter === null ? {} : { refreshAfter: parseDuration(refreshAfter)! }) };
}

function finished(s: RefreshSpec, finishedAt: string, extra: Partial<LockEntry> = {}): LockEntry {
  return { keyword: s.request.targetKeyword, status: 'finished', hash: requestHash(s.request), articleId: `id-${s.slug}`, attempt: 1, createdAt: finishedAt, updatedAt: finishedAt, finishedAt, output: HASH(1), ...extra };
}

function lockOf(entries: Record<string, LockEntry>): LockFile {
  return { version: 1, articles: entries };
}

describe('the refresh rule', () => {
  it('should mark an article due once it is as old as refreshAfter, and not a moment before', () => {
    const s = spec('boots', '30d');
    expect(articleAge(s, finished(s, '2026-05-02T00:00:01Z'), NOW, false)).toMatchObject({ state: 'fresh', refreshAfter: '30d', dueAt: '2026-06-01T00:00:01.000Z' });
    expect(articleAge(s, finished(s, '2026-05-02T00:00:00Z'), NOW, false)).toMatchObject({ state: 'due', ageMs: 30 * 86_400_000 });
  });

  it('should count calendar months: 1mo from March 31st is April 30th', () => {
    const s = spec('boots', '1mo');
    expect(articleAge(s, finished(s, '2026-03-31T00:00:00Z'), new Date('2026-04-29T23:59:59Z'), false)?.state).toBe('fresh');
    expect(articleAge(s, finished(s, '2026-03-31T00:00:00Z'), new Date('2026-04-30T00:00:00Z'), false)?.state).toBe('due');
  });

  it('should list the due articles oldest first, leaving out fresh ones, hand edits, articles being written and entries without refreshAfter', () => {
    const [a, b, c, edited, writing, none, changed] = ['a', 'b', 'c', 'edited', 'writing', 'none', 'changed'].map((slug) => spec(slug, slug === 'none' ? null : '30d'));
    const lock = lockOf({
      a: finished(a!, '2026-03-01T00:00:00Z'),
      b: finished(b!, '2026-01-01T00:00:00Z'),
      c: finished(c!, '2026-05-20T00:00:00Z'),
      edited: finished(edited!, '2025-12-01T00:00:00Z'),
      writing: { ...finished(writing!, '2026-06-01T00:00:00Z'), status: 'pending', previous: { hash: HASH(2), articleId: 'old', output: HASH(3), finishedAt: '2025-01-01T00:00:00Z' } },
      none: finished(none!, '2020-01-01T00:00:00Z'),
      changed: { ...finished(changed!, '2020-01-01T00:00:00Z'), hash: HASH(4) },
    });
    const specs = [a!, b!, c!, edited!, writing!, none!, changed!];
    const due = dueArticles(specs, lock, NOW, new Set(['edited']));
    expect(due.map((age) => age.slug)).toEqual(['b', 'a']);
    expect(articleAge(writing!, lock.articles.writing, NOW, false)).toMatchObject({ state: 'refreshing', since: '2025-01-01T00:00:00Z' });
    expect(articleAge(none!, lock.articles.none, NOW, false)).toMatchObject({ state: 'no-refresh', refreshAfter: null, dueAt: null });
    expect(editedPastDue(specs, lock, NOW, new Set(['edited'])).map((age) => [age.slug, age.state])).toEqual([['edited', 'hand-edited']]);
    expect(articleAge(a!, undefined, NOW, false)).toBeUndefined();
  });

  it("should pay for the oldest within the budget left by the run's other creates", () => {
    const due = ['x', 'y', 'z'].map((slug, index) => articleAge(spec(slug), finished(spec(slug), `2026-0${index + 1}-01T00:00:00Z`), NOW, false)!);
    expect(refreshesWithinBudget(due, 25, 0).chosen).toHaveLength(3);
    const tight = refreshesWithinBudget(due, 3, 1);
    expect([tight.chosen.map((age) => age.slug), tight.later.map((age) => age.slug)]).toEqual([['x', 'y'], ['z']]);
    expect(refreshesWithinBudget(due, 2, 5).chosen).toEqual([]);
  });

  it('should plan a refresh as a create only while the entry still serves the article found due', () => {
    const s = spec('boots');
    const entry = finished(s, '2026-01-01T00:00:00Z');
    const due = dueArticles([s], lockOf({ boots: entry }), NOW, new Set());
    const plan = planSync([{ slug: 'boots', keyword: 'boots', request: s.request }], lockOf({ boots: entry }), new Set([HASH(1)]), { refresh: due });
    expect(plan.creates.map((article) => [article.slug, article.reason, article.attempt])).toEqual([['boots', { kind: 'refresh', age: '151d', refreshAfter: '30d' }, 2]]);
    // Another run refreshed it meanwhile: its article finished later, so the stale due record creates nothing.
    const refreshed = { ...entry, articleId: 'id-new', finishedAt: '2026-05-31T00:00:00Z' };
    expect(planSync([{ slug: 'boots', keyword: 'boots', request: s.request }], lockOf({ boots: refreshed }), new Set([HASH(1)]), { refresh: due }).creates).toEqual([]);
  });

  it("should keep the first article's date for entry.data.createdAt, and date nothing it does not serve", () => {
    const s = spec('boots');
    const entry = finished(s, '2026-05-01T00:00:00Z', { createdAt: '2026-05-01T00:00:00Z' });
    expect(firstCreatedAt(entry, 'id-boots')).toBe('2026-05-01T00:00:00Z');
    expect(firstCreatedAt(entry, 'another')).toBeNull();
    expect(firstCreatedAt({ ...entry, firstCreatedAt: '2025-01-01T00:00:00Z' }, 'another')).toBe('2025-01-01T00:00:00Z');
    expect(firstCreatedAt(undefined, 'id-boots')).toBeNull();
  });

  it('should read refreshAfter as a duration, and say what is wrong with one that is not', () => {
    expect(refreshAfterOf('6mo')).toEqual({ amount: 6, unit: 'mo' });
    expect(refreshAfterOf('2w')).toEqual({ amount: 2, unit: 'w' });
    expect(refreshAfterOf('1y')).toContain('"1y" is not a duration; write a number above zero and a unit: 90s, 30m, 12h, 30d, 2w or 6mo');
    expect(refreshAfterOf('0d')).toContain('is not a duration');
    expect(refreshAfterOf(true)).toContain('must be a duration written as text');
    // A bare number would be seconds (as the CLI's flags read it): in the manifest it is refused, with the unit to add.
    expect(refreshAfterOf(30)).toBe('30 has no unit; write it with one, e.g. "30d" for days or "30mo" for months (90s, 30m, 12h, 30d, 2w or 6mo)');
    expect([formatAge(40_000), formatAge(20 * 60_000), formatAge(36 * 3_600_000), formatAge(45 * 86_400_000)]).toEqual(['40s', '20m', '36h', '45d']);
  });
});
