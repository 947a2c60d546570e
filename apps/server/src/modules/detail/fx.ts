import { convertPrice } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';

// Currency conversion for the detail, product list and dashboard answers (docs/metrics.md "Currency
// conversion"): through CLP with the latest fx_rates row on or before the day; CLP's rate is 1.
// The formula is the pricing metrics' convertPrice; this only loads and looks up the rates.

export interface FxTable {
  /** CLP per unit of `currency` on `day` (latest rate on or before it); null when none. */
  rate(currency: string, day: string): number | null;
  /** `price` in `from` converted to `to` on `day`; null when a rate is missing. */
  convert(price: number | null | undefined, from: string, to: string, day: string): number | null;
}

/** Rounds a converted price to cents (display rounds further per currency). */
export const cents = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);

/**
 * Loads the rates of `currencies` needed for days in [fromDay, toDay]: every rate in the range plus the
 * latest one before it.
 */
export async function loadFx(
  db: Queryable,
  currencies: string[],
  fromDay: string,
  toDay: string,
): Promise<FxTable> {
  const wanted = [...new Set(currencies.filter((c) => c !== 'CLP'))];
  const byCurrency = new Map<string, { day: string; rate: number }[]>();
  if (wanted.length) {
    const { rows } = await db.query<{ currency: string; day: string; clp_per_unit: number }>(
      `(select currency, day, clp_per_unit from fx_rates
         where currency = any($1) and day between $2::date and $3::date)
       union all
       (select distinct on (currency) currency, day, clp_per_unit from fx_rates
         where currency = any($1) and day < $2::date
         order by currency, day desc)
       order by currency, day`,
      [wanted, fromDay, toDay],
    );
    for (const r of rows) {
      const list = byCurrency.get(r.currency) ?? [];
      if (!byCurrency.has(r.currency)) byCurrency.set(r.currency, list);
      list.push({ day: r.day, rate: r.clp_per_unit });
    }
  }
  const rate = (currency: string, day: string): number | null => {
    if (currency === 'CLP') return 1;
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
    return found < 0 ? null : list[found].rate;
  };
  return {
    rate,
    convert(price, from, to, day) {
      if (price === null || price === undefined) return null;
      if (from === to) return price;
      return cents(convertPrice(price, rate(from, day), rate(to, day)));
    },
  };
}
