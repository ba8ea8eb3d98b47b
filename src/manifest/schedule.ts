// The `schedule` field (a publishing cadence: `{ start, every, at?, timezone? }`), checked into one value that names its group of entries.
import { DURATION_EXAMPLES, formatDurationText, isBareNumber, parseDuration, type Duration } from '../lang/duration.js';
import { isCalendarDay } from '../lang/calendar-day.js';
import { isPlainObject } from '../lang/plain-object.js';
import { didYouMean, suggestName } from './suggestion.js';

/** A checked schedule: the first day, the interval, the wall-clock time and the zone the time is read in. */
export interface Schedule {
  /** The first slot's day, `YYYY-MM-DD` (a day of `timezone`'s calendar). */
  start: string;
  every: Duration;
  /** `HH:MM`, 24-hour; `00:00` when not given. */
  at: string;
  /** An IANA name as Intl spells it (`Europe/Berlin`); `UTC` when not given. */
  timezone: string;
  /** The same text for every equal schedule: entries whose schedules have one key form one calendar. */
  key: string;
}

export const SCHEDULE_MEMBERS = ['start', 'every', 'at', 'timezone'] as const;
const EXAMPLE = '`schedule: { start: 2026-12-01, every: 2d, at: "09:00", timezone: Europe/Berlin }`';

/** Reports one problem of the schedule: its member (`schedule.every`) and what is wrong. */
type ScheduleProblem = (field: string, message: string) => void;

/** The checked schedule, or undefined after reporting every problem it has. */
export function scheduleOf(value: unknown, report: ScheduleProblem): Schedule | undefined {
  if (!isPlainObject(value)) {
    report('schedule', `must be a mapping with start and every, e.g. ${EXAMPLE}, not ${value === null ? 'empty' : Array.isArray(value) ? 'a list' : typeof value}`);
    return undefined;
  }
  let valid = true;
  const problem: ScheduleProblem = (field, message) => {
    valid = false;
    report(field, message);
  };
  for (const key of Object.keys(value)) {
    if ((SCHEDULE_MEMBERS as readonly string[]).includes(key)) continue;
    problem(`schedule.${key}`, `is not part of a schedule, which takes ${SCHEDULE_MEMBERS.join(', ')}${didYouMean(suggestName(key, SCHEDULE_MEMBERS), '; remove it')}`);
  }
  const start = startOf(value.start, problem);
  const every = everyOf(value.every, problem);
  const at = value.at === undefined ? '00:00' : atOf(value.at, problem);
  const timezone = value.timezone === undefined ? 'UTC' : timezoneOf(value.timezone, problem);
  if (!valid || start === undefined || every === undefined || at === undefined || timezone === undefined) return undefined;
  return { start, every, at, timezone, key: `${start} every ${formatDurationText(every)} at ${at} ${timezone}` };
}

/** `YYYY-MM-DD`, a day of the calendar. A day with a time is refused: the time of day is `at`'s. */
function startOf(value: unknown, problem: ScheduleProblem): string | undefined {
  if (value === undefined) {
    problem('schedule.start', 'is missing; give the first day, e.g. `start: 2026-12-01`');
    return undefined;
  }
  const text = value instanceof Date && !Number.isNaN(value.getTime()) && value.toISOString().endsWith('T00:00:00.000Z') ? value.toISOString().slice(0, 10) : value;
  const match = typeof text === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim()) : null;
  if (match === null) {
    const timeToo = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}[T ]/.test(text.trim());
    const shown = typeof value === 'string' ? JSON.stringify(value) : value === null ? 'empty' : typeof value === 'object' ? 'not text' : String(value);
    problem('schedule.start', timeToo
      ? `${shown} has a time; give only the day in start (2026-12-01) and the time in \`at: "09:00"\``
      : `${shown} is not a date; write the first day as YYYY-MM-DD, e.g. 2026-12-01`);
    return undefined;
  }
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  if (!isCalendarDay(year, month, day)) {
    problem('schedule.start', `${JSON.stringify(text)} is not a date of the calendar; check the month and the day`);
    return undefined;
  }
  return match[0];
}

/** The interval: a duration above zero. */
function everyOf(value: unknown, problem: ScheduleProblem): Duration | undefined {
  if (value === undefined) {
    problem('schedule.every', `is missing; say how often an article goes live, e.g. \`every: 2d\` (${DURATION_EXAMPLES})`);
    return undefined;
  }
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text === 'string' && isBareNumber(text) && Number(text) > 0) {
    problem('schedule.every', `${text} has no unit; write it with one, e.g. ${text.trim()}d for every ${text.trim()} days (${DURATION_EXAMPLES})`);
    return undefined;
  }
  const duration = typeof text === 'string' ? parseDuration(text) : undefined;
  if (duration !== undefined) return duration;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  const zeroOrLess = typeof text === 'string' && /^\s*(-\s*\d|0+(\.0+)?\s*[a-z]*\s*$)/.test(text);
  problem('schedule.every', zeroOrLess
    ? `${shown} is not above zero; an interval must move the calendar on, e.g. 1d, 2d or 1w`
    : `${shown} is not a duration; write it as ${DURATION_EXAMPLES}`);
  return undefined;
}

/** `HH:MM`, 24-hour. */
function atOf(value: unknown, problem: ScheduleProblem): string | undefined {
  const match = typeof value === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(value.trim()) : null;
  if (match !== null && Number(match[1]) < 24 && Number(match[2]) < 60) return `${match[1]!.padStart(2, '0')}:${match[2]}`;
  const shown = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? `the number ${value}` : String(value);
  problem('schedule.at', `${shown} is not a time of day; write it as "HH:MM" on a 24-hour clock, quoted, e.g. at: "09:00"`);
  return undefined;
}

/** An IANA time zone Intl knows, as Intl spells it. */
function timezoneOf(value: unknown, problem: ScheduleProblem): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: value.trim() }).resolvedOptions().timeZone;
    } catch {
      // Not a zone: reported below, with the nearest name.
    }
  }
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  const known = typeof value === 'string' ? suggestName(value, Intl.supportedValuesOf('timeZone')) : undefined;
  problem('schedule.timezone', `${shown} is not a time zone${didYouMean(known, '; write an IANA name such as Europe/Berlin, America/New_York or UTC')}`);
  return undefined;
}
