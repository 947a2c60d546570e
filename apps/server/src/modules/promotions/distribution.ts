import { leafGroups, type SellerSpans } from './model.js';

// Range points and scatter-plot points from the in-memory promotions (model.ts). The same definitions
// as the SQL they replace (docs/metrics.md "Promotions"; the reference queries are in
// src/test/promotions-reference.ts, and promotions-model.test.ts compares both): a promotion counts
// when it overlaps the window, its leaf lies under an asked classification (once per asked
// classification that contains it, as the join of the SQL counted it) and its promotion price and
// currency rate are known; its price is promo_price × the currency's factor, in float8 arithmetic.
// Quantiles are percentile_cont's (linear interpolation between order statistics).
//
// Each answer reads the sellers' columns twice: once to pool the prices (for the quantiles, selected in
// place), once to count per seller. The range (one classification) reads only its leaves' groups
// (model.ts leafGroups); the scatter plot reads every promotion in product order (distinct listings). The computation is synchronous: one scratch array serves every
// request.

export interface WindowScope {
  /** Leaves of the asked classifications, aligned with `classes` (a leaf repeats per asked node). */
  leaves: number[];
  from: number;
  to: number;
  /** factor per currency index of the model (NaN: no rate) */
  factors: Float64Array;
}

/** Longest dense array of scatter buckets (beyond it, a map). */
const DENSE_BUCKETS = 1 << 20;

let scratch = new Float64Array(0);
/** Buckets of the current product (scatterChart). */
let seen = new Float64Array(16);

/** How many times each leaf counts (one per asked classification containing it). */
function multiplicity(leaves: number[]): Uint16Array {
  let maxLeaf = 0;
  for (const l of leaves) if (l > maxLeaf) maxLeaf = l;
  const mult = new Uint16Array(maxLeaf + 1);
  for (const l of leaves) mult[l]++;
  return mult;
}

