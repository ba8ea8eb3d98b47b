// What the site owner keeps on an entry besides the request: own data, draft, publish date, schedule and refresh age. Never sent to the service and never part of the request hash, so changing them costs nothing.
import { isCalendarDay } from '../lang/calendar-day.js';
import { isPlainObject } from '../lang/plain-object.js';
import type { Duration } from '../lang/duration.js';
import { dataFieldClash } from './built-in-entry-fields.js';
import { refreshAfterOf } from './refresh-after.js';
import { scheduleOf, type Schedule } from './schedule.js';

/** Entry (and `defaults`) keys that are the site's, not the service's. */
export const SITE_FIELDS = ['data', 'draft', 'publishDate', 'schedule', 'refreshAfter'] as const;
export type SiteField = (typeof SITE_FIELDS)[number];

/** The site's fields of one entry, checked, with `defaults` applied. */
export interface SiteFields {
  /** The owner's own fields, shown on `entry.data.<field>`: the entry's over the defaults', member by member. */
  data: Record<string, unknown>;
  /** Left out of `astro build` unless the loader option `drafts` is on; created and shown in `astro dev`. */
  draft: boolean;
  /** When the article may appear on the built site; later than the build, it is left out like a draft. */
  publishDate?: Date;
  /**
   * The cadence that gives this entry its date (see `manifest/schedule-calendar.ts`): set when the entry or `defaults` has
   * a `schedule` and the entry has no `publishDate` of its own. The date itself comes from the calendar, not the manifest.
   */
  schedule?: Schedule;
  /** How old the served article may grow before `sync --refresh` pays for a new one (see `sync/refresh-due.ts`). */
  refreshAfter?: Duration;
}

/** The site's values as written on one entry or in `defaults` (only those given). */
export type SiteValues = Partial<Record<SiteField, unknown>>;

/** Reports one problem of a site field: the field (dotted for `data.<name>`) and what is wrong. */
export type SiteProblem = (field: string, message: string) => void;

/** `YYYY-MM-DD`, or a date and time with an optional time zone (ISO 8601 as YAML, JSON and spreadsheets write it). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The date a `publishDate` value stands for, or why it is not one. A date without a time is midnight UTC. */
export function publishDateOf(value: unknown): Date | string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'is not a valid date' : value;
  if (typeof value !== 'string') return `must be a date written as text, e.g. "2026-12-01" or "2026-12-01T09:00:00Z", not ${value === null ? 'empty' : typeof value}`;
  const match = ISO_DATE.exec(value.trim());
  if (match === null) return `${JSON.stringify(value)} is not a date; write it as YYYY-MM-DD (e.g. 2026-12-01), or with a time: 2026-12-01T09:00:00Z`;
  const [, year, month, day] = match;
  const date = new Date(match[4] === undefined ? `${year}-${month}-${day}T00:00:00Z` : value.trim().replace(' ', 'T'));
  // `2026-02-30` parses to March 2nd in some engines: the day must survive the round trip.
  if (Number.isNaN(date.getTime()) || !isCalendarDay(Number(year), Number(month), Number(day))) {
    return `${JSON.stringify(value)} is not a date of the calendar; check the month and the day`;
  }
  return date;
}

/** The checked `data` map, or undefined after reporting why it is not one. */
function dataOf(value: unknown, report: SiteProblem): Record<string, unknown> | undefined {
  if (value === undefined) return {};
  if (!isPlainObject(value)) {
    report('data', 'must be a mapping of your own fields (e.g. `data: { category: gear, author: Ana }`), not a single value');
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key.trim() === '' || key !== key.trim()) report(`data.${key}`, 'is not a usable field name; give it a name without leading or trailing spaces');
    // It would hide the loader's own field (entry.data.title), and the build would refuse the article after it was paid for.
    const clash = dataFieldClash(key);
    if (clash !== undefined) report(`data.${key}`, clash);
  }
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));
}

/** Checks the site fields given in `defaults` (each reported under its own name); returns the valid ones. */
export function checkSiteDefaults(values: SiteValues, report: SiteProblem): SiteValues {
  const valid: SiteValues = {};
  if (values.data !== undefined) {
    const data = dataOf(values.data, report);
    if (data !== undefined) valid.data = data;
  }
  if (values.draft !== undefined) {
    if (typeof values.draft === 'boolean') valid.draft = values.draft;
    else report('draft', 'must be true or false');
  }
  if (values.publishDate !== undefined) {
    const date = publishDateOf(values.publishDate);
    if (typeof date === 'string') report('publishDate', date);
    else valid.publishDate = date;
  }
  if (values.schedule !== undefined) {
    const schedule = scheduleOf(values.schedule, report);
    if (schedule !== undefined) valid.schedule = schedule;
  }
  if (values.publishDate !== undefined && values.schedule !== undefined) {
    report('schedule', 'is given with `publishDate`, which would win; keep one: a fixed date or a cadence');
  }
  if (values.refreshAfter !== undefined) {
    const duration = refreshAfterOf(values.refreshAfter);
    if (typeof duration === 'string') report('refreshAfter', duration);
    else valid.refreshAfter = duration;
  }
  return valid;
}

/** The site fields of one entry: its own values over the (checked) defaults'. */
export function resolveSiteFields(own: SiteValues, defaults: SiteValues, report: SiteProblem): SiteFields {
  const checked = checkSiteDefaults(own, report);
  const data = { ...((defaults.data as Record<string, unknown> | undefined) ?? {}), ...((checked.data as Record<string, unknown> | undefined) ?? {}) };
  // The entry's own date or cadence wins over the defaults' (which cannot hold both).
  const ownDate = checked.publishDate !== undefined || checked.schedule !== undefined;
  const publishDate = (ownDate ? checked.publishDate : defaults.publishDate) as Date | undefined;
  const schedule = (ownDate ? checked.schedule : defaults.schedule) as Schedule | undefined;
  const refreshAfter = (checked.refreshAfter ?? defaults.refreshAfter) as Duration | undefined;
  return {
    data,
    draft: ((checked.draft ?? defaults.draft) as boolean | undefined) ?? false,
    ...(publishDate === undefined ? {} : { publishDate }),
    ...(schedule === undefined ? {} : { schedule }),
    ...(refreshAfter === undefined ? {} : { refreshAfter }),
  };
}
