// When a subscription sends next: the first local `hour`:00 (daily) — or that hour on ISO `weekday`
// (weekly) — strictly after `after`, in the recipient's timezone, as a UTC instant. DST gaps resolve to
// the instant the wall clock jumps to; a repeated hour takes its first occurrence.

/** The zone's offset (ms, local − UTC) at an instant. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const v = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(v('year'), v('month') - 1, v('day'), v('hour'), v('minute'), v('second'));
  return local - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant of a local wall-clock time in a zone. */
export function zonedTime(y: number, m: number, d: number, hour: number, timeZone: string): Date {
  const guess = Date.UTC(y, m - 1, d, hour);
  let t = guess - offsetAt(guess, timeZone);
  t = guess - offsetAt(t, timeZone);
  return new Date(t);
}

/** The local calendar day (y, m, d) and ISO weekday of an instant in a zone. */
function localDay(instant: Date, timeZone: string): { y: number; m: number; d: number } {
  const s = new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant); // yyyy-mm-dd
  const [y, m, d] = s.split('-').map(Number);
  return { y, m, d };
}

export function nextRunAt(
  s: { frequency: 'daily' | 'weekly'; hour: number; weekday: number; timezone: string },
  after: Date,
): Date {
  const start = localDay(after, s.timezone);
  for (let i = 0; i <= 8; i++) {
    const day = new Date(Date.UTC(start.y, start.m - 1, start.d + i));
    const iso = ((day.getUTCDay() + 6) % 7) + 1;
    if (s.frequency === 'weekly' && iso !== s.weekday) continue;
    const at = zonedTime(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), s.hour, s.timezone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no next run within 8 days');
}

/** The local calendar day (yyyy-MM-dd) of an instant in a zone. */
export function localIsoDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
}
