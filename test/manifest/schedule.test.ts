// The content calendar's pure rules: the schedule field, its slots across DST, and the dates given to entries as they are added, removed and reordered, with the lock file before and after.
import { describe, expect, it } from 'vitest';
import { calendarDates, formatManifestProblem, offSchedule, parseManifest, unrecordedDates, withCalendar, type Manifest } from '../../src/manifest/index.js';
import { firstSlotFrom, slotAt } from '../../src/manifest/schedule-slots.js';
import { scheduleOf, type Schedule } from '../../src/manifest/schedule.js';
import { emptyLockFile, parseLockFile, requestHash, serializeLockFile, type LockFile } from '../../src/sync/index.js';
import { refusal as refusalOf } from './refusal.js';

const refusal = (text: string, file = 'articles.yaml'): string[] => refusalOf(text, file).problems.map(formatManifestProblem);

function schedule(value: Record<string, unknown>): Schedule {
  const problems: string[] = [];
  const checked = scheduleOf(value, (field, message) => problems.push(`${field}: ${message}`));
  expect(problems).toEqual([]);
  return checked!;
}

function manifestOf(keywords: readonly string[], scheduleYaml = '{ start: 2026-12-01, every: 2d, at: "09:00", timezone: Europe/Berlin }'): Manifest {
  return parseManifest(['defaults:', `  schedule: ${scheduleYaml}`, 'articles:', ...keywords.map((keyword) => `  - ${keyword}`), ''].join('\n'), 'articles.yaml');
}

/** Runs the calendar as a pass that writes the lock file does: every date it gives is recorded. */
function record(manifest: Manifest, lock: Record<string, string>, now: Date): Record<string, string> {
  return { ...lock, ...unrecordedDates(calendarDates(manifest.specs, lock, now)) };
}

const BEFORE_START = new Date('2026-11-20T00:00:00Z');
const ids = (text: string) => text.toLowerCase().replaceAll(' ', '-');

describe('the schedule field', () => {
  it('should refuse an interval without a unit, saying which to add', () => {
    expect(refusal('defaults:\n  schedule: { start: 2026-12-01, every: 2 }\narticles:\n  - one\n')).toEqual([expect.stringContaining('schedule.every: 2 has no unit; write it with one, e.g. 2d for every 2 days')]);
  });

  it('should read start, every, at and timezone, with UTC and midnight by default, one key per equal schedule', () => {
    const { specs } = parseManifest(['defaults:', '  schedule: { start: 2026-12-01, every: 1w }', 'articles:', '  - one', '  - keyword: two', '    schedule: { start: "2026-12-01", every: 7d, at: "9:30", timezone: europe/berlin }', ''].join('\n'), 'articles.yaml');
    expect(specs[0]!.schedule).toMatchObject({ start: '2026-12-01', every: { amount: 1, unit: 'w' }, at: '00:00', timezone: 'UTC' });
    expect(specs[1]!.schedule).toMatchObject({ at: '09:30', timezone: 'Europe/Berlin' });
    expect(specs[0]!.schedule!.key).not.toBe(specs[1]!.schedule!.key);
  });

  it('should not schedule an entry with its own publishDate, and never send or hash the schedule', () => {
    const plain = parseManifest('articles:\n  - one\n', 'articles.yaml');
    const { specs } = parseManifest(['defaults:', '  schedule: { start: 2026-12-01, every: 1d }', 'articles:', '  - one', '  - keyword: two', '    publishDate: 2026-10-01', ''].join('\n'), 'articles.yaml');
    expect(specs[0]!.schedule).toBeDefined();
    expect(specs[1]!.schedule).toBeUndefined();
    expect(specs[1]!.publishDate?.toISOString()).toBe('2026-10-01T00:00:00.000Z');
    expect(requestHash(specs[0]!.request)).toBe(requestHash(plain.specs[0]!.request));
  });

  it('should name the file, defaults or the entry, and the field, for each bad value', () => {
    expect(refusal('defaults:\n  schedule: { start: 2026-13-45, every: 2d }\narticles: [one]\n')).toEqual([
      'articles.yaml:2 defaults → schedule.start: "2026-13-45" is not a date of the calendar; check the month and the day',
    ]);
    expect(refusal('articles:\n  - keyword: one\n    schedule: { start: tomorrow, every: 0d }\n')).toEqual([
      'articles.yaml:3 articles[0] "one" → schedule.start: "tomorrow" is not a date; write the first day as YYYY-MM-DD, e.g. 2026-12-01',
      'articles.yaml:3 articles[0] "one" → schedule.every: "0d" is not above zero; an interval must move the calendar on, e.g. 1d, 2d or 1w',
    ]);
    const [negative] = refusal('defaults:\n  schedule: { start: 2026-12-01, every: -2d }\narticles: [one]\n');
    expect(negative).toContain('schedule.every: "-2d" is not above zero');
    const [zone] = refusal('defaults:\n  schedule: { start: 2026-12-01, every: 2d, timezone: Europe/Berln }\narticles: [one]\n');
    expect(zone).toBe('articles.yaml:2 defaults → schedule.timezone: "Europe/Berln" is not a time zone; did you mean "Europe/Berlin"?');
    const [at] = refusal('defaults:\n  schedule: { start: 2026-12-01, every: 2d, at: 25:00 }\narticles: [one]\n');
    expect(at).toContain('schedule.at: "25:00" is not a time of day');
    const [member] = refusal('defaults:\n  schedule: { start: 2026-12-01, evry: 2d }\narticles: [one]\n');
    expect(member).toContain('schedule.evry: is not part of a schedule, which takes start, every, at, timezone; did you mean "every"?');
    expect(refusal('defaults:\n  schedule: 2d\narticles: [one]\n')[0]).toContain('defaults → schedule: must be a mapping with start and every');
    expect(refusal('schedule: { start: 2026-12-01, every: 2d }\narticles: [one]\n')[0]).toContain('top level → schedule: belongs under `defaults:` (for every article) or on an entry');
    expect(refusal('defaults:\n  schedule: { start: 2026-12-01, every: 2d }\n  publishDate: 2026-12-01\narticles: [one]\n')[0]).toContain('→ schedule: is given with `publishDate`');
    expect(refusal('defaults:\n  schedule: { start: "2026-12-01T09:00:00Z", every: 2d }\narticles: [one]\n')[0]).toContain('has a time; give only the day in start');
  });
});

