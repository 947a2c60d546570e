// Price text as stores print it ("$1.299.990", "S/ 1,299.90", "1.299,90 €", "USD 1,299") read into an exact
// amount in minor units, decided with the seller's country and currency. A string that could mean two
// amounts is refused with its reason, never guessed (docs/architecture.md "Crawler: reading the page").

/** Digits after the decimal separator that a currency's prices carry (ISO 4217 minor units as stores use them). */
const MINOR_DIGITS: Record<string, number> = {
  CLP: 0,
  COP: 0, // ISO says 2; Colombian stores print whole pesos ("COP 89.900")
  PYG: 0,
  ARS: 2,
  BOB: 2,
  BRL: 2,
  CRC: 2,
  EUR: 2,
  GTQ: 2,
  MXN: 2,
  PAB: 2,
  PEN: 2,
  USD: 2,
  UYU: 2,
  VES: 2,
};

/** Countries whose stores write 1.299,90 (decimal comma); the others write 1,299.90. */
const DECIMAL_COMMA_COUNTRIES = new Set(['AR', 'BO', 'BR', 'CL', 'CO', 'CR', 'ES', 'PY', 'UY', 'VE']);

/** Symbols and codes a price text may carry, with the currencies each can stand for. */
const MARKERS: { re: RegExp; currencies: string[] }[] = [
  { re: /R\$/i, currencies: ['BRL'] },
  { re: /S\/\.?/i, currencies: ['PEN'] },
  { re: /Bs\.?S?/i, currencies: ['BOB', 'VES'] },
  { re: /€/, currencies: ['EUR'] },
  { re: /US\$/i, currencies: ['USD'] },
  { re: /Q(?=\s?\d)/, currencies: ['GTQ'] },
  { re: /₡/, currencies: ['CRC'] },
  { re: /\$/, currencies: ['CLP', 'MXN', 'COP', 'ARS', 'USD', 'UYU'] },
];

const CODE = /\b([A-Z]{3})\b/g;

export interface PriceContext {
  country: string; // ISO 3166 alpha-2 of the seller
  currency: string; // ISO 4217 of the seller
}

export type PriceReading =
  | { ok: true; minor: number; currency: string; digits: number }
  | { ok: false; reason: PriceRefusal; detail: string };

export type PriceRefusal = 'sin precio' | 'precio ambiguo' | 'moneda distinta' | 'precio no válido';

function refuse(reason: PriceRefusal, detail: string): PriceReading {
  return { ok: false, reason, detail };
}

export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency] ?? 2;
}

/** Amount in major units (what numeric(14,2) columns hold) of an exact reading. */
export function majorUnits(r: { minor: number; digits: number }): number {
  return r.minor / 10 ** r.digits;
}

/** The currencies the text names (a code, or a symbol that belongs to few); null when it names none. */
function currenciesNamed(text: string): string[] | null {
  const codes = [...text.matchAll(CODE)].map((m) => m[1]).filter((c) => c in MINOR_DIGITS);
  if (codes.length) return [...new Set(codes)];
  for (const m of MARKERS) if (m.re.test(text)) return m.currencies;
  return null;
}

/**
 * Reads one price text. The currency comes from the text when it names one (a code wins over a symbol;
 * "$" is every peso and the dollar, so the seller's currency decides among them); the decimal separator
 * from the separators present and, where one separator alone could be either, from the seller's country.
 */
