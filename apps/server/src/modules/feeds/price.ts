// Prices of a feed row, parsed exactly: a price text ("1299990 CLP", "12499.00 MXN", "1.299.990 CLP",
// "1299,90 PEN") becomes integer minor units of a currency, never a float that was rounded on the way.
// The currency decides how many decimals are allowed and how an ambiguous separator reads; a string that
// could mean two amounts is refused with its reason, never guessed.

export interface ParsedPrice {
  /** Integer amount in minor units of `currency` (CLP: pesos; MXN: centavos). */
  minor: number;
  currency: string;
}

export type PriceResult = { ok: true; price: ParsedPrice } | { ok: false; reason: string };

/** Largest amount accepted, in minor units (prices are numeric(14,2) in the database). */
export const MAX_MINOR = 1e13;

const fail = (reason: string): PriceResult => ({ ok: false, reason });

/**
 * Parses a price text. `decimalsOf(code)` gives a currency's decimals (undefined = unknown currency);
 * `fallbackCurrency` is used when the text names none (a mapped CSV column holding only the number).
 */
export function parsePrice(
  text: string,
  decimalsOf: (code: string) => number | undefined,
  fallbackCurrency: string,
): PriceResult {
  let s = text.trim().replace(/\u00a0/g, ' ');
  if (!s) return fail('precio vacío');
  if (s.length > 40) return fail('precio ilegible');
  let code: string | null = null;
  const after = /^(.*?)\s*([A-Za-z]{3})$/.exec(s);
  const before = /^([A-Za-z]{3})\s*(.*)$/.exec(s);
  if (after && /\d/.test(after[1])) {
    code = after[2].toUpperCase();
    s = after[1];
  } else if (before && /\d/.test(before[2])) {
    code = before[1].toUpperCase();
    s = before[2];
  }
  // A currency symbol before the number ($, S/, S/.) adds nothing the code or the seller does not say.
  s = s.replace(/^(\$|S\/\.?|US\$)\s*/i, '').trim();
  const currency = code ?? fallbackCurrency;
  const decimals = decimalsOf(currency);
  if (decimals === undefined) return fail(`moneda desconocida: ${currency}`);
  if (s.startsWith('-')) return fail('precio negativo');
  if (!/^\d[\d.,' ]*$/.test(s) || !/\d$/.test(s)) return fail(`precio ilegible: ${text.trim().slice(0, 40)}`);
  const split = splitAmount(s.replace(/ /g, ''), decimals);
  if (typeof split === 'string') return fail(`${split}: ${text.trim().slice(0, 40)}`);
  const [whole, frac] = split;
  if (frac.length > decimals && !/^0+$/.test(frac.slice(decimals)))
    return fail(`más decimales de los que tiene la moneda ${currency}: ${text.trim().slice(0, 40)}`);
  const fracDigits = frac.slice(0, decimals).padEnd(decimals, '0');
  const digits = (whole.replace(/^0+(?=\d)/, '') + fracDigits).replace(/^0+(?=\d)/, '');
  if (digits.length > 15) return fail('precio fuera de rango');
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor) || minor >= MAX_MINOR) return fail('precio fuera de rango');
  return { ok: true, price: { minor, currency } };
}

/** The currency code a price text names ("12499.00 MXN", "MXN 12,499.00"), or null. */
export function currencyOf(text: string): string | null {
  const t = text.trim();
  const m = /^(?:([A-Za-z]{3})\s*[\d$S]|.*\d\s*([A-Za-z]{3})$)/.exec(t);
  return m ? (m[1] ?? m[2]).toUpperCase() : null;
}

const GROUPED = /^\d{1,3}(\d{3})*$/;

/** Whole and fraction digits of a number written with separators; a string says why it cannot be read. */
function splitAmount(s: string, decimals: number): [string, string] | string {
  const seps = s.replace(/\d/g, '');
  if (!seps) return [s, ''];
  const kinds = new Set(seps);
  if (kinds.size > 2 || (kinds.size === 2 && !kinds.has('.') && !kinds.has(','))) return 'precio ilegible';
  const lastSep = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','), s.lastIndexOf("'"));
  const last = s[lastSep];
  const tail = s.slice(lastSep + 1);
  const head = s.slice(0, lastSep);
  if (kinds.size === 2) {
    // "12,499.00" / "12.499,00": the last separator is the decimal one, the other groups thousands.
    if (last === "'") return 'precio ilegible';
    const grouped = head.split(/[.,']/);
    if (!grouped.every((g, i) => (i === 0 ? /^\d{1,3}$/.test(g) : /^\d{3}$/.test(g))))
      return 'separadores de miles mal puestos';
    if (head.includes(last)) return 'separadores mal puestos';
    return [grouped.join(''), tail];
  }
  const count = seps.length;
  if (count > 1 || last === "'") {
    // one kind repeated ("1.299.990"): thousands only.
    const parts = s.split(last);
    if (!parts.every((g, i) => (i === 0 ? /^\d{1,3}$/.test(g) : /^\d{3}$/.test(g))))
      return 'separadores de miles mal puestos';
    return [parts.join(''), ''];
  }
  // One separator once: decimal point or thousands, decided by the currency.
  if (tail.length === 3 && decimals !== 3) {
    if (decimals === 0 && GROUPED.test(head + tail)) return [head + tail, ''];
    return 'precio ambiguo (¿miles o decimales?)';
  }
  return [head, tail];
}

/** Minor units back to the amount the database stores (numeric(14,2)): exact for up to 2 decimals. */
export function minorToAmount(minor: number, decimals: number): number {
  return decimals === 0
    ? minor
    : Number(
        `${Math.trunc(minor / 10 ** decimals)}.${String(minor % 10 ** decimals).padStart(decimals, '0')}`,
      );
}
