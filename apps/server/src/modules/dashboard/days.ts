import {
  addDays,
  DISCOUNT_BUCKET,
  daysInclusive,
  discountBucket,
  discountPercent,
  modeOfBuckets,
  priceIndexValue,
  share,
} from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { type FxTable, loadFx } from '../../market/index.js';
import {
  type FiguresScope,
  type RollupDayRow,
  selectIndexIntervals,
  selectPromoIntervals,
  selectRollupDays,
} from './queries.js';

// The dashboard's per-day figures (docs/metrics.md "Dashboard", "Periods"): what each snapshot card
// measures at the end of one Santiago day. A period's figure is the average of its days' figures
// (service.ts); this file computes the days of a range of closed days at once:
//  - counts (availability, in discount, average discount) from the daily roll-up, one row per day;
//  - price index / deviation and money / mode discount from the price intervals that are the listings'
//    state at each day's end, folded day by day here (one pass over the intervals of the range, never a
//    state per listing and day in the database).

/** Number of discount buckets (0, 5, …, 100 %). */
const BUCKETS = 100 / DISCOUNT_BUCKET + 1;

/** Period lengths the dashboard offers (web presets: 7, 30 and 90 days ending today). */
export const DASHBOARD_PRESET_DAYS = [7, 30, 90] as const;

/**
 * Closed days kept warm: the presets' periods and previous periods, yesterday back to today − 180 (the
 * per-seller rows and the index history in memory cover them; older days take computeDays' path).
 */
export const WARM_DAYS = 2 * Math.max(...DASHBOARD_PRESET_DAYS);

/** The snapshot figures of one day, unrounded; `buckets` = the discount histogram as [bucket, n] pairs. */
export interface DayFigures {
  availability: number | null;
  in_discount: number | null;
  average_discount: number | null;
  price_index: number | null;
  deviation: number | null;
  monetary_discount: number | null;
  buckets: [number, number][];
}

/** Counts of a day from its roll-up row (none: no data that day). */
/**
 * One match group's price index on days lo…hi (its lowest pivot price `mine` against the lowest competitor
 * price `best`, NaN = none) added to the day sums: index, |index − 100| and the groups counted. The one
 * per-day step of the dashboard's index and deviation (computeDays here, index-history.ts in memory).
 */
export function addGroupIndex(
  mine: ArrayLike<number>,
  best: ArrayLike<number>,
  lo: number,
  hi: number,
  sum: Float64Array,
  dev: Float64Array,
  n: Int32Array,
  /** where day 0 of `mine` is (a group's row of a days × groups array) */
  mineAt = 0,
): void {
  for (let d = lo; d <= hi; d++) {
    const my = mine[mineAt + d];
    const v = priceIndexValue(my, best[d]);
    if (Number.isNaN(v)) continue;
    sum[d] += v;
    dev[d] += Math.abs(v - 100);
    n[d]++;
  }
}

export function countFigures(c: Omit<RollupDayRow, 'day'> | undefined) {
  if (!c) return { availability: null, in_discount: null, average_discount: null };
  return {
    availability: share(c.in_stock, c.published),
    in_discount: share(c.promoted, c.published),
    average_discount: c.discounted > 0 ? c.discount_pct_sum / c.discounted : null,
  };
}

/** A histogram as [bucket, n] pairs, from per-bucket counts (index = bucket / 5). */
export function pairs(counts: ArrayLike<number>, offset = 0): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < BUCKETS; k++) {
    const n = counts[offset + k];
    if (n > 0) out.push([k * DISCOUNT_BUCKET, n]);
  }
  return out;
}

/** [bucket, n] pairs from the SQL histogram ({bucket, n} rows). */
export function bucketPairs(rows: { bucket: number; n: number }[] | null): [number, number][] {
  return (rows ?? []).map((r) => [Number(r.bucket), r.n] as [number, number]).sort((a, b) => a[0] - b[0]);
}

/**
 * The period's figure of each snapshot card: the average of its days' figures (days without one — no
 * data yet, no matched product, no discount — are left out); the mode discount is the mode of the
 * days' histograms added up (every promoted listing counted once per day).
 */
export function periodFigures(days: DayFigures[]) {
  const avg = (k: Exclude<keyof DayFigures, 'buckets'>) => {
    let n = 0;
    let sum = 0;
    for (const d of days) {
      const v = d[k];
      if (v === null || v === undefined) continue;
      n++;
      sum += v;
    }
    return n ? sum / n : null;
  };
  const total = new Map<number, number>();
  for (const d of days) for (const [b, n] of d.buckets ?? []) total.set(b, (total.get(b) ?? 0) + n);
  return {
    availability: avg('availability'),
    in_discount: avg('in_discount'),
    average_discount: avg('average_discount'),
    price_index: avg('price_index'),
    deviation: avg('deviation'),
    monetary_discount: avg('monetary_discount'),
    mode_discount: modeOfBuckets([...total].map(([bucket, n]) => ({ bucket, n }))),
  };
}

