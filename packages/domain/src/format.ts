import { DECIMAL_CURRENCIES, DEFAULT_TIMEZONE } from './constants.js';

/** Decimals a currency is shown with: two for USD, PAB, PEN and MXN, none otherwise (seed 000 §9). */
export function currencyDecimals(currency: string | null | undefined): number {
  return (DECIMAL_CURRENCIES as readonly string[]).includes((currency ?? '').toUpperCase()) ? 2 : 0;
}

// Intl formatters are costly to build (tens of microseconds each, more with time-zone data): each is
// built once per key and kept, since charts and tables format hundreds of values per render.
function cached<K, F>(cache: Map<K, F>, key: K, make: () => F): F {
  let f = cache.get(key);
  if (f === undefined) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

const numberFormats = new Map<number, Intl.NumberFormat>();
const numberFormat = (decimals: number) =>
  cached(
    numberFormats,
    decimals,
    () =>
      new Intl.NumberFormat('es-CL', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  );

/** Formats a number with es-CL separators ('.' thousands, ',' decimals). */
export function formatNumber(value: number, decimals = 0): string {
  // es-CL in ICU does not group 4-digit numbers; the product always groups thousands.
  const parts = numberFormat(decimals).formatToParts(value);
  const text = parts.map((p) => p.value).join('');
  const [intPart, decPart] = text.split(',');
  const sign = intPart.startsWith('-') ? '-' : '';
  const digits = intPart.replace(/[^0-9]/g, '');
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return sign + grouped + (decPart !== undefined ? `,${decPart}` : '');
}

/** Price with thousands separators and the currency's decimals, prefixed by '$' (e.g. '$12.990'). */
export function formatPrice(value: number | null | undefined, currency: string): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  const decimals = currencyDecimals(currency);
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  // USD reads "US$" so that it is never taken for a peso shown with "$" (CLP, MXN, …).
  const code = currency.toUpperCase();
  const prefix = code === 'PEN' ? 'S/ ' : code === 'USD' ? 'US$' : '$';
  return `${rounded < 0 ? '-' : ''}${prefix}${formatNumber(Math.abs(rounded), decimals)}`;
}

/** Percentage with one decimal and es-CL separators: 12.345 → '12,3%'. */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return `${formatNumber(value, decimals)}%`;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Calendar date (yyyy-MM-dd) of an instant in a timezone, America/Santiago by default. */
export function isoDateInZone(instant: Date | string | number, timeZone = DEFAULT_TIMEZONE): string {
  const d = new Date(instant);
  const parts = cached(
    dayFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** dd-MM-yyyy of an instant in America/Santiago (or the given zone). */
export function formatDate(
  instant: Date | string | number | null | undefined,
  timeZone = DEFAULT_TIMEZONE,
): string {
  if (instant === null || instant === undefined || instant === '') return '—';
  const iso =
    typeof instant === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(instant)
      ? instant
      : isoDateInZone(instant, timeZone);
  const [y, m, d] = iso.split('-');
  return `${d}-${m}-${y}`;
}

/** dd-MM-yyyy HH:mm of an instant in America/Santiago (or the given zone). */
export function formatDateTime(
  instant: Date | string | number | null | undefined,
  timeZone = DEFAULT_TIMEZONE,
): string {
  if (instant === null || instant === undefined || instant === '') return '—';
  const d = new Date(instant);
  const time = cached(
    timeFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat('es-CL', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  ).format(d);
  return `${formatDate(d, timeZone)} ${time}`;
}

/** Seed rule: date strings are cut to 10 characters. */
export function cutDate(value: string | null | undefined): string {
  return (value ?? '').slice(0, 10);
}
