// isCalendarDay: the one rule for "is this a day of the calendar" that publishDate and schedule.start share.
import { describe, expect, it } from 'vitest';
import { isCalendarDay } from '../../src/lang/calendar-day.js';

describe('isCalendarDay', () => {
  it('should take the last day of each month and leap days, and refuse the day after', () => {
    expect(isCalendarDay(2026, 1, 31)).toBe(true);
    expect(isCalendarDay(2026, 4, 31)).toBe(false);
    expect(isCalendarDay(2026, 2, 28)).toBe(true);
    expect(isCalendarDay(2026, 2, 29)).toBe(false);
    expect(isCalendarDay(2028, 2, 29)).toBe(true);
    expect(isCalendarDay(2100, 2, 29)).toBe(false);
  });

  it('should refuse months and days outside their range', () => {
    expect(isCalendarDay(2026, 0, 1)).toBe(false);
    expect(isCalendarDay(2026, 13, 1)).toBe(false);
    expect(isCalendarDay(2026, 12, 0)).toBe(false);
  });
});
