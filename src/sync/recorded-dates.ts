// The scheduled dates given so far, kept in the lock file (its `schedule` member) so a date never moves once given.
import type { LockFile } from './lock-file.js';
import { LockSession } from './lock-session.js';
import type { ProcessLockOptions } from './process-lock.js';

/** slug → the ISO date it was given. */
export type RecordedDates = Readonly<Record<string, string>>;

/** The dates the lock file holds (none when it has no `schedule`). */
export function recordedDates(lock: Pick<LockFile, 'schedule'>): RecordedDates {
  return lock.schedule ?? {};
}

/**
 * Records `dates` under the inter-process lock in one atomic write, each only where the lock file holds no
 * date for that slug yet (another build may have recorded one meanwhile: the first given stays). Nothing is
 * written when there is nothing new. Returns every date the lock file holds afterwards.
 */
export async function recordDates(lockFile: string, dates: RecordedDates, options: ProcessLockOptions = {}): Promise<RecordedDates> {
  const session = new LockSession(lockFile, options);
  if (Object.keys(dates).length === 0) return recordedDates(await session.snapshot());
  let after: RecordedDates = {};
  await session.update((lock) => {
    const schedule = { ...lock.schedule };
    const added = Object.entries(dates).filter(([slug]) => schedule[slug] === undefined);
    for (const [slug, date] of added) schedule[slug] = date;
    after = schedule;
    if (added.length === 0) return false;
    lock.schedule = schedule;
    return true;
  });
  return after;
}