/** The prices of the window's promotions pooled over sellers, in the scratch array: how many. */
function poolPrices(models: SellerSpans[], scope: WindowScope, mult: Uint16Array): number {
  let maxMult = 0;
  for (const v of mult) if (v > maxMult) maxMult = v;
  let cap = 0;
  for (const s of models) cap += s.n * maxMult;
  if (scratch.length < cap) scratch = new Float64Array(Math.max(cap, Math.ceil(scratch.length * 1.5)));
  const out = scratch;
  const { from, to, factors } = scope;
  const top = mult.length;
  let m = 0;
  for (const s of models) {
    const { first, last, leaf, promo, cur, n } = s;
    for (let i = 0; i < n; i++) {
      if (first[i] > to || last[i] < from) continue;
      const lf = leaf[i];
      const k = lf < top ? mult[lf] : 0;
      if (k === 0) continue;
      const v = promo[i] * factors[cur[i]];
      if (Number.isNaN(v)) continue; // no price or no rate
      for (let j = 0; j < k; j++) out[m++] = v;
    }
  }
  return m;
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

/**
 * percentile_cont of each fraction over a[0..m) (null when m = 0); reorders a. The value at position
 * p × (m − 1) interpolated between its two order statistics, as PostgreSQL computes it.
 */
export function percentilesCont(a: Float64Array, m: number, fractions: number[]): number[] | null {
  if (m === 0) return null;
  const positions = fractions.flatMap((p) => [Math.floor(p * (m - 1)), Math.ceil(p * (m - 1))]);
  const order = [...new Set(positions)].sort((x, y) => x - y);
  // each selection leaves the smaller values before it: the next one searches from it on
  let lo = 0;
  const at = new Map<number, number>();
  for (const k of order) {
    select(a, lo, m - 1, k);
    at.set(k, a[k]);
    lo = k;
  }
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
  // one classification's promotions are a few leaves' groups: read only those
  const m = poolLeafPrices(models, scope);
  const raw = percentilesCont(
    scratch,
    m,
    Array.from({ length: ranges + 1 }, (_, i) => i / ranges),
  );
  if (!raw) return { points: [], counts: [] };
  const points = raw.map(round);
  const inner = points.slice(1, -1);
  const counts: { seller_id: number; range: number; count: number }[] = [];
  const mult = leafCounts(scope.leaves);
  for (const s of models) {
    const per = new Array<number>(inner.length + 2).fill(0);
    eachLeafPrice(s, mult, scope, (v, k) => {
      let r = 1;
      for (const t of inner) if (v >= t) r++;
      per[r] += k;
    });
    per.forEach((count, range) => {
      if (count > 0) counts.push({ seller_id: s.sellerId, range, count });
    });
  }
  return { points, counts };
}

/** How many times each asked leaf counts. */
function leafCounts(leaves: number[]): Map<number, number> {
  const mult = new Map<number, number>();
  for (const l of leaves) mult.set(l, (mult.get(l) ?? 0) + 1);
  return mult;
}

/** poolPrices through the sellers' leaf groups (same prices, another order). */
function poolLeafPrices(models: SellerSpans[], scope: WindowScope): number {
  const mult = leafCounts(scope.leaves);
  let cap = 0;
  for (const s of models) {
    const { at } = leafGroups(s);
    for (const [lf, k] of mult) {
      const range = at.get(lf);
      if (range) cap += (range[1] - range[0]) * k;
    }
  }
  if (scratch.length < cap) scratch = new Float64Array(Math.max(cap, Math.ceil(scratch.length * 1.5)));
  const out = scratch;
  let m = 0;
  for (const s of models)
    eachLeafPrice(s, mult, scope, (v, k) => {
      for (let c = 0; c < k; c++) out[m++] = v;
    });
  return m;
}

/**
 * Visits the seller's promotions in the window within the asked leaves, through its leaf groups: `v` is the
 * promoted price in the asked currency, `k` how many times its leaf was asked. Promotions without a price
 * are skipped.
 */
function eachLeafPrice(
  s: SellerSpans,
  mult: Map<number, number>,
  scope: WindowScope,
  visit: (v: number, k: number) => void,
): void {
  const { first, last, promo, cur } = s;
  const { order, at } = leafGroups(s);
  const { from, to, factors } = scope;
  for (const [lf, k] of mult) {
    const [start, end] = at.get(lf) ?? [0, 0];
    for (let j = start; j < end; j++) {
      const i = order[j];
      if (first[i] > to || last[i] < from) continue;
      const v = promo[i] * factors[cur[i]];
      if (!Number.isNaN(v)) visit(v, k);
    }
  }
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
 */
export function scatterChart(
  models: SellerSpans[],
  scope: WindowScope,
  widthOf: (p95: number) => number,
  sample: number,
): { width: number; rows: ScatterRow[] } {
  const mult = multiplicity(scope.leaves);
  const m = poolPrices(models, scope, mult);
  let max = 0;
  let min = 0;
  for (let i = 0; i < m; i++) {
    const v = scratch[i];
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const width = widthOf(percentilesCont(scratch, m, [0.95])?.[0] ?? 0);
  // listings per bucket index: a dense array unless outliers make it too long
  const highest = Math.floor(max / width);
  const dense = min >= 0 && highest < DENSE_BUCKETS ? new Int32Array(highest + 1) : null;
  const { from, to, factors } = scope;
  const top = mult.length;
  const rows: ScatterRow[] = [];
  for (const s of models) {
    const sparse = new Map<number, number>();
    const ids = new Map<number, number[]>();
    const used: number[] = [];
    // a seller's promotions are in product order: its buckets are deduplicated within each product
    let current = -1;
    let ns = 0;
    const { first, last, leaf, promo, cur, product, n } = s;
    for (let i = 0; i < n; i++) {
      if (first[i] > to || last[i] < from) continue;
      const lf = leaf[i];
      if (lf >= top || mult[lf] === 0) continue;
      const v = promo[i] * factors[cur[i]];
      if (Number.isNaN(v)) continue;
      const b = Math.floor(v / width);
      if (product[i] !== current) {
        current = product[i];
        ns = 0;
      } else {
        let dup = false;
        for (let j = 0; j < ns; j++) if (seen[j] === b) dup = true;
        if (dup) continue;
      }
      if (ns === seen.length) {
        const grown = new Float64Array(ns * 2);
        grown.set(seen);
        seen = grown;
      }
      seen[ns++] = b;
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
  }
  return { width, rows };
}
