// The calendar as plan, status and sync show it: what goes live when, each scheduled date recorded in the lock file or only proposed.
import { calendarDates, offSchedule, unrecordedDates, withCalendar, type Manifest } from '../manifest/index.js';
import { recordDates, recordedDates, type LockFile } from '../sync/index.js';
import { plural, type Style } from './output.js';

/** One dated article: when it goes live, and where the date comes from. */
export interface CalendarRow {
  slug: string;
  keyword: string;
  /** ISO. */
  publishDate: string;
  /** Its date has come: a build publishes it (unless it is a draft). */
  live: boolean;
  /** `publishDate`: given in the manifest; `recorded`: given by the schedule and kept in the lock file; `proposed`: given by the schedule now, recorded by the next sync or build. */
  source: 'publishDate' | 'recorded' | 'proposed';
  /** The zone its schedule reads `at` in (UTC for a given date). */
  timezone: string;
}

export interface CalendarReport {
  rows: CalendarRow[];
  /** Recorded dates no longer on their schedule's slots (start or every changed): kept as they are. */
  offSchedule: string[];
}

/** Every dated article of the manifest, in date order, with the lock file's recorded dates and the time `now` (the command's `currentTime`). Writes nothing. */
export function calendarReport(manifest: Manifest, lock: Pick<LockFile, 'schedule'>, now: Date): CalendarReport {
  const dates = calendarDates(manifest.specs, recordedDates(lock), now);
  const rows = withCalendar(manifest, dates).specs.flatMap((spec): CalendarRow[] => {
    if (spec.publishDate === undefined) return [];
    const scheduled = dates.get(spec.slug);
    const source = scheduled === undefined ? 'publishDate' : scheduled.recorded ? 'recorded' : 'proposed';
    return [{ slug: spec.slug, keyword: spec.keyword, publishDate: spec.publishDate.toISOString(), live: spec.publishDate <= now, source, timezone: spec.schedule?.timezone ?? 'UTC' }];
  });
  rows.sort((a, b) => (a.publishDate < b.publishDate ? -1 : a.publishDate > b.publishDate ? 1 : 0));
  return { rows, offSchedule: offSchedule(manifest.specs, dates) };
}

/** `sync`: records the dates the schedule gives and the lock file lacks (one atomic write under the lock); how many. */
export async function recordCalendar(manifest: Manifest, lockFile: string, lock: Pick<LockFile, 'schedule'>, now: Date): Promise<number> {
  const proposed = unrecordedDates(calendarDates(manifest.specs, recordedDates(lock), now));
  if (Object.keys(proposed).length > 0) await recordDates(lockFile, proposed);
  return Object.keys(proposed).length;
}

/** `2026-12-03 09:00 Europe/Berlin`: a date on the wall clock its schedule uses. */
function wallClock(iso: string, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${timezone}`;
}

/** The calendar's lines: the dates to come (the first `limit`), how many are live, and what is only proposed. */
export function calendarLines(report: CalendarReport, style: Style, limit = 20): string[] {
  if (report.rows.length === 0) return [];
  const coming = report.rows.filter((row) => !row.live);
  const proposed = report.rows.filter((row) => row.source === 'proposed').length;
  const lines = [`${style.bold('Calendar:')} ${report.rows.length - coming.length} live, ${coming.length} to come${proposed > 0 ? `; ${proposed} proposed, not yet recorded` : ''}.`];
  for (const row of coming.slice(0, limit)) {
    const note = row.source === 'proposed' ? style.yellow('proposed: the next sync or build records it') : row.source === 'recorded' ? style.dim('scheduled') : style.dim('publishDate');
    lines.push(`  ${wallClock(row.publishDate, row.timezone)}  ${style.bold(row.slug)}  ${note}`);
  }
  if (coming.length > limit) lines.push(style.dim(`  … and ${coming.length - limit} more (--json lists all)`));
  if (report.offSchedule.length > 0) {
    lines.push(style.yellow(`  ${plural(report.offSchedule.length, 'recorded date is', 'recorded dates are')} not on the schedule's slots now (${report.offSchedule.slice(0, 5).join(', ')}${report.offSchedule.length > 5 ? ', …' : ''}): the schedule changed after they were given. They stay; new entries follow the new schedule.`));
  }
  return lines;
}
