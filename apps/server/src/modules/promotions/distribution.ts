import { discountPercentOrNaN, PRICE_TYPES } from '@vigia/domain';
import {
  column,
  dateGroups,
  dayString,
  leafGroups,
  RUNNING,
  runningByLeaf,
  type SellerSpans,
} from './model.js';
import type { RunningGroup, TypePricesRow } from './queries.js';

// Range points and scatter-plot points from the in-memory promotions (model.ts). The same definitions
// as the SQL they replace (docs/metrics.md "Promotions"; the reference queries are in
// src/test/promotions-reference.ts, and promotions-model.test.ts compares both): a promotion counts
// when it overlaps the window, its leaf lies under an asked classification (once per asked
// classification that contains it, as the join of the SQL counted it) and its promotion price and
// currency rate are known; its price is promo_price × its currency's factor to the asked currency on
// the promotion's first day (the day whose prices it carries: migration 430), in float8 arithmetic.
// Quantiles are percentile_cont's (linear interpolation between order statistics).
//
// Each answer reads the sellers' columns once, writing the window's prices (and, for the scatter plot,
// their listings) into scratch arrays; the quantiles and the counts per seller read those. The range
// (one classification) reads only its leaves' stretches (model.ts leafGroups); the scatter plot reads
// every promotion in product order (distinct listings). The quantiles are found without sorting or
// reordering the prices (orderStatistics). The computation is synchronous: the scratch arrays serve
// every request (those sized for a whole market are let go after each chart: releaseScratch).

export interface WindowScope {
  /** Leaves of the asked classifications, aligned with `classes` (a leaf repeats per asked node). */
  leaves: number[];
  /** The asked classification of each of `leaves` (the type averages are per asked classification). */
  classes: number[];
  from: number;
  to: number;
  /**
   * Factor to the asked currency of a price in the model's currency index c of a promotion that began
   * on day d (d ≥ day0; only promotions beginning by `to` are read): fx[c × span + d − day0] (NaN: no rate
   * that day). Built by answers.ts fxTable.
   */
  fx: Float64Array;
  day0: number;
  span: number;
  /** what the factors depend on (the asked currency): part of the scatter plot's hint key */
  fxKey: string;
}

/** Longest dense array of scatter buckets (beyond it, a map). */
const DENSE_BUCKETS = 1 << 20;

/** The window's prices (pooled: a promotion once per asked classification containing it). */
let prices = new Float64Array(0);
/** Scatter plot: the window's promotions once each (price, listing, multiplicity); `prices` repeats them. */
let once = new Float64Array(0);
let listing = new Float64Array(0);
let times = new Uint16Array(0);
/** Order statistics: the values between two sampled bounds. */
let band = new Float64Array(0);
/** Buckets of the current product (scatterChart). */
let seen = new Float64Array(16);

