import { isCalendarDate } from '@vigia/domain';

// Dates are typed and shown as the Chilean user writes them (dd-mm-aaaa), whatever the browser's own
// language: a native <input type="date"> follows the browser's UI locale (mm/dd/yyyy in an English
// browser). The value kept in state, URLs and requests stays ISO (yyyy-mm-dd).

export const DATE_TEXT_PLACEHOLDER = 'dd-mm-aaaa';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** '2026-11-23' → '23-11-2026'; anything that is not an ISO date is shown as written ('' stays ''). */
export function isoToDateText(value: string): string {
  return ISO.test(value) ? `${value.slice(8, 10)}-${value.slice(5, 7)}-${value.slice(0, 4)}` : value;
}

/** '23-11-2026' (also with '/' or '.') → '2026-11-23' when it is a real day; otherwise null. */
export function dateTextToIso(text: string): string | null {
  const m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(text.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2]?.padStart(2, '0')}-${m[1]?.padStart(2, '0')}`;
  return isCalendarDate(iso) ? iso : null;
}

/**
 * What the field shows while the user types: digits grouped dd-mm-aaaa, the dashes added as the digits
 * arrive. A day or month typed with one digit and closed by a separator ('1/2/2026') is padded to two;
 * a pasted ISO date is turned around.
 */
export function maskDateText(raw: string): string {
  if (ISO.test(raw.trim())) return isoToDateText(raw.trim()); // pasted as yyyy-mm-dd
  const groups = raw.replace(/[^\d\-/.]/g, '').split(/[-/.]/);
  let digits = '';
  groups.forEach((g, i) => {
    const closed = i < groups.length - 1; // a separator follows this group
    digits += closed && i < 2 && g.length === 1 ? `0${g}` : g;
  });
  const d = digits.slice(0, 8);
  return [d.slice(0, 2), d.slice(2, 4), d.slice(4, 8)].filter(Boolean).join('-');
}

/**
 * The value a typed text stands for: ISO when it is a complete, real day; '' when empty; otherwise the
 * text itself, which is never a valid ISO date, so the form's own validation marks the field.
 */
export function dateTextValue(text: string): string {
  if (text.trim() === '') return '';
  return dateTextToIso(text) ?? text;
}
