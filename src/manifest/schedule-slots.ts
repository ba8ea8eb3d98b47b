// A schedule's slots: the instants its calendar offers, in order, with the wall-clock time kept across daylight saving changes.
import { TZDate } from '@date-fns/tz';
import { addDuration, fixedMs } from '../lang/duration.js';
import type { Schedule } from './schedule.js';

const DAY_MS = 86_400_000;

/** Units that step the calendar (days, weeks, months): their slots keep `at` on the wall clock of `timezone`. */
function stepsTheCalendar(schedule: Schedule): boolean {
  const ms = fixedMs(schedule.every);
  return ms === undefined || ms % DAY_MS === 0;
}

/** The instant of a wall-clock time on a day of `timezone`; a time the clock skips that day is moved on by the gap, one it passes twice is the first. */
function wallClock(day: Date, at: string, timezone: string): Date {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  return new Date(new TZDate(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes, timezone).getTime());
}

/**
 * Slot `k` (0 is the first). Days, weeks and months step the calendar day and keep `at` on the
 * wall clock (09:00 stays 09:00 in summer and in winter); shorter intervals step the clock from the
 * first slot, as a stopwatch does.
 */
export function slotAt(schedule: Schedule, k: number): Date {
  const firstDay = new Date(`${schedule.start}T00:00:00Z`);
  if (stepsTheCalendar(schedule)) return wallClock(addDuration(firstDay, schedule.every, k), schedule.at, schedule.timezone);
  return addDuration(wallClock(firstDay, schedule.at, schedule.timezone), schedule.every, k);
}

/** The index of the first slot at or after `instant` (`after: true`: strictly after). */
export function firstSlotFrom(schedule: Schedule, instant: Date, after = false): number {
  const time = instant.getTime();
  const comesLater = (k: number) => (after ? slotAt(schedule, k).getTime() > time : slotAt(schedule, k).getTime() >= time);
  const approximate = fixedMs(schedule.every) ?? schedule.every.amount * 30 * DAY_MS;
  // A guess from the average length, then a few steps to the exact slot (DST and month lengths move slots by less than one).
  let k = Math.max(0, Math.floor((time - slotAt(schedule, 0).getTime()) / approximate) - 1);
  while (!comesLater(k)) k += 1;
  while (k > 0 && comesLater(k - 1)) k -= 1;
  return k;
}
