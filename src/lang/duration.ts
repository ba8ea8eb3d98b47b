// Durations as site owners write them (`90s`, `30m`, `12h`, `30d`, `2w`, `6mo`): one parser for the CLI's flags and the manifest's calendar fields.

export const DURATION_UNITS = ['ms', 's', 'm', 'h', 'd', 'w', 'mo'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

/** A parsed duration: months are calendar months (their length varies), every other unit is a fixed length. */
export interface Duration {
  amount: number;
  unit: DurationUnit;
}

const FIXED_MS: Record<Exclude<DurationUnit, 'mo'>, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** The examples an error message shows. */
export const DURATION_EXAMPLES = '90s, 30m, 12h, 30d, 2w or 6mo';

/** A number without a unit: the CLI's flags read it as seconds; the manifest refuses it (`refreshAfter: 30` is rarely 30 seconds). */
export function isBareNumber(text: string): boolean {
  return /^\d+(?:\.\d+)?$/.test(text.trim());
}

/**
 * The duration `text` stands for, or undefined when it is not one (or is zero, or shorter than a millisecond: `0.4ms`
 * would poll or time out at 0 ms). A bare number is seconds, as the CLI's flags have always taken it (the manifest's
 * fields refuse it first, see `isBareNumber`). Months must be whole.
 */
export function parseDuration(text: string): Duration | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w|mo)?$/.exec(text.trim());
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's') as DurationUnit;
  if (!(amount > 0) || (unit === 'mo' && !Number.isInteger(amount))) return undefined;
  const duration = { amount, unit };
  return (fixedMs(duration) ?? 1) < 1 ? undefined : duration;
}

/** The length in ms, or undefined for months (whose length depends on the date they start from). */
export function fixedMs(duration: Duration): number | undefined {
  return duration.unit === 'mo' ? undefined : Math.round(duration.amount * FIXED_MS[duration.unit]);
}

/**
 * `date` moved on by `duration` × `times`. Months step the UTC calendar and keep the day of the month, or the
 * month's last day when it is shorter (Jan 31 + 1mo = Feb 28/29).
 */
export function addDuration(date: Date, duration: Duration, times = 1): Date {
  const ms = fixedMs(duration);
  if (ms !== undefined) return new Date(date.getTime() + ms * times);
  const months = date.getUTCMonth() + duration.amount * times;
  const target = new Date(date.getTime());
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), months + 1, 0)).getUTCDate();
  target.setUTCFullYear(date.getUTCFullYear(), months, Math.min(date.getUTCDate(), lastDay));
  return target;
}

/** `6mo`, `30d`: how a duration is written back in messages and reports. */
export function formatDurationText(duration: Duration): string {
  return `${duration.amount}${duration.unit}`;
}