const grown = (a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> =>
  a.length >= n ? a : new Float64Array(Math.max(n, Math.ceil(a.length * 1.5)));

/** How many times each leaf counts (one per asked classification containing it). */
export function multiplicity(leaves: number[]): Uint16Array {
  let maxLeaf = 0;
  for (const l of leaves) if (l > maxLeaf) maxLeaf = l;
  const mult = new Uint16Array(maxLeaf + 1);
  for (const l of leaves) mult[l]++;
  return mult;
}

/** Partially orders a[lo..hi] so that a[k] is the k-th smallest (quickselect, median of three). */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number) {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** Values per rank: `ranks` ascending, each selected in a[lo..hi] (reordered) from the previous one on. */
function selectRanks(
  a: Float64Array,
  lo: number,
  hi: number,
  ranks: number[],
  shift: number,
  out: Map<number, number>,
) {
  let from = lo;
  for (const k of ranks) {
    select(a, from, hi, k - shift);
    out.set(k, a[k - shift]);
    from = k - shift;
  }
}

/** Below this many values the order statistics are selected in a copy directly. */
const SMALL = 1 << 14;
/** Sampled values for the bounds of the order statistics. */
const SAMPLE = 4096;

/**
 * The values of ranks `ranks` (ascending, 0-based) of a[0..m), without reordering `a`. For many values:
 * a sample of a gives, for each rank, two bounds that very likely enclose it (Floyd–Rivest); one pass counts
 * the values below each lower bound and between the bounds, a second copies the latter, and the rank is
 * selected among them. The answer is exact whatever the sample: when a rank falls outside its bounds, all
 * values are copied and selected instead.
 */
export function orderStatistics(a: Float64Array, m: number, ranks: number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (m <= SMALL) {
    band = grown(band, m);
    band.set(a.subarray(0, m));
    selectRanks(band, 0, m - 1, ranks, 0, out);
    return out;
  }
  // a deterministic spread sample (the prices are in seller and product order, not in price order)
  const sample = new Float64Array(SAMPLE);
  for (let j = 0; j < SAMPLE; j++) sample[j] = a[Math.floor(((j + 0.5) * m) / SAMPLE)];
  sample.sort();
  // bounds per rank: its expected place in the sample ± 4 standard deviations (+ a margin), merged; `from`
  // and `to` are the sample positions a span covers (its expected share of the values)
  const spans: { lo: number; hi: number; from: number; to: number; ranks: number[] }[] = [];
  for (const k of ranks) {
    const q = k / (m - 1);
    const d = Math.ceil(4 * Math.sqrt(SAMPLE * q * (1 - q)) + 16);
    const from = Math.floor(q * (SAMPLE - 1)) - d;
    const to = Math.ceil(q * (SAMPLE - 1)) + d;
    const lo = from < 0 ? Number.NEGATIVE_INFINITY : sample[from];
    const hi = to >= SAMPLE ? Number.POSITIVE_INFINITY : sample[to];
    const last = spans[spans.length - 1];
    if (last && lo <= last.hi) {
      last.hi = Math.max(last.hi, hi);
      last.to = to;
      last.ranks.push(k);
    } else spans.push({ lo, hi, from, to, ranks: [k] });
  }
  const ns = spans.length;
  const los = Float64Array.from(spans, (s) => s.lo);
  const his = Float64Array.from(spans, (s) => s.hi);
  // room for twice the expected values of each span; read again with the exact room when one was short
  let room = Int32Array.from(spans, (s) => {
    const share = (Math.min(s.to, SAMPLE - 1) - Math.max(s.from, 0) + 1) / SAMPLE;
    return Math.ceil(2 * share * m) + 64;
  });
  let cells = placeValues(a, m, los, his, room);
  if (spans.some((_, j) => cells[2 * j + 1] > room[j])) {
    room = Int32Array.from(spans, (_, j) => cells[2 * j + 1]);
    cells = placeValues(a, m, los, his, room);
  }
  let below = 0;
  let start = 0;
  for (let j = 0; j < ns; j++) {
    below += cells[2 * j];
    const inside = cells[2 * j + 1];
    const { ranks: mine } = spans[j];
    if (mine[0] < below || mine[mine.length - 1] >= below + inside) {
      // the sample missed (improbable): select among all values
      band = grown(band, m);
      band.set(a.subarray(0, m));
      out.clear();
      selectRanks(band, 0, m - 1, ranks, 0, out);
      return out;
    }
    selectRanks(band, start, start + inside - 1, mine, below - start, out);
    below += inside;
    start += room[j];
  }
  return out;
}

/**
 * One pass over a[0..m) against the disjoint ascending spans [los[j], his[j]]: how many values lie before
 * span j (cell 2j), in it (2j + 1) or after all (2ns); the values of span j are copied to `band` from the
 * sum of the rooms before it, as many as its room holds.
 */
function placeValues(
  a: Float64Array,
  m: number,
  los: Float64Array,
  his: Float64Array,
  room: Int32Array,
): Int32Array {
  const ns = los.length;
  const cells = new Int32Array(2 * ns + 1);
  const fill = new Int32Array(ns);
  const end = new Int32Array(ns);
  let total = 0;
  for (let j = 0; j < ns; j++) {
    fill[j] = total;
    total += room[j];
    end[j] = total;
  }
  band = grown(band, total);
  const b = band;
  for (let i = 0; i < m; i++) {
    const v = a[i];
    let j = 0;
    while (j < ns && v > his[j]) j++;
    if (j < ns && v >= los[j]) {
      cells[2 * j + 1]++;
      const f = fill[j];
      if (f < end[j]) {
        b[f] = v;
        fill[j] = f + 1;
      }
    } else cells[2 * j]++;
  }
  return cells;
}

/**
 * percentile_cont of each fraction over a[0..m) (null when m = 0); `a` is left as it is. The value at
 * position p × (m − 1) interpolated between its two order statistics, as PostgreSQL computes it.
 */
export function percentilesCont(a: Float64Array, m: number, fractions: number[]): number[] | null {
  if (m === 0) return null;
  const positions = fractions.flatMap((p) => [Math.floor(p * (m - 1)), Math.ceil(p * (m - 1))]);
  const at = orderStatistics(
    a,
    m,
    [...new Set(positions)].sort((x, y) => x - y),
  );
  return fractions.map((p) => {
    const first = Math.floor(p * (m - 1));
    const low = at.get(first) as number;
    const high = at.get(Math.ceil(p * (m - 1))) as number;
    return low + (p * (m - 1) - first) * (high - low);
  });
}

/**
 * Range chart: the `ranges + 1` boundaries (min, quantiles, max; empty without prices) rounded by
 * `round`, and the promotions per seller and range between the rounded boundaries (1-based: 1 + how many
 * inner boundaries are ≤ the price, width_bucket's rule).
 */
export function rangeChart(
  models: SellerSpans[],
  scope: WindowScope,
  ranges: number,
  round: (v: number) => number,
): { points: number[]; counts: { seller_id: number; range: number; count: number }[] } {
  // one classification's promotions are a few leaves' stretches: read only those, once
  const mult = leafCounts(scope.leaves);
  const ends = models.map(() => 0);
  let cap = 0;
  for (const s of models) {
    const { at } = leafGroups(s);
    for (const [lf, k] of mult) {
      const range = at.get(lf);
      if (range) cap += (range[1] - range[0]) * k;
    }
  }
  prices = grown(prices, cap);
  const out = prices;
  const { from, to, fx, day0, span } = scope;
  let m = 0;
  models.forEach((s, si) => {
    const { at, first, last, promo, cur } = leafGroups(s);
    for (const [lf, k] of mult) {
      const [start, end] = at.get(lf) ?? [0, 0];
      for (let i = start; i < end; i++) {
        if (first[i] > to || last[i] < from) continue;
        const v = promo[i] * fx[cur[i] * span + first[i] - day0];
        if (Number.isNaN(v)) continue; // no price or no rate
        for (let c = 0; c < k; c++) out[m++] = v;
      }
    }
    ends[si] = m;
  });
  const raw = percentilesCont(
    out,
    m,
    Array.from({ length: ranges + 1 }, (_, i) => i / ranges),
  );
  if (!raw) return { points: [], counts: [] };
  const points = raw.map(round);
  const inner = Float64Array.from(points.slice(1, -1));
  const counts: { seller_id: number; range: number; count: number }[] = [];
  let start = 0;
  models.forEach((s, si) => {
    const per = new Array<number>(inner.length + 2).fill(0);
    for (let i = start; i < ends[si]; i++) {
      const v = out[i];
      let r = 1;
      for (let j = 0; j < inner.length; j++) if (v >= inner[j]) r++;
      per[r]++;
    }
    start = ends[si];
    per.forEach((count, range) => {
      if (count > 0) counts.push({ seller_id: s.sellerId, range, count });
    });
  });
  return { points, counts };
}

/** How many times each asked leaf counts. */
export function leafCounts(leaves: number[]): Map<number, number> {
  const mult = new Map<number, number>();
  for (const l of leaves) mult.set(l, (mult.get(l) ?? 0) + 1);
  return mult;
}

export interface ScatterRow {
  seller_id: number;
  price: number;
  count: number;
  ids: number[] | null;
}

/**
 * Scatter plot: the bucket width (`widthOf` the 95th percentile of the pooled prices, 0 without
 * prices) and per seller and bucket (price = floor(price / width) × width) the distinct listings with
 * a promotion priced in it, with the `sample` smallest of their ids.
 *
 * The width needs the 95th percentile before any price is bucketed, so the general computation reads the
 * window twice (scatterTwoPasses). A question asked before with another window (same sellers, leaves and
 * currency factors) left its 95th percentile here: the chart is then computed in one pass with that
 * percentile's width (scatterOnePass), keeping the prices near it to find this window's exact
 * percentile; the answer stands when that percentile gives the same width, else the two passes compute it.
 */
export function scatterChart(
  models: SellerSpans[],
  scope: WindowScope,
  widthOf: (p95: number) => number,
  sample: number,
): { width: number; rows: ScatterRow[] } {
  const key = `${models.map((s) => s.sellerId)}|${scope.leaves}|${scope.fxKey}`;
  const hint = p95Hints.get(key);
  let out = hint !== undefined && hint > 0 ? scatterOnePass(models, scope, widthOf, sample, hint) : null;
  if (out) scatterPasses.one++;
  else {
    out = scatterTwoPasses(models, scope, widthOf, sample);
    scatterPasses.two++;
  }
  if (out.p95 !== null) {
    if (p95Hints.size >= HINTS) p95Hints.clear();
    p95Hints.set(key, out.p95);
  }
  return { width: out.width, rows: out.rows };
}

/** The last 95th percentile of each scatter question (sellers, leaves, factors) in this thread. */
const p95Hints = new Map<string, number>();
const HINTS = 256;
/** How the scatter plots of this thread were computed (tests). */
export const scatterPasses = { one: 0, two: 0 };
/** The one-pass chart keeps the prices within ±BAND of the hinted percentile. */
const BAND = 0.05;
/** Prices near the hinted percentile (scatterOnePass). */
let near = new Float64Array(1024);
/** Listings per bucket index below DENSE_BUCKETS (scatterOnePass; all zero between charts). */
let denseCounts = new Int32Array(1024);

type ScatterOut = { width: number; rows: ScatterRow[]; p95: number | null };

/**
 * The scatter plot in one read of the window, bucketed by `widthOf(hint)`; null when this window's 95th
 * percentile is not among the prices kept near the hint or gives another width.
 */
function scatterOnePass(
  models: SellerSpans[],
  scope: WindowScope,
  widthOf: (p95: number) => number,
  sample: number,
  hint: number,
): ScatterOut | null {
  const width = widthOf(hint);
  const lo = hint * (1 - BAND);
  const hi = hint * (1 + BAND);
  const mult = multiplicity(scope.leaves);
  const top = mult.length;
  const { from, to, fx, day0, span } = scope;
  let pooled = 0; // with multiplicity
  let below = 0;
  let bn = 0;
  let band = near;
  let dense = denseCounts;
  let buckets = seen;
  const rows: ScatterRow[] = [];
  for (const s of models) {
    const { first, last, leaf, promo, cur, product, n } = s;
    const sparse = new Map<number, number>();
    const ids = new Map<number, number[]>();
    const used: number[] = [];
    // a seller's promotions are in product order: its buckets are deduplicated within each product
    let current = -1;
    let ns = 0;
    for (let i = 0; i < n; i++) {
      if (first[i] > to || last[i] < from) continue;
      const lf = leaf[i];
      const k = lf < top ? mult[lf] : 0;
      if (k === 0) continue;
      const v = promo[i] * fx[cur[i] * span + first[i] - day0];
      if (Number.isNaN(v)) continue; // no price or no rate
      pooled += k;
      if (v < lo) below += k;
      else if (v <= hi) {
        if (bn + k > band.length) {
          const more = new Float64Array(Math.max(bn + k, band.length * 2));
          more.set(band.subarray(0, bn));
          band = more;
          near = more;
        }
        for (let c = 0; c < k; c++) band[bn++] = v;
      }
      const b = Math.floor(v / width);
      if (product[i] !== current) {
        current = product[i];
        ns = 0;
      } else {
        let dup = false;
        for (let j = 0; j < ns; j++) if (buckets[j] === b) dup = true;
        if (dup) continue;
      }
      if (ns === buckets.length) {
        const more = new Float64Array(ns * 2);
        more.set(buckets);
        buckets = more;
        seen = more;
      }
      buckets[ns++] = b;
      let count: number;
      if (b >= 0 && b < DENSE_BUCKETS) {
        if (b >= dense.length) {
          const more = new Int32Array(Math.min(DENSE_BUCKETS, Math.max(b + 1, dense.length * 2)));
          more.set(dense);
          dense = more;
          denseCounts = more;
        }
        count = dense[b]++;
      } else {
        count = sparse.get(b) ?? 0;
        sparse.set(b, count + 1);
      }
      if (count === 0) used.push(b);
      if (count < sample) {
        const list = ids.get(b);
        if (list) list.push(current);
        else ids.set(b, [current]);
      }
    }
    used.sort((x, y) => x - y);
    for (const b of used) {
      const inDense = b >= 0 && b < DENSE_BUCKETS;
      const count = inDense ? dense[b] : (sparse.get(b) as number);
      if (inDense) dense[b] = 0;
      rows.push({
        seller_id: s.sellerId,
        price: b * width,
        count,
        ids: sample > 0 ? (ids.get(b) ?? []) : null,
      });
    }
  }
  if (pooled === 0) return { width: widthOf(0), rows: [], p95: null };
  // percentile_cont(0.95) as percentilesCont computes it, from the order statistics kept near the hint
  const pos = 0.95 * (pooled - 1);
  const r1 = Math.floor(pos);
  const r2 = Math.ceil(pos);
  if (r1 < below || r2 >= below + bn) return null;
  const at = new Map<number, number>();
  selectRanks(band, 0, bn - 1, r1 === r2 ? [r1] : [r1, r2], below, at);
  const low = at.get(r1) as number;
  const high = at.get(r2) as number;
  const p95 = low + (pos - r1) * (high - low);
  return widthOf(p95) === width ? { width, rows, p95 } : null;
}

/** The scatter plot in two reads: the window's pooled prices for the 95th percentile, then the buckets. */
function scatterTwoPasses(
  models: SellerSpans[],
  scope: WindowScope,
  widthOf: (p95: number) => number,
  sample: number,
): ScatterOut {
  const mult = multiplicity(scope.leaves);
  let maxMult = 0;
  for (const v of mult) if (v > maxMult) maxMult = v;
  // the window's promotions once each, in the sellers' product order: price and listing
  let cap = 0;
  for (const s of models) cap += s.n;
  once = grown(once, cap);
  listing = grown(listing, cap);
  if (times.length < cap) times = new Uint16Array(once.length);
  // the hot loops read local aliases (a module variable is loaded again on every access)
  const prices1 = once;
  const listings = listing;
  const repeats = times;
  const { from, to, fx, day0, span } = scope;
  const top = mult.length;
  const ends = models.map(() => 0);
  let m = 0;
  let pooled = 0; // with multiplicity
  let max = 0;
  let min = 0;
  for (let si = 0; si < models.length; si++) {
    const { first, last, leaf, promo, cur, product, n } = models[si];
    for (let i = 0; i < n; i++) {
      if (first[i] > to || last[i] < from) continue;
      const lf = leaf[i];
      const k = lf < top ? mult[lf] : 0;
      if (k === 0) continue;
      const v = promo[i] * fx[cur[i] * span + first[i] - day0];
      if (Number.isNaN(v)) continue; // no price or no rate
      prices1[m] = v;
      repeats[m] = k;
      listings[m++] = product[i];
      pooled += k;
      if (v > max) max = v;
      if (v < min) min = v;
    }
    ends[si] = m;
  }
  // the pooled prices: each promotion once per asked classification containing it
  let pool = once;
  if (maxMult > 1) {
    prices = grown(prices, pooled);
    pool = prices;
    let p = 0;
    for (let i = 0; i < m; i++) for (let c = 0; c < times[i]; c++) pool[p++] = once[i];
  }
  const p95 = percentilesCont(pool, pooled, [0.95])?.[0] ?? null;
  const width = widthOf(p95 ?? 0);
  // listings per bucket index: a dense array unless outliers make it too long
  const highest = Math.floor(max / width);
  const dense = min >= 0 && highest < DENSE_BUCKETS ? new Int32Array(highest + 1) : null;
  const rows: ScatterRow[] = [];
  let start = 0;
  models.forEach((s, si) => {
    const sparse = new Map<number, number>();
    const ids = new Map<number, number[]>();
    const used: number[] = [];
    // a seller's promotions are in product order: its buckets are deduplicated within each product
    let current = -1;
    let ns = 0;
    let buckets = seen;
    const end = ends[si];
    for (let i = start; i < end; i++) {
      const b = Math.floor(prices1[i] / width);
      if (listings[i] !== current) {
        current = listings[i];
        ns = 0;
      } else {
        let dup = false;
        for (let j = 0; j < ns; j++) if (buckets[j] === b) dup = true;
        if (dup) continue;
      }
      if (ns === buckets.length) {
        const more = new Float64Array(ns * 2);
        more.set(buckets);
        buckets = more;
        seen = more;
      }
      buckets[ns++] = b;
      let count: number;
      if (dense) count = dense[b]++;
      else {
        count = sparse.get(b) ?? 0;
        sparse.set(b, count + 1);
      }
      if (count === 0) used.push(b);
      if (count < sample) {
        const list = ids.get(b);
        if (list) list.push(current);
        else ids.set(b, [current]);
      }
    }
    start = ends[si];
    used.sort((x, y) => x - y);
    for (const b of used) {
      const count = dense ? dense[b] : (sparse.get(b) as number);
      if (dense) dense[b] = 0;
      rows.push({
        seller_id: s.sellerId,
        price: b * width,
        count,
        ids: sample > 0 ? (ids.get(b) ?? []) : null,
      });
    }
  });
  return { width, rows, p95 };
}

/** A round bucket width near `span / 20` (1, 2 or 5 × a power of ten). */
export function niceStep(span: number, buckets = 20): number {
  if (!(span > 0)) return 1;
  const raw = span / buckets;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const f = raw / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * pow;
}

/** typeChart: a leaf under no asked classification, or under several. */
const NONE = -1;
const SEVERAL = -2;

/**
 * The type screen's promotions and average prices per seller, asked classification (`scope.classes`,
 * aligned with `scope.leaves`) and price type over the window, each promotion's prices × its first-day
 * factor (`scope.fx`): the rows of queries.ts TypePricesRow, as the SQL over the window's promotions
 * computed them (the reference: promotions-model.test.ts). A promotion counts once per asked
 * classification containing its leaf; the averages leave out the prices it lacks and, when its first day
 * had no rate of its currency or of the asked one, all three (the count keeps it). The discount is the
 * domain's discountPercent of its normal and promotion prices (in its own currency, in cents). The
 * pass reads each seller's date groups (model.ts dateGroups: the promotions summed per leaf, type,
 * currency and days, whose prices share one factor) — one pass over every promotion was ~50 ms in a chart
 * thread on the large market (~4.7 M of them; issue 30). The sums are the same up to the order of the
 * float additions (promotions-model.test.ts: to 1e-9 of the SQL's).
 */
export function typeChart(models: SellerSpans[], scope: WindowScope): TypePricesRow[] {
  const { asked, sums } = typeSums(models, scope, null);
  return typeRows(models, asked, sums, 1, 0);
}

/**
 * The type sums (typeChart): per seller, by (asked classification, price type, measure: count, Σ normal,
 * n normal, Σ promotion, n promotion, Σ discount, n discount) over the window's promotions; with `axis`,
 * over every promotion by the index of its last day too (running: `cap`), in `cap + 1` slots per measure
 * (type-index.ts sums them from the end: a window ending on or after every first day).
 */
export function typeSums(
  models: SellerSpans[],
  scope: WindowScope,
  axis: { d0: number; cap: number } | null,
): { asked: number[]; sums: Float64Array[] } {
  const ntypes = PRICE_TYPES.length;
  // the asked classifications containing each leaf (as indexes into `asked`)
  const asked = [...new Set(scope.classes)];
  const slot = new Map(asked.map((c, i) => [c, i]));
  let maxLeaf = 0;
  for (const l of scope.leaves) if (l > maxLeaf) maxLeaf = l;
  const clsOf: number[][] = Array.from({ length: maxLeaf + 1 }, () => []);
  scope.leaves.forEach((l, i) => {
    clsOf[l].push(slot.get(scope.classes[i]) as number);
  });
  // per leaf its one asked classification (the common case: the hot loop reads a typed array, not an
  // array of arrays); NONE: not asked; SEVERAL: read clsOf
  const one = new Int32Array(maxLeaf + 1);
  for (let l = 0; l <= maxLeaf; l++)
    one[l] = clsOf[l].length === 0 ? NONE : clsOf[l].length === 1 ? clsOf[l][0] : SEVERAL;
  const cells = asked.length * ntypes;
  const { fx, day0, span } = scope;
  const from = axis ? Number.NEGATIVE_INFINITY : scope.from;
  const to = axis ? Number.POSITIVE_INFINITY : scope.to;
  const slots = axis ? axis.cap + 1 : 1;
  const sums = models.map((s) => {
    const { first, last, leaf, type, cur, count, normalSum, normalN, promoSum, promoN, discSum, discN, n } =
      dateGroups(s);
    const acc = axis ? column(Float64Array, cells * 7 * slots) : new Float64Array(cells * 7);
    for (let g = 0; g < n; g++) {
      const f0 = first[g];
      if (f0 > to || last[g] < from) continue;
      const lf = leaf[g];
      if (lf > maxLeaf) continue;
      const c1 = one[lf];
      if (c1 === NONE) continue;
      // the group's factor (NaN: no rate that day: the promotions count, their prices do not)
      const f = fx[cur[g] * span + f0 - day0];
      const priced = !Number.isNaN(f);
      const at = axis ? (last[g] === RUNNING ? axis.cap : last[g] - axis.d0) : 0;
      const several = c1 === SEVERAL ? clsOf[lf] : null;
      const times = several ? several.length : 1;
      for (let j = 0; j < times; j++) {
        const o = ((several ? several[j] : c1) * ntypes + type[g]) * 7 * slots + at;
        acc[o] += count[g];
        if (!priced) continue;
        acc[o + slots] += normalSum[g] * f;
        acc[o + 2 * slots] += normalN[g];
        acc[o + 3 * slots] += promoSum[g] * f;
        acc[o + 4 * slots] += promoN[g];
        acc[o + 5 * slots] += discSum[g];
        acc[o + 6 * slots] += discN[g];
      }
    }
    return acc;
  });
  return { asked, sums };
}

/** The type rows of typeSums' `sums` (`slots` slots per measure) read at slot `at`. */
export function typeRows(
  models: Pick<SellerSpans, 'sellerId'>[],
  asked: number[],
  sums: Float64Array[],
  slots: number,
  at: number,
): TypePricesRow[] {
  const ntypes = PRICE_TYPES.length;
  const out: TypePricesRow[] = [];
  models.forEach((s, si) => {
    const acc = sums[si];
    for (let c = 0; c < asked.length; c++)
      for (let t = 0; t < ntypes; t++) {
        const o = (c * ntypes + t) * 7 * slots + at;
        const count = acc[o];
        if (count === 0) continue;
        const m = (k: number) => acc[o + k * slots];
        out.push({
          seller_id: s.sellerId,
          cls: asked[c],
          price_type: PRICE_TYPES[t],
          count,
          normal: m(2) ? m(1) / m(2) : null,
          promotion: m(4) ? m(3) / m(4) : null,
          discount: m(6) ? m(5) / m(6) : null,
        });
      }
  });
  return out;
}

/** Scratch arrays longer than this are let go after each chart (releaseScratch). */
const KEEP = 1 << 20;

/**
 * Lets go of the scratch arrays longer than KEEP elements: a two-pass scatter plot sizes them for every
 * promotion of its sellers (18 bytes each: ~85 MB on the large market, ~40 MB more for pooled prices),
 * and a chart thread kept them for its lifetime — issue 30's memory of an API process, which runs two.
 * The next such chart allocates them again (a few ms of page faults on a ~60 ms chart); the one-pass
 * path that new windows take needs none of them.
 */
export function releaseScratch(): void {
  if (prices.length > KEEP) prices = new Float64Array(0);
  if (once.length > KEEP) once = new Float64Array(0);
  if (listing.length > KEEP) listing = new Float64Array(0);
  if (times.length > KEEP) times = new Uint16Array(0);
  if (band.length > KEEP) band = new Float64Array(0);
  if (near.length > KEEP) near = new Float64Array(1024);
  if (denseCounts.length > KEEP) denseCounts = new Int32Array(1024);
}

/** Elements held by the scratch arrays (tests). */
export const scratchLength = () =>
  prices.length +
  once.length +
  listing.length +
  times.length +
  band.length +
  near.length +
  denseCounts.length;

/**
 * The running promotions (`last` = RUNNING) of the copies `models` whose leaf is one of `leaves`, grouped
 * by (seller, first day, currency) as queries.ts selectDurations reads them: per group the count and, per
 * price, its sum and how many promotions have it — the normal price, the promotion price (promotionPrice:
 * a positive one) and the discount % (discountPercentOrNaN, the SQL's vigia_discount_pct). Over
 * promo_spans (the SQL twin in src/test/promotions-reference.ts) this was the first duration chart's main
 * cost per classification: 100–230 ms on the large market; here only the asked leaves' running promotions
 * are read (model.ts runningByLeaf), a few ms. The prices' sums are exact as
 * the SQL's numeric sums are (to the cent, as integers); the discounts' are float8 sums.
 */
export function runningGroups(models: SellerSpans[], leaves: number[], currencies: string[]): RunningGroup[] {
  const asked = new Set(leaves);
  const out: RunningGroup[] = [];
  for (const s of models) {
    const groups = new Map<number, Sums>();
    const { first, cur, normal, promo } = s;
    const { at, pos } = runningByLeaf(s);
    for (const lf of asked) {
      const [start, end] = at.get(lf) ?? [0, 0];
      for (let j = start; j < end; j++) {
        const i = pos[j];
        const key = first[i] * 256 + cur[i];
        let g = groups.get(key);
        if (!g) {
          g = { n: 0, normal: 0, normalN: 0, promo: 0, promoN: 0, disc: 0, discN: 0 };
          groups.set(key, g);
        }
        g.n++;
        const nm = normal[i];
        if (!Number.isNaN(nm)) {
          g.normal += Math.round(nm * 100);
          g.normalN++;
        }
        const pr = promo[i];
        if (!Number.isNaN(pr)) {
          g.promo += Math.round(pr * 100);
          g.promoN++;
        }
        const d = discountPercentOrNaN(nm, pr);
        if (!Number.isNaN(d)) {
          g.disc += d;
          g.discN++;
        }
      }
    }
    for (const [key, g] of groups)
      out.push({
        seller_id: s.sellerId,
        first_day: dayString(Math.floor(key / 256)),
        currency: currencies[key % 256],
        n: g.n,
        normal: g.normalN ? centsText(g.normal) : null,
        normal_n: g.normalN,
        promo: g.promoN ? centsText(g.promo) : null,
        promo_n: g.promoN,
        disc: g.discN ? String(g.disc) : null,
        disc_n: g.discN,
      });
  }
  return out;
}

interface Sums {
  n: number;
  /** cents */
  normal: number;
  normalN: number;
  /** cents */
  promo: number;
  promoN: number;
  disc: number;
  discN: number;
}

/** A whole number of cents as a decimal text (12345 → "123.45"). */
function centsText(cents: number): string {
  const a = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
