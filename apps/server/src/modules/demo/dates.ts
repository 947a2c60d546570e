// Calendar helpers for the demo generator. Days are "absolute day numbers" (days since 1970-01-01 of a
// calendar date, no time zone); instants are computed in America/Santiago (with its summer time).

export const SANTIAGO = 'America/Santiago';
const DAY_MS = 86_400_000;

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SANTIAGO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: SANTIAGO,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Today's date in Santiago, yyyy-MM-dd. */
export function santiagoToday(now = new Date()): string {
  return dayFormat.format(now);
}

export function parseDay(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new Error(`fecha inválida: ${day}`);
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

export function formatDay(abs: number): string {
  return new Date(abs * DAY_MS).toISOString().slice(0, 10);
}

/** Day of week, Monday = 0 … Sunday = 6 (1970-01-01 was a Thursday). */
export function weekday(abs: number): number {
  return (abs + 3) % 7;
}

/** Offset of Santiago from UTC at an instant, in minutes (e.g. −180 in summer). */
function offsetMinutes(utcMs: number): number {
  const p: Record<string, number> = {};
  for (const part of partsFormat.formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** The instant of `minutes` after midnight of day `abs` in Santiago. */
export function santiagoInstant(abs: number, minutes: number): Date {
  const local = abs * DAY_MS + minutes * 60_000;
  let t = local + 4 * 3_600_000;
  t = local - offsetMinutes(t) * 60_000;
  t = local - offsetMinutes(t) * 60_000;
  return new Date(t);
}

/** nth (1-based) given weekday (Monday = 0) of a month; n = -1 → the last one. */
export function nthWeekday(year: number, month: number, wd: number, n: number): number {
  if (n > 0) {
    const first = Math.round(Date.UTC(year, month - 1, 1) / DAY_MS);
    return first + ((wd - weekday(first) + 7) % 7) + (n - 1) * 7;
  }
  const last = Math.round(Date.UTC(year, month, 0) / DAY_MS);
  return last - ((weekday(last) - wd + 7) % 7);
}

export function yearOf(abs: number): number {
  return new Date(abs * DAY_MS).getUTCFullYear();
}
