import {
  cutDate,
  DEFAULT_TIMEZONE,
  daysInclusive,
  isCalendarDate,
  isoDateInZone,
  minusMonths,
} from '@vigia/domain';
import { badRequest } from '../lib/errors.js';

// Days and periods of every analysis call: yyyy-MM-dd calendar days in America/Santiago, inclusive;
// longer strings are cut to 10 characters (seed 001 §9).

/** The time zone of market days, as SQL text: `(now() at time zone ${TZ_SQL})::date` is today. */
export const TZ_SQL = `'${DEFAULT_TIMEZONE}'`;

// An existing day within the accepted years (packages/domain/src/dates.ts), exactly 10 characters.
const isRealDay = (d: string) => d.length === 10 && isCalendarDate(d);

/** Today's market day (America/Santiago). */
export function today(now = new Date()): string {
  return isoDateInZone(now, DEFAULT_TIMEZONE);
}

/**
 * Resolves a period — the one period and window rule of every analysis call (docs/metrics.md "Period and
 * window"): missing `to` = today; missing `from` = `defaultFrom(to)`. A malformed day, `from` after `to`,
 * a `to` after today (with `notAfterToday`) or a period longer than `maxDays` is a 400 naming the field.
 */
export function resolvePeriod(
  input: { from?: string | null; to?: string | null },
  fields: { from: string; to: string },
  opts: { maxDays: number; defaultFrom?: (to: string) => string; now?: Date; notAfterToday?: boolean },
): { from: string; to: string } {
  const now = today(opts.now);
  const to = input.to ? cutDate(input.to) : now;
  if (!isRealDay(to)) throw badRequest(`${fields.to}: fecha inválida (yyyy-MM-dd)`, fields.to);
  const from = input.from ? cutDate(input.from) : (opts.defaultFrom ?? ((t) => minusMonths(t, 1)))(to);
  if (!isRealDay(from)) throw badRequest(`${fields.from}: fecha inválida (yyyy-MM-dd)`, fields.from);
  if (from > to) throw badRequest(`${fields.to}: la fecha final es anterior a la inicial`, fields.to);
  if (opts.notAfterToday && to > now)
    throw badRequest(`${fields.to}: la fecha final no puede ser posterior a hoy`, fields.to);
  if (daysInclusive(from, to) > opts.maxDays) {
    throw badRequest(`${fields.from}: el período no puede superar ${opts.maxDays} días`, fields.from);
  }
  return { from, to };
}