/** CLP per unit of each currency on each day of the range (NaN without a rate; CLP = 1). */
export function dailyClp(fx: FxTable, from: string, length: number) {
  const cache = new Map<string, Float64Array>();
  return (currency: string): Float64Array => {
    let a = cache.get(currency);
    if (!a) {
      a = new Float64Array(length);
      for (let d = 0; d < length; d++) a[d] = fx.rate(currency, addDays(from, d)) ?? Number.NaN;
      cache.set(currency, a);
    }
    return a;
  };
}

/**
 * Per-day figures of the closed days [from, to] for a scope (roots: the license's classification
 * subtrees). Every day of the range gets an entry; a figure without data is null.
 */
export async function computeDays(
  db: Queryable,
  s: FiguresScope,
  from: string,
  to: string,
): Promise<Map<string, DayFigures>> {
  const D = daysInclusive(from, to);
  const sellers = [s.pivot, ...s.competitors];
  const [counts, index, promos] = await Promise.all([
    selectRollupDays(db, { from, to, sellers, roots: s.roots, zone: s.zone }),
    selectIndexIntervals(db, {
      from,
      to,
      pivot: s.pivot,
      competitors: s.competitors,
      roots: s.roots,
      zone: s.zone,
    }),
    selectPromoIntervals(db, { from, to, sellers, roots: s.roots, zone: s.zone }),
  ]);
  const currencies = new Set<string>([s.currency]);
  for (const r of index) currencies.add(r.currency);
  for (const r of promos) currencies.add(r.currency);
  const clp = dailyClp(await loadFx(db, [...currencies], from, to), from, D);

  // Price index per day: per match group and day, my lowest price (pivot listings under the roots) and
  // the lowest in-stock competitor price, both in CLP at the day's rates (the closed-day formula of the
  // DPM index in the default price mode).
  const idxSum = new Float64Array(D);
  const devSum = new Float64Array(D);
  const idxN = new Int32Array(D);
  const mine = new Float64Array(D);
  const best = new Float64Array(D);
  for (let i = 0; i < index.length; ) {
    const group = index[i].group_id;
    mine.fill(Number.NaN);
    best.fill(Number.NaN);
    let lo = D;
    let hi = -1;
    for (; i < index.length && index[i].group_id === group; i++) {
      const r = index[i];
      const isMine = r.seller_id === s.pivot;
      if (isMine ? !r.in_roots : r.stock_out) continue;
      if (r.effective === null || !(r.effective > 0)) continue;
      const target = isMine ? mine : best;
      const rate = clp(r.currency);
      for (let d = Math.max(r.a, 0); d <= Math.min(r.b, D - 1); d++) {
        const p = r.effective * rate[d];
        if (!(p > 0)) continue;
        if (!(p >= target[d])) target[d] = p;
        if (d < lo) lo = d;
        if (d > hi) hi = d;
      }
    }
    addGroupIndex(mine, best, lo, hi, idxSum, devSum, idxN);
  }

  // Discounts per day: every promoted listing with a discount % counts in the day's histogram; its
  // amount (normal − promotion price) in the requested currency at the day's rate, when there is one.
  const target = clp(s.currency);
  const moneySum = new Float64Array(D);
  const moneyN = new Int32Array(D);
  const hist = new Int32Array(D * BUCKETS);
  for (const r of promos) {
    const pct = discountPercent(r.normal_price, r.promo_price);
    if (pct === null || r.normal_price === null || r.promo_price === null) continue;
    const k = discountBucket(pct) / DISCOUNT_BUCKET;
    const amount = r.normal_price - r.promo_price;
    const rate = clp(r.currency);
    for (let d = Math.max(r.a, 0); d <= Math.min(r.b, D - 1); d++) {
      hist[d * BUCKETS + k]++;
      const f = rate[d] / target[d];
      if (!Number.isFinite(f)) continue;
      moneySum[d] += amount * f;
      moneyN[d]++;
    }
  }

  const byDay = new Map(counts.map((c) => [c.day, c]));
  const out = new Map<string, DayFigures>();
  for (let d = 0; d < D; d++) {
    const day = addDays(from, d);
    out.set(day, {
      ...countFigures(byDay.get(day)),
      price_index: idxN[d] ? idxSum[d] / idxN[d] : null,
      deviation: idxN[d] ? devSum[d] / idxN[d] : null,
      monetary_discount: moneyN[d] ? moneySum[d] / moneyN[d] : null,
      buckets: pairs(hist, d * BUCKETS),
    });
  }
  return out;
}
