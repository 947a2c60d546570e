import { convertPrice, round2 } from '@vigia/domain';
import type { Queryable } from '../db/database.js';

// Exchange rates (docs/metrics.md "Currency conversion"): prices convert through CLP with the latest
// fx_rates row on or before the day; CLP's rate is 1. "Latest on or before" is written once, as the SQL
// function vigia_fx_rates_on(day) (migrations/050_market_formulas.sql); the conversion formula is the
// domain's convertPrice. Every feature reads rates through this file.

/** Currency → factor: multiply a price in that currency to get the target currency. */
export type Rates = Map<string, number>;

/** Rounds a converted price to cents (display rounds further per currency). */
export const cents = (v: number | null): number | null => round2(v);

/** CLP per unit of every currency with a rate on or before `asOf` (CLP = 1). */
export async function selectClpRates(db: Queryable, asOf: string): Promise<Map<string, number>> {
  return clpMap([...(await selectClpRateTexts(db, asOf))].map(([c, r]) => [c, Number(r)]));
}

/**
 * The same rates as PostgreSQL's exact decimal texts (numeric(18,6); CLP = '1'), for the exact sums of
 * the domain's ConvertedSum (Surtido's values).
 */
export async function selectClpRateTexts(db: Queryable, asOf: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ currency: string; clp_per_unit: string }>(
    'select currency, clp_per_unit::text as clp_per_unit from vigia_fx_rates_on($1::date)',
    [asOf],
  );
  const clp = new Map<string, string>([['CLP', '1']]);
  for (const r of rows) if (r.currency !== 'CLP') clp.set(r.currency, r.clp_per_unit);
  return clp;
}

/** A CLP-per-unit table from (currency, rate) pairs, CLP = 1. */
export function clpMap(pairs: Iterable<[string, number]>): Map<string, number> {
  const clp = new Map<string, number>([['CLP', 1]]);
  for (const [c, r] of pairs) if (c !== 'CLP') clp.set(c, Number(r));
  return clp;
}

/**
 * Factors to `target` through CLP (clp_per_unit(currency) / clp_per_unit(target)). Currencies without a
 * rate are absent (their prices convert to null); null when `target` has none.
 */
export function ratesTo(clp: Map<string, number>, target: string): Rates | null {
  const t = clp.get(target);
  if (!t) return null;
  return new Map([...clp].map(([c, r]) => [c, r / t]));
}

/** Currency factors to `target` as of `asOf` (see ratesTo); null when `target` has no rate. */
export async function selectRates(db: Queryable, target: string, asOf: string): Promise<Rates | null> {
  return ratesTo(await selectClpRates(db, asOf), target);
}

export interface FxTable {
  /** CLP per unit of `currency` on `day` (latest rate on or before it); null when none. */
  rate(currency: string, day: string): number | null;
  /** The same rate as PostgreSQL's exact text (numeric(18,6); CLP '1'), for the domain's ConvertedSum. */
  rateText(currency: string, day: string): string | null;
  /** `price` in `from` converted to `to` on `day`, rounded to cents; null when a rate is missing. */
  convert(price: number | null | undefined, from: string, to: string, day: string): number | null;
}

/**
 * Loads the rates of `currencies` needed for days in [fromDay, toDay]: every rate in the range plus the
 * latest one before it (day-by-day conversion of a price history).
 */
export async function loadFx(
  db: Queryable,
  currencies: string[],
  fromDay: string,
  toDay: string,
): Promise<FxTable> {
  const wanted = [...new Set(currencies.filter((c) => c !== 'CLP'))];
  const byCurrency = new Map<string, { day: string; rate: number; text: string }[]>();
  if (wanted.length) {
    const { rows } = await db.query<{ currency: string; day: string; clp_per_unit: string }>(
      `select currency, day, clp_per_unit::text as clp_per_unit from (
         (select currency, day, clp_per_unit from fx_rates
           where currency = any($1) and day between $2::date and $3::date)
         union all
         (select currency, day, clp_per_unit from vigia_fx_rates_on($2::date - 1) where currency = any($1))) x
       order by currency, day`,
      [wanted, fromDay, toDay],
    );
    for (const r of rows) {
      const list = byCurrency.get(r.currency) ?? [];
      if (!byCurrency.has(r.currency)) byCurrency.set(r.currency, list);
      list.push({ day: r.day, rate: Number(r.clp_per_unit), text: r.clp_per_unit });
    }
  }
  const rate = (currency: string, day: string): number | null =>
    currency === 'CLP' ? 1 : (entry(currency, day)?.rate ?? null);
  const entry = (currency: string, day: string) => {
    const list = byCurrency.get(currency);
    if (!list?.length) return null;
    // latest on or before `day` (binary search)
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].day <= day) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? null : list[found];
  };
  return {
    rate,
    rateText: (currency, day) => (currency === 'CLP' ? '1' : (entry(currency, day)?.text ?? null)),
    convert(price, from, to, day) {
      if (price === null || price === undefined) return null;
      if (from === to) return price;
      return cents(convertPrice(price, rate(from, day), rate(to, day)));
    },
  };
}
