// The lock file's per-month spend tally (`spent`): articles counted when a create's intent is recorded, words added as they settle; what the monthly cap (`budget.perMonth`) is checked against.
import { billedByService } from '../contract/emulator-billing.js';
import type { LockEntry, LockFile, MonthSpend } from './lock-file.js';
import type { PlannedArticle } from './plan.js';

/** `2026-11`: the calendar month (UTC) a tally is kept under. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The articles (and words) recorded as created in `month`; zeros when the lock file records none. */
export function spentIn(lock: Pick<LockFile, 'spent'>, month: string): MonthSpend {
  return lock.spent?.[month] ?? { articles: 0, words: 0 };
}

/**
 * Whether a create counts against the monthly cap: the embedded emulator bills nothing, and an `unknown` create tried
 * again with its idempotency key is the article already counted, not a second one.
 */
export function countsAsSpend(article: PlannedArticle, onEmulator: boolean): boolean {
  return !onEmulator && article.reason?.kind !== 'retry-unknown';
}

/** Counts one create (`by` 1) when its intent is recorded, or takes it back (`by` -1) when its request was never received. */
export function countCreate(lock: LockFile, month: string, by: 1 | -1): void {
  const current = spentIn(lock, month);
  const articles = Math.max(0, current.articles + by);
  const { [month]: _replaced, ...others } = lock.spent ?? {};
  // A month back at nothing (its one create never received) is no month at all: the lock file keeps its bytes.
  const spent = articles === 0 && current.words === 0 ? others : { ...others, [month]: { articles, words: current.words } };
  if (Object.keys(spent).length === 0) delete lock.spent;
  else lock.spent = spent;
}

/**
 * Adds the words a settling article was billed to the month its create was counted in (its `createdAt`), once: only
 * when the entry had none recorded, was billed by the service, and that month has a tally (a create from before the
 * tally existed leaves a lock without one byte-identical).
 */
export function addSettledWords(lock: LockFile, before: LockEntry, words: number | undefined): void {
  if (words === undefined || before.words !== undefined || !billedByService(before)) return;
  const month = monthOf(new Date(before.createdAt));
  const current = lock.spent?.[month];
  if (current === undefined) return;
  lock.spent = { ...lock.spent, [month]: { articles: current.articles, words: current.words + words } };
}
