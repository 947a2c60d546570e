import { DEFAULT_TIMEZONE, effectivePriceFor, type PriceMode, priceIndex } from '@vigia/domain';
import type pg from 'pg';
import { selectStatesAt } from '../modules/brand-comparator/queries.js';
import { offerCounted, type ScoredSet } from '../modules/pricing/index.js';

// The brand comparator's trend as it was first written (one day at a time, every listing's state read
// from price_intervals by selectStatesAt): the reference the in-memory, all-days-at-once computation
// (brand-comparator/service.ts averageIndexesByDay over history.ts pricesAt) is tested against.

/**
 * Per day of `days`, per competitor column of the model: the pivot's average index over `positions`
 * (per product, my effective price against the competitor's lowest in-stock effective price among the
 * product's counted offers there, both converted with `rates`; null when no product is comparable).
 */
export async function referenceTrend(
  pool: pg.Pool,
  set: ScoredSet,
  positions: number[],
  days: string[],
  mode: PriceMode,
  rates: Map<string, number>,
): Promise<(number | null)[][]> {
  const c = set.model.cols;
  const ids = new Set<number>();
  for (const i of positions) {
    ids.add(set.model.rows[i].productId);
    for (let k = c.offerStart[i]; k < c.offerStart[i + 1]; k++) ids.add(c.offerProductId[k]);
  }
  const states = await selectStatesAt(pool, [...ids], days, DEFAULT_TIMEZONE);
  const price = (id: number, d: number, inStockOnly: boolean) => {
    const s = states[d].get(id);
    if (!s || (inStockOnly && s.stockOut)) return Number.NaN;
    const p = effectivePriceFor(s, mode);
    const f = rates.get(s.currency);
    return p === null || f === undefined ? Number.NaN : p * f;
  };
  return days.map((_, d) => {
    const nSellers = c.sellerIds.length;
    const sum = new Float64Array(nSellers);
    const count = new Int32Array(nSellers);
    for (const i of positions) {
      const lowest = new Map<number, number>();
      for (let k = c.offerStart[i]; k < c.offerStart[i + 1]; k++) {
        if (!offerCounted(set, k)) continue;
        const p = price(c.offerProductId[k], d, true);
        if (!(p > 0)) continue;
        const seller = c.offerSeller[k];
        lowest.set(seller, Math.min(p, lowest.get(seller) ?? Number.POSITIVE_INFINITY));
      }
      const mine = price(set.model.rows[i].productId, d, false);
      for (const [seller, low] of lowest) {
        const index = priceIndex(Number.isNaN(mine) ? null : mine, low);
        if (index === null) continue;
        sum[seller] += index;
        count[seller]++;
      }
    }
    return Array.from(count, (n, seller) => (n ? sum[seller] / n : null));
  });
}
