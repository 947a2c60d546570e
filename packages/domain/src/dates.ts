import { z } from 'zod';

// Calendar days of requests (yyyy-MM-dd, America/Santiago semantics decided by each endpoint): the ONE
// date type of every request schema. `calendarDate` refuses days that do not exist ('2025-13-45',
// '2025-02-30') and years PostgreSQL or the screens cannot use, so such input is a 400 naming the field
// instead of reaching SQL. Longer strings are accepted and cut to 10 characters by the endpoints
// (seed 001 §9); `calendarDay` does the cut itself.

/** Smallest and largest year accepted in a request date. */
export const CALENDAR_DATE_MIN_YEAR = 1900;
export const CALENDAR_DATE_MAX_YEAR = 9999;

/** True when the first 10 characters of `s` are an existing yyyy-MM-dd day within the accepted years. */
export function isCalendarDate(s: string): boolean {
  const d = s.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return false;
  const year = Number(d.slice(0, 4));
  if (year < CALENDAR_DATE_MIN_YEAR || year > CALENDAR_DATE_MAX_YEAR) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(d);
}

export const calendarDate = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}/, 'fecha inválida (yyyy-MM-dd)')
  .refine(isCalendarDate, 'fecha inexistente (yyyy-MM-dd)');

/** A calendar date cut to its first 10 characters (yyyy-MM-dd), e.g. for the Filters' from_date/to_date. */
export const calendarDay = calendarDate.transform((s) => s.slice(0, 10));
