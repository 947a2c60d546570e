import { createHash } from 'node:crypto';
import {
  addDays,
  BRAND_COMPARATOR_DEFAULT_BRANDS,
  BRAND_COMPARATOR_TREND_POINTS,
  type BrandComparatorResponse,
  daysInclusive,
  priceIndexValue,
  round2,
  SELLER_NOT_FOUND,
} from '@vigia/domain';
import type pg from 'pg';
import type { ReadModels } from '../../platform/read-model.js';
import {
  groupOut,
  offerCounted,
  offerInOf,
  type Resolved,
  type ScoredSet,
  sellerGroupOut,
  tallyByBrand,
  tallyBySeller,
} from '../pricing/index.js';
import { pricesAt, type TrendPrices } from './history.js';

// Brand price comparator (docs/metrics.md "Brand price comparator"): per brand, the pivot's price index
// against each competitor over the products matched there — the pricing feature's scoring (DPM by
// e-commerce restricted to the brand's products), so the numbers agree with DPM by brand — and its trend:
// the same average at evenly spaced days of the period, from the price history of the same listings.

/** The trend's days: `points` days evenly spread over [from, to], the last one `to`. */
export function trendDays(from: string, to: string, points = BRAND_COMPARATOR_TREND_POINTS): string[] {
  const length = daysInclusive(from, to);
  const n = Math.max(1, Math.min(points, length));
  if (n === 1) return [to];
  return Array.from({ length: n }, (_, j) =>
    addDays(to, -Math.round(((n - 1 - j) * (length - 1)) / (n - 1))),
  );
}

/** Brands compared: all of the selection when the user picked brands, else own brands, else the largest. */
export function chooseBrands(
  present: { id: number; products: number }[],
  own: number[],
  picked: boolean,
): number[] {
  const ownSet = new Set(own);
  const ordered = [...present].sort(
    (a, b) => Number(ownSet.has(b.id)) - Number(ownSet.has(a.id)) || b.products - a.products || a.id - b.id,
  );
  if (picked) return ordered.map((b) => b.id);
  const mine = ordered.filter((b) => ownSet.has(b.id));
  return (mine.length ? mine : ordered.slice(0, BRAND_COMPARATOR_DEFAULT_BRANDS)).map((b) => b.id);
}

/**
 * Per day of `prices` and competitor seller (by its column index in the model), the pivot's average index
 * over `positions` at the end of that day: per product, my effective price (price mode) against the
 * competitor's lowest in-stock effective price among the product's counted matched listings there, both
 * converted with the request's rates; the mean of those indexes (null: no product comparable). One pass
 * over the positions and their offers for every day and competitor at once; each day's sums add the
 * products in the order of `positions`.
 */
export function averageIndexesByDay(
  set: ScoredSet,
  positions: number[],
  prices: TrendPrices,
): (number | null)[][] {
  const c = set.model.cols;
  const nSellers = c.sellerIds.length;
  const nDays = prices.days;
  const cells = nDays * nSellers; // cell = day × nSellers + seller
  const sum = new Float64Array(cells);
  const count = new Int32Array(cells);
  const lowest = new Float64Array(cells).fill(Number.NaN);
  const touched = new Int32Array(cells);
  const theirs = new Float64Array(nDays);
  const mine = new Float64Array(nDays);
  let nTouched = 0;
  const offerIn = offerInOf(set);
  for (const i of positions) {
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) {
      if (!offerIn[k]) continue;
      prices.theirs(k, theirs);
      const seller = c.offerSeller[k];
      for (let d = 0, cell = seller; d < nDays; d++, cell += nSellers) {
        const p = theirs[d];
        if (!(p > 0)) continue;
        if (Number.isNaN(lowest[cell])) touched[nTouched++] = cell;
        if (!(p >= lowest[cell])) lowest[cell] = p;
      }
    }
    if (!nTouched) continue;
    prices.mine(i, mine);
    for (let t = 0; t < nTouched; t++) {
      const cell = touched[t];
      const my = mine[(cell / nSellers) | 0];
      const index = priceIndexValue(my, lowest[cell]);
      lowest[cell] = Number.NaN;
      if (Number.isNaN(index)) continue;
      sum[cell] += index;
      count[cell]++;
    }
    nTouched = 0;
  }
  return Array.from({ length: nDays }, (_, d) =>
    Array.from({ length: nSellers }, (_, seller) => {
      const n = count[d * nSellers + seller];
      return n ? sum[d * nSellers + seller] / n : null;
    }),
  );
}

/**
 * Per-day averages recently computed (per competitor column), by day (TrendPrices.dayKeys) and by what
 * the average reads of the scored set: the brand's positions and which of their offers count. A period
 * that moves by a day, or another window or filter that leaves a brand's products and counted offers as
 * they were, reuses the days it shares with an earlier question (a few MB at most).
 */
const DAY_AVERAGES_SIZE = 8192;
const dayAveragesOf = (models: ReadModels) =>
  models.memo<(number | null)[]>('comparator-day-averages', DAY_AVERAGES_SIZE, false);