export function parsePriceText(raw: string, ctx: PriceContext): PriceReading {
  const text = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (!text || text.length > 64) return refuse('sin precio', text.slice(0, 64));
  const named = currenciesNamed(text);
  if (named && !named.includes(ctx.currency)) {
    return refuse('moneda distinta', `${named.join('/')} en lugar de ${ctx.currency}`);
  }
  const currency = ctx.currency;
  const numbers = text.match(/\d[\d.,' ]*\d|\d/g)?.map((n) => n.trim()) ?? [];
  if (numbers.length === 0) return refuse('sin precio', text);
  if (numbers.length > 1) return refuse('precio ambiguo', `varios números: ${text}`);
  if (/-\s*\d/.test(text)) return refuse('precio no válido', `negativo: ${text}`);
  return readNumber(numbers[0].replace(/[' ]/g, ''), currency, ctx.country);
}

function readNumber(n: string, currency: string, country: string): PriceReading {
  const digits = minorDigits(currency);
  const commaDecimal = DECIMAL_COMMA_COUNTRIES.has(country);
  const dots = n.split('.').length - 1;
  const commas = n.split(',').length - 1;
  let integer: string;
  let fraction = '';
  if (dots && commas) {
    // Both present: the last one is the decimal separator and the other groups thousands.
    const decimal = n.lastIndexOf('.') > n.lastIndexOf(',') ? '.' : ',';
    const thousands = decimal === '.' ? ',' : '.';
    if (n.split(decimal).length - 1 > 1) return refuse('precio ambiguo', n);
    [integer, fraction] = n.split(decimal);
    if (!groupedThousands(integer, thousands)) return refuse('precio ambiguo', n);
    integer = integer.split(thousands).join('');
  } else if (dots || commas) {
    const sep = dots ? '.' : ',';
    const parts = n.split(sep);
    const tail = parts[parts.length - 1];
    if (parts.length > 2) {
      // 1.299.990: only a thousands separator repeats.
      if (!groupedThousands(n, sep)) return refuse('precio ambiguo', n);
      integer = parts.join('');
    } else if (tail.length === 3) {
      // 1.299 or 1,299: thousands where the country groups with this separator; a decimal separator
      // followed by three digits is no price of a currency with two minor digits.
      const countryThousands = commaDecimal ? '.' : ',';
      if (sep !== countryThousands)
        return refuse('precio ambiguo', `${n} (${country} usa "${countryThousands}" para miles)`);
      if (parts[0].length > 3 || parts[0].length === 0) return refuse('precio ambiguo', n);
      integer = parts.join('');
    } else {
      // 45,50 or 1299.9: a decimal separator, if the currency has minor units and the country writes it so.
      const countryDecimal = commaDecimal ? ',' : '.';
      if (digits === 0) return refuse('precio ambiguo', `${n}: ${currency} no usa decimales`);
      if (sep !== countryDecimal && tail.length !== 2) return refuse('precio ambiguo', n);
      [integer, fraction] = parts;
    }
  } else {
    integer = n;
  }
  if (!/^\d+$/.test(integer) || !/^\d*$/.test(fraction)) return refuse('precio no válido', n);
  if (fraction.length > digits) {
    // "1299990.00 CLP": zeros beyond the currency's digits are harmless; anything else is not a price of it.
    if (/^0+$/.test(fraction.slice(digits))) fraction = fraction.slice(0, digits);
    else return refuse('precio ambiguo', `${n}: ${currency} usa ${digits} decimales`);
  }
  const minor = Number(integer + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(minor) || minor >= 1e14) return refuse('precio no válido', n);
  return { ok: true, minor, currency, digits };
}

/** "1.299.990" grouped by `sep` in threes after a first group of 1–3 digits. */
function groupedThousands(n: string, sep: string): boolean {
  const groups = n.split(sep);
  return /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/**
 * A machine value (schema.org `price`, `product:price:amount`): a plain decimal with a dot and no
 * grouping per schema.org; stores that write "1.299.990" there are read as text of the seller's country.
 */
export function parsePriceValue(value: unknown, ctx: PriceContext): PriceReading {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return refuse('precio no válido', String(value));
    return parsePriceValue(String(value), ctx);
  }
  if (typeof value !== 'string') return refuse('sin precio', typeof value);
  const v = value.trim();
  const plain = /^(\d+)(?:\.(\d+))?$/.exec(v);
  if (plain) {
    const digits = minorDigits(ctx.currency);
    let fraction = plain[2] ?? '';
    if (fraction.length > digits && /^0+$/.test(fraction.slice(digits))) fraction = fraction.slice(0, digits);
    if (fraction.length <= digits) {
      const minor = Number(plain[1] + fraction.padEnd(digits, '0'));
      if (Number.isSafeInteger(minor) && minor < 1e14)
        return { ok: true, minor, currency: ctx.currency, digits };
      return refuse('precio no válido', v);
    }
    // "1.299" for a peso price is no decimal: read it as the country writes text (or refuse).
  }
  return parsePriceText(v, ctx);
}