describe('the slots of a schedule', () => {
  it('should keep the wall-clock time across a daylight saving change (Berlin, March 29th 2026)', () => {
    const daily = schedule({ start: '2026-03-27', every: '1d', at: '09:00', timezone: 'Europe/Berlin' });
    expect([0, 1, 2, 3].map((k) => slotAt(daily, k).toISOString())).toEqual([
      '2026-03-27T08:00:00.000Z', // CET, +01:00
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z', // CEST, +02:00 from this morning
      '2026-03-30T07:00:00.000Z',
    ]);
  });

  it('should move a time the clock skips on by the gap, and step months by the calendar', () => {
    const skipped = schedule({ start: '2026-03-08', every: '1d', at: '02:30', timezone: 'America/New_York' });
    expect(slotAt(skipped, 0).toISOString()).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(slotAt(skipped, 1).toISOString()).toBe('2026-03-09T06:30:00.000Z'); // 02:30 EDT
    const monthly = schedule({ start: '2026-01-31', every: '1mo' });
    expect([0, 1, 2].map((k) => slotAt(monthly, k).toISOString().slice(0, 10))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
  });

  it('should step the clock, not the calendar, for intervals shorter than a day', () => {
    const hourly = schedule({ start: '2026-03-29', every: '12h', at: '00:00', timezone: 'Europe/Berlin' });
    expect(slotAt(hourly, 1).getTime() - slotAt(hourly, 0).getTime()).toBe(12 * 3_600_000);
  });

  it('should find the first slot from an instant, at or strictly after', () => {
    const every2d = schedule({ start: '2026-12-01', every: '2d', at: '09:00', timezone: 'UTC' });
    expect(firstSlotFrom(every2d, new Date('2026-12-03T09:00:00Z'))).toBe(1);
    expect(firstSlotFrom(every2d, new Date('2026-12-03T09:00:00Z'), true)).toBe(2);
    expect(firstSlotFrom(every2d, new Date('2020-01-01T00:00:00Z'))).toBe(0);
    expect(firstSlotFrom(every2d, new Date('2036-12-04T00:00:00Z'))).toBe(1828);
  });
});

describe('the calendar', () => {
  const first = ['alpha one', 'bravo two', 'charlie three', 'delta four'];

  it('should give entries the slots in manifest order from the start', () => {
    const dates = calendarDates(manifestOf(first).specs, {}, BEFORE_START);
    expect([...dates.values()].map((date) => [date.slug, date.date.toISOString(), date.recorded])).toEqual([
      ['alpha-one', '2026-12-01T08:00:00.000Z', false],
      ['bravo-two', '2026-12-03T08:00:00.000Z', false],
      ['charlie-three', '2026-12-05T08:00:00.000Z', false],
      ['delta-four', '2026-12-07T08:00:00.000Z', false],
    ]);
  });

  it('should give the translations of one entry one date, and a language added later the date its siblings were given', () => {
    const manifest = (french: boolean) => {
      const more = (keyword: string) => (french ? `, French: ${keyword}` : '');
      const entries = [`  - keyword: { English: trail shoes, German: Laufschuhe${more('chaussures de trail')} }`, `  - keyword: { English: hiking boots, German: Wanderschuhe${more('chaussures de randonnée')} }`];
      return parseManifest(['defaults:', '  schedule: { start: 2026-12-01, every: 2d }', `  languages: [English, German${french ? ', French' : ''}]`, 'articles:', ...entries, ''].join('\n'), 'articles.yaml');
    };
    const lock = record(manifest(false), {}, BEFORE_START);
    expect(lock).toEqual({
      'en/trail-shoes': '2026-12-01T00:00:00.000Z',
      'de/laufschuhe': '2026-12-01T00:00:00.000Z',
      'en/hiking-boots': '2026-12-03T00:00:00.000Z',
      'de/wanderschuhe': '2026-12-03T00:00:00.000Z',
    });
    const added = record(manifest(true), lock, new Date('2026-12-02T00:00:00Z'));
    expect(added).toMatchObject({ 'fr/chaussures-de-trail': '2026-12-01T00:00:00.000Z', 'fr/chaussures-de-randonnee': '2026-12-03T00:00:00.000Z' });
  });

  it('should leave every recorded date where it is when entries are inserted in the middle, removed and reordered', () => {
    const lock = record(manifestOf(first), {}, BEFORE_START);
    const later = new Date('2026-12-04T00:00:00Z');
    const changed = manifestOf(['delta four', 'new in the middle', 'alpha one', 'charlie three', 'another new one']);
    const after = record(changed, lock, later);
    for (const slug of ['alpha-one', 'charlie-three', 'delta-four']) expect(after[slug]).toBe(lock[slug]);
    // Removed: its date stays recorded (it comes back with it), and the new ones follow the latest given date.
    expect(after['bravo-two']).toBe(lock['bravo-two']);
    expect(after['new-in-the-middle']).toBe('2026-12-09T08:00:00.000Z');
    expect(after['another-new-one']).toBe('2026-12-11T08:00:00.000Z');
  });

  it('should keep a past date in the past, and start entries added after the calendar ran out from the next slot after now, one slot apart', () => {
    const lock = record(manifestOf(first), {}, BEFORE_START);
    const long = new Date('2027-02-01T12:00:00Z');
    const after = record(manifestOf([...first, 'late one', 'late two']), lock, long);
    expect(after['alpha-one']).toBe('2026-12-01T08:00:00.000Z');
    expect([after['late-one'], after['late-two']]).toEqual(['2027-02-03T08:00:00.000Z', '2027-02-05T08:00:00.000Z']);
  });

  it('should begin a start already past at the next slot from now, so a first build publishes no backlog', () => {
    const dates = calendarDates(manifestOf(first).specs, {}, new Date('2026-12-04T10:00:00Z'));
    expect(dates.get('alpha-one')!.date.toISOString()).toBe('2026-12-05T08:00:00.000Z');
  });

  it('should keep groups apart: an entry with its own schedule is on its own calendar', () => {
    const manifest = parseManifest(['defaults:', '  schedule: { start: 2026-12-01, every: 1d }', 'articles:', '  - one', '  - keyword: two', '    schedule: { start: 2027-01-01, every: 1w }', '  - three', ''].join('\n'), 'articles.yaml');
    const dates = calendarDates(manifest.specs, {}, BEFORE_START);
    expect(Object.fromEntries([...dates].map(([slug, date]) => [slug, date.date.toISOString().slice(0, 10)]))).toEqual({ one: '2026-12-01', two: '2027-01-01', three: '2026-12-02' });
  });

  it('should give a draft no date until it is one no more, then the next free slot', () => {
    const manifest = parseManifest(['defaults:', '  schedule: { start: 2026-12-01, every: 1d }', 'articles:', '  - keyword: one', '    draft: true', '  - two', ''].join('\n'), 'articles.yaml');
    const lock = record(manifest, {}, BEFORE_START);
    expect(lock).toEqual({ two: '2026-12-01T00:00:00.000Z' });
    expect(record(manifestOf(['one', 'two'], '{ start: 2026-12-01, every: 1d }'), lock, BEFORE_START).one).toBe('2026-12-02T00:00:00.000Z');
  });

  it('should keep recorded dates when start or every change later, and say they are off the slots', () => {
    const lock = record(manifestOf(first), {}, BEFORE_START);
    const moved = manifestOf([...first, 'echo five'], '{ start: 2026-12-02, every: 3d, at: "09:00", timezone: Europe/Berlin }');
    const dates = calendarDates(moved.specs, lock, BEFORE_START);
    expect(dates.get('alpha-one')!.date.toISOString()).toBe(lock['alpha-one']);
    expect(dates.get('echo-five')!.date.toISOString()).toBe('2026-12-08T08:00:00.000Z');
    expect(offSchedule(moved.specs, dates)).toEqual(['alpha-one', 'bravo-two', 'delta-four']); // December 5th is a slot of both
  });

  it('should put each date on the entry as its publishDate', () => {
    const manifest = manifestOf(first);
    const scheduled = withCalendar(manifest, calendarDates(manifest.specs, {}, BEFORE_START));
    expect(scheduled.specs.map((spec) => spec.publishDate?.toISOString().slice(0, 10))).toEqual(['2026-12-01', '2026-12-03', '2026-12-05', '2026-12-07']);
    expect(manifest.specs[0]!.publishDate).toBeUndefined();
    expect(first.map(ids)).toEqual(scheduled.specs.map((spec) => spec.slug));
  });
});

describe('the recorded dates in the lock file', () => {
  it('should write no schedule member for a site without one: the same bytes as before', () => {
    const lock: LockFile = emptyLockFile();
    const before = serializeLockFile(lock);
    expect(serializeLockFile({ ...lock, schedule: {} })).toBe(before);
    expect(before).toBe('{\n  "version": 1,\n  "articles": {}\n}\n');
  });

  it('should write the dates sorted by slug after the articles, and read them back', () => {
    const text = serializeLockFile({ ...emptyLockFile(), schedule: { 'b-two': '2026-12-03T08:00:00.000Z', 'a-one': '2026-12-01T08:00:00.000Z' } });
    expect(text).toBe('{\n  "version": 1,\n  "articles": {},\n  "schedule": {\n    "a-one": "2026-12-01T08:00:00.000Z",\n    "b-two": "2026-12-03T08:00:00.000Z"\n  }\n}\n');
    expect(parseLockFile(text, 'articles.lock.json').schedule).toEqual({ 'a-one': '2026-12-01T08:00:00.000Z', 'b-two': '2026-12-03T08:00:00.000Z' });
    expect(() => parseLockFile(text.replace('2026-12-03T08:00:00.000Z', 'soon'), 'articles.lock.json')).toThrow(/schedule\.b-two must be an ISO 8601 date-time/);
  });
});

describe('the schedule in a CSV', () => {
  it('should read schedule.<member> columns, rows with the same cells sharing one calendar', () => {
    const csv = ['keyword,Schedule.Start,schedule.every,schedule.at,schedule.timezone', 'one,2026-12-01,2d,09:00,Europe/Berlin', 'two,2026-12-01,2d,09:00,Europe/Berlin', 'three,,,,', ''].join('\n');
    const { specs } = parseManifest(csv, 'articles.csv');
    expect(specs[0]!.schedule?.key).toBe(specs[1]!.schedule?.key);
    expect(specs[2]!.schedule).toBeUndefined();
    expect(refusal('keyword,schedule.start\none,2026-12-01\n', 'articles.csv')).toEqual([
      'articles.csv:2 articles[0] "one" → schedule.every: is missing; say how often an article goes live, e.g. `every: 2d` (90s, 30m, 12h, 30d, 2w or 6mo)',
    ]);
  });
});
