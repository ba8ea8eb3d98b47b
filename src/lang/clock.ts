// The time "now" for the calendar's rules (publish dates, scheduled dates, refresh ages): the machine's clock, or a fixed instant set by ARTICLE_LOADER_NOW to preview a date or test one.
import { ArticleLoaderError } from '../errors.js';
import { envValue } from './env-value.js';

export const NOW_ENV = 'ARTICLE_LOADER_NOW';

/** Thrown when ARTICLE_LOADER_NOW is set but is not a date: a preview of the wrong day must not pass for today. */
export class ClockSettingError extends ArticleLoaderError {
  constructor(value: string) {
    super('invalid_now', `${NOW_ENV}=${JSON.stringify(value)} is not a date and time; write it as ISO 8601 (e.g. 2026-12-01T09:00:00Z), or unset it to use the machine's clock`);
  }
}

/** Now: the instant ARTICLE_LOADER_NOW names when it is set, else the machine's clock. */
export function currentTime(env: NodeJS.ProcessEnv = process.env): Date {
  const value = envValue(env, NOW_ENV);
  if (value === undefined) return new Date();
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new ClockSettingError(value);
  return date;
}
