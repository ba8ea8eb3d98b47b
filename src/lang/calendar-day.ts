// Whether a year, month and day name a day of the calendar: `2026-02-30` does not (Date would roll it over to March 2nd).

/** True when `day` is a day of `month` (1–12) of `year`, in the Gregorian calendar. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