/** What averageIndexesByDay reads of a scored set for `positions` (their rows and counted offers). */
function positionsDigest(set: ScoredSet, positions: number[]): string {
  const c = set.model.cols;
  let n = 0;
  for (const i of positions) n += c.offerStart[i + 1] - c.offerStart[i];
  const flags = new Uint8Array(n);
  const offerIn = offerInOf(set);
  n = 0;
  // (copied one by one: a subarray per position was ~1 MB of short-lived views a request on large)
  for (const i of positions)
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) flags[n++] = offerIn[k];
  return createHash('sha1').update(Int32Array.from(positions)).update(flags).digest('base64');
}

/** A brand's trend (averageIndexesByDay), reusing the days already computed for the same inputs. */
export function brandTrend(
  models: ReadModels,
  set: ScoredSet,
  positions: number[],
  prices: TrendPrices,
): (number | null)[][] {
  if (!prices.dayKeys) return averageIndexesByDay(set, positions, prices);
  const dayAverages = dayAveragesOf(models);
  const digest = positionsDigest(set, positions);
  const keys = prices.dayKeys.map((k) => `${k}|${digest}`);
  const out = keys.map((k) => {
    return dayAverages.get(k);
  });
  const missing = out.flatMap((v, d) => (v ? [] : [d]));
  if (missing.length) {
    const computed = averageIndexesByDay(set, positions, prices.only(missing));
    missing.forEach((d, j) => {
      out[d] = computed[j];
      dayAverages.set(keys[d], computed[j]);
    });
  }
  return out as (number | null)[][];
}

/** The comparator's answer for a resolved pricing scope and its scored set. */
export async function brandComparator(
  pool: pg.Pool,
  resolved: Resolved,
  set: ScoredSet,
  q: { from: string; to: string; own: number[]; picked: boolean; zone: string },
): Promise<BrandComparatorResponse> {
  const { scope, model } = resolved;
  // DPM by brand's tally (same memo key as the DPM screen: one computation for both)
  const tallies = tallyByBrand(set);
  const present = [...tallies]
    .filter(([id]) => id !== 0)
    .map(([id, t]) => ({ id, products: t.kpis().total }));
  const chosen = chooseBrands(present, q.own, q.picked);
  const positionsOf = new Map<number, number[]>(chosen.map((id) => [id, []]));
  const names = new Map<number, string>();
  const { rowBrand } = model.cols; // 0: no brand, never chosen
  for (const i of set.filtered) {
    const list = positionsOf.get(rowBrand[i]);
    if (!list) continue;
    list.push(i);
    if (!names.has(rowBrand[i])) {
      const { brandName } = model.rows[i];
      if (brandName !== null) names.set(rowBrand[i], brandName);
    }
  }

  // history of the chosen brands' pivot listings and their counted competitor listings (their ids are
  // needed only while the in-memory history is not loaded)
  const days = trendDays(q.from, q.to);
  const c = model.cols;
  const listingIds = () => {
    const ids = new Set<number>();
    for (const positions of positionsOf.values())
      for (const i of positions) {
        ids.add(model.rows[i].productId);
        for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++)
          if (offerCounted(set, k)) ids.add(c.offerProductId[k]);
      }
    return [...ids];
  };
  const prices = await pricesAt(pool, model, listingIds, days, scope.mode, scope.rates, q.zone);
  const sellerColumn = new Map(c.sellerIds.map((id, col) => [id, col]));
  const trendOf = new Map(
    chosen.map((brandId) => [
      brandId,
      brandTrend(resolved.models, set, positionsOf.get(brandId) ?? [], prices),
    ]),
  );

  const own = new Set(q.own);
  const items = chosen.map((brandId) => {
    const positions = positionsOf.get(brandId) ?? [];
    const sub: ScoredSet = { ...set, filtered: positions, memo: new Map() };
    const bySeller = tallyBySeller(sub);
    const brandTally = tallies.get(brandId);
    return {
      brand_id: brandId,
      name: names.get(brandId) ?? '',
      own: own.has(brandId),
      products: positions.length,
      average_index: brandTally ? groupOut(brandTally).average_index : null,
      sellers: bySeller.map((g) => {
        const out = sellerGroupOut(g, resolved.sellers, positions.length);
        const col = sellerColumn.get(g.sellerId);
        const trend = (trendOf.get(brandId) ?? []).map((day) => round2(col === undefined ? null : day[col]));
        const previous = trend[0] ?? null;
        return {
          seller_id: g.sellerId,
          products: out.products,
          average_index: out.average_index,
          previous_average_index: previous,
          change:
            out.average_index === null || previous === null ? null : round2(out.average_index - previous),
          trend,
        };
      }),
    };
  });
  return {
    currency: scope.currency,
    pivot_id: scope.pivot,
    mpi_value: scope.mpiValue,
    from_date: q.from,
    to_date: q.to,
    trend_days: days,
    competitors: scope.competitors.map((id) => {
      const s = resolved.sellers.get(id);
      return { id, name: s?.name ?? SELLER_NOT_FOUND, color: s?.color ?? '#9e9e9e' };
    }),
    items,
  };
}
