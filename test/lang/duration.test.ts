import { describe, expect, it } from 'vitest';
import { addDuration, fixedMs, parseDuration } from '../../src/lang/duration.js';
import { ClockSettingError, currentTime } from '../../src/lang/clock.js';

describe('parseDuration', () => {
  it('reads every unit, and a bare number as seconds', () => {
    expect(parseDuration('90s')).toEqual({ amount: 90, unit: 's' });
    expect(parseDuration('500ms')).toEqual({ amount: 500, unit: 'ms' });
    expect(parseDuration('12h')).toEqual({ amount: 12, unit: 'h' });
    expect(parseDuration(' 30d ')).toEqual({ amount: 30, unit: 'd' });
    expect(parseDuration('2w')).toEqual({ amount: 2, unit: 'w' });
    expect(parseDuration('6mo')).toEqual({ amount: 6, unit: 'mo' });
    expect(parseDuration('45')).toEqual({ amount: 45, unit: 's' });
  });

  it('refuses zero, negatives, fractions of months and other text', () => {
    for (const text of ['0d', '-1d', '1.5mo', 'soon', '3 days', '', 'd']) expect(parseDuration(text), text).toBeUndefined();
  });

  it('refuses a length under a millisecond, which would round to 0 ms, and keeps one that rounds to 1 ms', () => {
    for (const text of ['0.4ms', '0.0001s', '0.0000001h']) expect(parseDuration(text), text).toBeUndefined();
    expect(parseDuration('0.5ms')).toEqual({ amount: 0.5, unit: 'ms' });
    expect(fixedMs(parseDuration('0.001s')!)).toBe(1);
  });

  it('gives fixed lengths in ms, and none for months', () => {
    expect(fixedMs({ amount: 2, unit: 'd' })).toBe(172_800_000);
    expect(fixedMs({ amount: 1.5, unit: 'h' })).toBe(5_400_000);
    expect(fixedMs({ amount: 1, unit: 'mo' })).toBeUndefined();
  });
});

describe('addDuration', () => {
  it('steps months on the calendar, keeping the day or the last day of a shorter month', () => {
    const jan31 = new Date('2026-01-31T09:00:00Z');
    expect(addDuration(jan31, { amount: 1, unit: 'mo' }).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(addDuration(jan31, { amount: 1, unit: 'mo' }, 3).toISOString()).toBe('2026-04-30T09:00:00.000Z');
    expect(addDuration(new Date('2026-11-15T00:00:00Z'), { amount: 6, unit: 'mo' }).toISOString()).toBe('2027-05-15T00:00:00.000Z');
  });

  it('adds fixed units as lengths, times over', () => {
    expect(addDuration(new Date('2026-12-01T00:00:00Z'), { amount: 2, unit: 'd' }, 3).toISOString()).toBe('2026-12-07T00:00:00.000Z');
  });
});

describe('currentTime', () => {
  it('is the fixed instant ARTICLE_LOADER_NOW names, else the machine clock', () => {
    expect(currentTime({ ARTICLE_LOADER_NOW: '2026-12-01T09:00:00Z' }).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    const before = Date.now();
    expect(currentTime({}).getTime()).toBeGreaterThanOrEqual(before);
  });

  it('refuses a value that is not a date, naming the variable', () => {
    expect(() => currentTime({ ARTICLE_LOADER_NOW: 'tomorrow' })).toThrow(ClockSettingError);
    expect(() => currentTime({ ARTICLE_LOADER_NOW: 'tomorrow' })).toThrow(/ARTICLE_LOADER_NOW="tomorrow" is not a date/);
  });
});
