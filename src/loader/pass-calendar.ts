// A pass's calendar: each scheduled entry's date, recorded in the lock file by a pass that may write it, so it never moves.
import { calendarDates, unrecordedDates, withCalendar, type Manifest } from '../manifest/index.js';
import { readLockFile, recordDates, recordedDates } from '../sync/index.js';
import type { CollectionLog } from './collection-log.js';

/**
 * The manifest with every scheduled entry's date as its `publishDate`. The dates the lock file does not hold
 * yet are recorded there first, unless `record` is off (a frozen build writes no lock file): then they are
 * only proposed, and the log says they will move until a sync or a local build records them. `now` is the pass's instant.
 */
export async function withPassCalendar(manifest: Manifest, { lockFile, record, now }: { lockFile: string; record: boolean; now: Date }, log: CollectionLog): Promise<Manifest> {
  if (!manifest.specs.some((spec) => spec.schedule !== undefined)) return manifest;
  let dates = calendarDates(manifest.specs, recordedDates(await readLockFile(lockFile)), now);
  const proposed = unrecordedDates(dates);
  const count = Object.keys(proposed).length;
  if (count > 0 && record) {
    dates = calendarDates(manifest.specs, await recordDates(lockFile, proposed), now);
    log.scheduleRecorded(count, lockFile);
  } else if (count > 0) {
    log.scheduleProposed(Object.keys(proposed));
  }
  return withCalendar(manifest, dates);
}
