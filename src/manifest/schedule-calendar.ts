// The calendar rule: which date each scheduled entry goes live on, given the dates already recorded and the time now. Pure: the lock file is read and written by the callers.
import type { ArticleSpec, Manifest } from './article-spec.js';
import { firstSlotFrom, slotAt } from './schedule-slots.js';
import type { Schedule } from './schedule.js';

/** A scheduled entry's date: `recorded` when the lock file holds it (it never moves), else proposed by the rule. */
export interface CalendarDate {
  slug: string;
  date: Date;
  recorded: boolean;
  /** Its schedule's key: entries with equal schedules share one calendar. */
  group: string;
}

/**
 * The date of every scheduled entry (`spec.schedule` set). A recorded date is kept as it is, past or
 * future, whatever the schedule says now. The others, in manifest order within their group, take
 * the group's next slots after the latest recorded date of the group, but never a slot earlier than
 * `now` (so entries added after the calendar ran out go live one slot apart, not all at once, and
 * a start already past begins at the next slot from now). A draft without a recorded date gets
 * none: it takes its slot when it stops being a draft. The translations of one entry (`languages`)
 * share one slot, so a page and its hreflang alternates go live together; a language added later
 * takes the date its siblings were given.
 */
export function calendarDates(specs: readonly ArticleSpec[], recorded: Readonly<Record<string, string>>, now: Date): Map<string, CalendarDate> {
  const groups = new Map<string, { schedule: Schedule; specs: ArticleSpec[] }>();
  for (const spec of specs) {
    if (spec.schedule === undefined) continue;
    const group = groups.get(spec.schedule.key) ?? { schedule: spec.schedule, specs: [] };
    group.specs.push(spec);
    groups.set(spec.schedule.key, group);
  }
  const dates = new Map<string, CalendarDate>();
  for (const [key, { schedule, specs: members }] of groups) {
    let latest: Date | undefined;
    // One date per entry: its translations' first recorded date is the one the others take.
    const entryDates = new Map<string, Date>();
    for (const spec of members) {
      const given = recorded[spec.slug];
      if (given === undefined) continue;
      const date = new Date(given);
      dates.set(spec.slug, { slug: spec.slug, date, recorded: true, group: key });
      if (!entryDates.has(entryOf(spec))) entryDates.set(entryOf(spec), date);
      if (latest === undefined || date > latest) latest = date;
    }
    let k = Math.max(latest === undefined ? 0 : firstSlotFrom(schedule, latest, true), firstSlotFrom(schedule, now));
    for (const spec of members) {
      if (dates.has(spec.slug) || spec.draft) continue;
      let date = entryDates.get(entryOf(spec));
      if (date === undefined) entryDates.set(entryOf(spec), (date = slotAt(schedule, k++)));
      dates.set(spec.slug, { slug: spec.slug, date, recorded: false, group: key });
    }
  }
  return dates;
}

/** The manifest entry a spec comes from: its translations share it. */
function entryOf(spec: ArticleSpec): string {
  return spec.translation === undefined ? `slug:${spec.slug}` : `translation:${spec.translation.key}`;
}

/** The manifest with each scheduled entry's date as its `publishDate`, so a build leaves it out until then like any future date. */
export function withCalendar(manifest: Manifest, dates: ReadonlyMap<string, CalendarDate>): Manifest {
  if (dates.size === 0) return manifest;
  const specs = manifest.specs.map((spec) => {
    const date = dates.get(spec.slug);
    return date === undefined ? spec : { ...spec, publishDate: date.date };
  });
  return { ...manifest, specs };
}

/** The dates the rule proposed and the lock file does not hold yet, as ISO text: what a pass that writes the lock file records. */
export function unrecordedDates(dates: ReadonlyMap<string, CalendarDate>): Record<string, string> {
  return Object.fromEntries([...dates.values()].filter((date) => !date.recorded).map((date) => [date.slug, date.date.toISOString()]));
}

/**
 * The scheduled entries whose recorded date is not one of their schedule's slots now: the schedule's start,
 * interval or time changed after the date was given. Their dates stay; `plan` says so.
 */
export function offSchedule(specs: readonly ArticleSpec[], dates: ReadonlyMap<string, CalendarDate>): string[] {
  return specs.flatMap((spec) => {
    const date = dates.get(spec.slug);
    if (spec.schedule === undefined || date === undefined || !date.recorded) return [];
    const slot = slotAt(spec.schedule, firstSlotFrom(spec.schedule, date.date));
    return slot.getTime() === date.date.getTime() ? [] : [spec.slug];
  });
}
