import { effectivePriceFor, type PriceType, rankPositions } from '@vigia/domain';
import type { FxTable } from '../../market/index.js';

// Price history as daily points (docs/metrics.md "Price history"): price_intervals are exact; a day's
// point is the state of the LAST interval that overlaps the day [start, end) in America/Santiago
// (end capped at now for today). Days before the listing existed, after it was unpublished, or in the
// future have no point.

export interface DayBounds {
  day: string; // yyyy-MM-dd
  start: number; // epoch ms of the day's first instant in the zone
  end: number; // epoch ms of the next day's first instant, capped at now
}

export interface IntervalRow {
  product_id: number;
  valid_from: Date;
  valid_to: Date | null;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  price_type: PriceType;
  stock_out: boolean;
  currency: string;
}

export interface DayState {
  day: string;
  /** effective price in the target currency */
  price: number | null;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  price_type: PriceType;
  stock_out: boolean;
}

/**
 * The daily states of one listing. `intervals` are that listing's, in any order; `days` ascending.
 * Prices are converted to `currency` with the rate of each day.
 */
export function dailyStates(
  intervals: IntervalRow[],
  days: DayBounds[],
  fx: FxTable,
  currency: string,
): DayState[] {
  const sorted = [...intervals].sort((a, b) => a.valid_from.getTime() - b.valid_from.getTime());
  const out: DayState[] = [];
  let k = 0; // first interval that may still overlap a later day
  for (const d of days) {
    if (d.end <= d.start) continue; // future day
    // intervals that ended at or before the day's start can never overlap this or a later day
    while (
      k < sorted.length &&
      sorted[k].valid_to !== null &&
      (sorted[k].valid_to as Date).getTime() <= d.start
    )
      k++;
    let pick: IntervalRow | null = null;
    for (let i = k; i < sorted.length; i++) {
      const iv = sorted[i];
      if (iv.valid_from.getTime() >= d.end) break;
      if (iv.valid_to === null || iv.valid_to.getTime() > d.start) pick = iv; // later valid_from wins
    }
    if (!pick) continue;
    const conv = (p: number | null) => fx.convert(p, pick.currency, currency, d.day);
    const effective = effectivePriceFor(
      { normal: pick.normal_price, sale: pick.sale_price, exclusive: pick.exclusive_price },
      'NORMAL_SALE_EXCLUSIVE_PRICE',
    );
    out.push({
      day: d.day,
      price: conv(effective),
      normal_price: conv(pick.normal_price),
      sale_price: conv(pick.sale_price),
      exclusive_price: conv(pick.exclusive_price),
      price_type: pick.price_type,
      stock_out: pick.stock_out,
    });
  }
  return out;
}

export interface SeriesInput {
  sellerId: number;
  isPivot: boolean;
  /** the seller's listings in the group (usually one) */
  listings: number[];
}

export interface SeriesPoint {
  date: string;
  price: number | null;
  price_type: PriceType;
  stock_out: boolean;
  position: number | null;
}

/**
 * One series per seller: the seller's cheapest listing each day (when it has several in the group),
 * and each day the 1-based position of every seller's price among the sellers priced that day
 * (ascending; ties place the pivot first).
 */
export function sellerSeries(
  series: SeriesInput[],
  intervalsByListing: Map<number, IntervalRow[]>,
  days: DayBounds[],
  fx: FxTable,
  currency: string,
): Map<number, SeriesPoint[]> {
  const perSeller = series.map((s) => {
    const byDay = new Map<string, DayState>();
    for (const listing of s.listings) {
      for (const st of dailyStates(intervalsByListing.get(listing) ?? [], days, fx, currency)) {
        const cur = byDay.get(st.day);
        if (!cur || (st.price !== null && (cur.price === null || st.price < cur.price)))
          byDay.set(st.day, st);
      }
    }
    return byDay;
  });
  const pivotIndex = series.findIndex((s) => s.isPivot);
  const out = new Map<number, SeriesPoint[]>(series.map((s) => [s.sellerId, []]));
  for (const d of days) {
    const states = perSeller.map((m) => m.get(d.day) ?? null);
    if (states.every((s) => s === null)) continue;
    const positions = rankPositions(
      states.map((s) => s?.price ?? null),
      pivotIndex,
    );
    states.forEach((st, i) => {
      if (!st) return;
      out.get(series[i].sellerId)?.push({
        date: d.day,
        price: st.price,
        price_type: st.price_type,
        stock_out: st.stock_out,
        position: positions[i],
      });
    });
  }
  return out;
}
