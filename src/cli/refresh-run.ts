// The refresh a command works out: which articles are due now (on the injectable clock), which of them one run pays for within the budget, and the hand-edited ones it leaves alone; for plan, sync --refresh and regenerate --due.
import type { Manifest } from '../manifest/index.js';
import {
  dueArticles, editedPastDue, editsDirFor, formatAge, listEdits, planSync, refreshesWithinBudget,
  type ArticleAge, type CacheIndex, type LockFile, type SyncService
} from '../sync/index.js';
import { planOptionsOf, type SyncRules } from './spending-flags.js';

export interface RefreshRun {
  now: Date;
  /** Every due article, oldest first. */
  due: ArticleAge[];
  /** The oldest of them that one run pays for: the budget left after the run's other creates. */
  chosen: ArticleAge[];
  /** Due, but past the budget: still due next run. */
  later: ArticleAge[];
  /** Past their `refreshAfter` but served from a hand edit: never refreshed while the edit exists. */
  handEdited: ArticleAge[];
}

/**
 * The refresh of `specs` against `lock` now, within `rules.budget`. In a sync the run's other creates (new entries,
 * changed requests) come first; `regenerate --due` creates nothing else (`alone`).
 */
export async function refreshRun(
  specs: Manifest['specs'],
  context: { lockFile: string; lock: LockFile; cacheIndex: CacheIndex; rules: SyncRules; service: SyncService; now: Date; alone?: boolean },
): Promise<RefreshRun> {
  const { now } = context;
  const edited = new Set(await listEdits(editsDirFor(context.lockFile)));
  const plain = planSync(specs, context.lock, context.cacheIndex, { ...planOptionsOf({ ...context.rules, refresh: [] }), service: context.service });
  // An article the run creates anyway (an offline placeholder against the real service, a regenerate) is not a refresh.
  const kept = new Set(plain.articles.filter((article) => article.action === 'reuse' || article.action === 'fetch').map((article) => article.slug));
  const due = dueArticles(specs, context.lock, now, edited).filter((age) => kept.has(age.slug));
  const { chosen, later } = refreshesWithinBudget(due, context.rules.budget, context.alone === true ? 0 : plain.creates.length);
  return { now, due, chosen, later, handEdited: editedPastDue(specs, context.lock, now, edited) };
}

/** One due article for people: `best-boots (45d old, refreshAfter 30d)`. */
export function dueText(age: ArticleAge): string {
  return `${age.slug} (${formatAge(age.ageMs)} old, refreshAfter ${age.refreshAfter ?? '—'})`;
}
