// When the written workflows run: the articles job a couple of hours before the manifest's slots (weekly for a weekly cadence), the deploy just after them.
import { fixedMs } from '../lang/duration.js';
import type { Schedule } from '../manifest/schedule.js';
import { slotAt } from '../manifest/schedule-slots.js';

/** One `on.schedule` line of a workflow: the cron (UTC, as GitHub reads it) and what it means, for the comment beside it. */
export interface CronLine {
  cron: string;
  said: string;
}

const DAY_MINUTES = 1440;
const WEEK_MS = 7 * 86_400_000;
/** The articles job runs this long before a slot: time to create and write what the slot needs, should it not be ready. */
const AHEAD_MINUTES = 120;
/** The deploy runs this long after a slot: the slot's article is live from its instant on, so the build comes just after. */
const AFTER_MINUTES = 10;
const WEEKDAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];

/** Without a schedule: daily, off the full hour (GitHub delays the runs it starts on the hour most). */
export const DAILY_ARTICLES: CronLine = { cron: '17 5 * * *', said: 'daily at 05:17 UTC' };
/** Without a schedule: a publishDate given as a day goes live at midnight UTC, so the daily deploy comes just after. */
export const DAILY_DEPLOY: CronLine = { cron: '7 0 * * *', said: 'daily at 00:07 UTC, after a publishDate given as a day begins' };

/** The slots of the schedule's first year, enough to see both sides of a daylight saving change. */
function firstYear(schedule: Schedule): Date[] {
  const first = slotAt(schedule, 0).getTime();
  const slots: Date[] = [];
  for (let k = 0; k < 400; k += 1) {
    const slot = slotAt(schedule, k);
    if (slot.getTime() - first > 366 * 86_400_000) break;
    slots.push(slot);
  }
  return slots;
}

const minuteOfDay = (date: Date): number => date.getUTCHours() * 60 + date.getUTCMinutes();
const wrap = (minutes: number): number => ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
const clock = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A cadence of a week or more (`1w`, `2w`, `1mo`) needs a run a week, not a day. */
function weekly(schedule: Schedule): boolean {
  const ms = fixedMs(schedule.every);
  return ms === undefined || ms >= WEEK_MS;
}

/**
 * The articles workflow's cron: daily two hours before the earliest UTC time any schedule's slots fall
 * on (daylight saving moves a zone's slots by an hour in UTC), or weekly on the slot's UTC weekday when
 * every schedule is one weekly cadence; daily at a fixed time without a schedule.
 */
export function articlesCron(schedules: readonly Schedule[]): CronLine {
  if (schedules.length === 0) return DAILY_ARTICLES;
  const runs = schedules.flatMap(firstYear).map((slot) => new Date(slot.getTime() - AHEAD_MINUTES * 60_000));
  const earliest = Math.min(...runs.map(minuteOfDay));
  const [hours, minutes] = [Math.floor(earliest / 60), earliest % 60];
  const keys = new Set(schedules.map((schedule) => schedule.key));
  const weekdays = new Set(runs.map((run) => run.getUTCDay()));
  if (keys.size === 1 && weekly(schedules[0]!) && weekdays.size === 1) {
    const weekday = [...weekdays][0]!;
    return { cron: `${minutes} ${hours} * * ${weekday}`, said: `${WEEKDAYS[weekday]} at ${clock(earliest)} UTC, two hours before the schedule's slots` };
  }
  return { cron: `${minutes} ${hours} * * *`, said: `daily at ${clock(earliest)} UTC, two hours before the schedule's slots` };
}

/**
 * The deploy workflow's crons: one a day just after each UTC time a schedule's slots fall on (two for a
 * zone with daylight saving), so each article goes live within minutes of its slot; at most four lines,
 * beyond which hourly.
 */
export function deployCrons(schedules: readonly Schedule[]): CronLine[] {
  if (schedules.length === 0) return [DAILY_DEPLOY];
  const times = [...new Set(schedules.flatMap(firstYear).map((slot) => wrap(minuteOfDay(slot) + AFTER_MINUTES)))].sort((a, b) => a - b);
  if (times.length > 4) return [{ cron: `${AFTER_MINUTES} * * * *`, said: 'hourly: the schedules have slots at many times of day' }];
  return times.map((time) => ({ cron: `${time % 60} ${Math.floor(time / 60)} * * *`, said: `daily at ${clock(time)} UTC, just after the slots` }));
}
