// Five-field cron (minute hour day-of-month month day-of-week) read in a time zone: when a source's
// scheduled import is due next. Fields: `*`, numbers, lists `a,b`, ranges `a-b`, steps `*/n` and `a-b/n`;
// day-of-week 0–7 (0 and 7 are Sunday). As in cron, when both day fields are restricted either may match.
// A local time skipped by a DST change does not run that day; a repeated one runs at its first instant.

const RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

export interface Cron {
  fields: Set<number>[];
  domAny: boolean;
  dowAny: boolean;
}

/** Parses a cron expression; throws an Error with a Spanish reason when it is not one. */
export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error('cron de cinco campos (minuto hora día mes día-semana)');
  const fields = parts.map((p, i) => {
    const [lo, hi] = RANGES[i];
    const set = new Set<number>();
    for (const item of p.split(',')) {
      const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
      if (!m) throw new Error(`campo de cron no válido: ${p}`);
      const from = m[1] === '*' ? lo : Number(m[2]);
      const to = m[1] === '*' ? hi : m[3] !== undefined ? Number(m[3]) : m[4] ? hi : from;
      const step = m[4] ? Number(m[4]) : 1;
      if (from < lo || to > hi || from > to || step < 1)
        throw new Error(`campo de cron fuera de rango: ${p}`);
      for (let v = from; v <= to; v += step) set.add(i === 4 && v === 7 ? 0 : v);
    }
    return set;
  });
  return { fields, domAny: parts[2] === '*', dowAny: parts[4] === '*' };
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function localFields(t: Date, zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      minute: 'numeric',
      hour: 'numeric',
      day: 'numeric',
      month: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  const o: Record<string, string> = {};
  for (const p of f.formatToParts(t)) o[p.type] = p.value;
  return {
    minute: Number(o.minute),
    hour: Number(o.hour),
    day: Number(o.day),
    month: Number(o.month),
    dow: WEEKDAYS[o.weekday] ?? 0,
  };
}

/** The first minute strictly after `after` at which the cron fires in `zone` (null: none within 400 days). */
export function nextCronRun(cron: Cron, zone: string, after: Date): Date | null {
  const [min, hour, dom, month, dow] = cron.fields;
  let t = Math.floor(after.getTime() / 60_000) * 60_000 + 60_000;
  const end = after.getTime() + 400 * 86_400_000;
  while (t < end) {
    const l = localFields(new Date(t), zone);
    const dayOk =
      cron.domAny && cron.dowAny
        ? true
        : cron.domAny
          ? dow.has(l.dow)
          : cron.dowAny
            ? dom.has(l.day)
            : dom.has(l.day) || dow.has(l.dow);
    if (!month.has(l.month) || !dayOk) {
      t += (60 - l.minute) * 60_000 + (23 - l.hour) * 3_600_000; // to the next local day (about)
      continue;
    }
    if (!hour.has(l.hour)) {
      t += (60 - l.minute) * 60_000;
      continue;
    }
    if (!min.has(l.minute)) {
      t += 60_000;
      continue;
    }
    return new Date(t);
  }
  return null;
}
