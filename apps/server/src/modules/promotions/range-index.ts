import { leafCounts, type WindowScope } from './distribution.js';
import { column, leafGroups, RUNNING, type SellerSpans } from './model.js';
import { binOf, dayAxis, sampledEdges } from './scatter-index.js';

// The range chart (distribution.ts rangeChart) of a window that ends on or after the copies' latest first
// day, for any first day: such a window holds the asked classification's promotions whose last day is ≥
// its first day. Kept per question (built once by a chart thread, in shared memory): the promotions' price
// bins (a sample's quantiles) with, per seller, bin and last day, how many promotions end on or after it,
// and each bin's promotions. A window's boundaries are order statistics read in the bins that hold them,
// and each seller's count below a boundary is its bins below plus the boundary's bin read through — a few
// thousand values per request, where the pass over the classification's promotions was ~20–30 ms of a
// chart thread on the large market (issue 30: one root, new window each request, c16 496–549 ms). Same
// numbers as rangeChart (promotions-model.test.ts compares both with the SQL; range-index.test.ts every
// first day on larger copies).

/** Price bins of the order statistics. */
const BINS = 128;
const SAMPLE = 8192;

export interface RangeIndex {
  /** the latest first day of a counted promotion (−1: none) */
  maxFirst: number;
  d0: number;
  cap: number;
  edges: Float64Array;
  /** each bin's lowest value (0 … nb − 1), then its highest (nb … 2nb − 1) */
  bounds: Float64Array;
  /** per (seller, bin, last-day index): promotions (with multiplicity) ending at or after it */
  counts: Int32Array;
  /**
   * each bin's promotions when its values differ: refs binStart[b] … binStart[b + 1] − 1 (seller index,
   * position in its leaf groups, multiplicity — none kept when every one is 1)
   */
  binStart: Int32Array;
  refSeller: Uint8Array;
  refPos: Int32Array;
  refTimes: Uint16Array;
}

/** Calls `each(seller index, position in its leaf groups, price, multiplicity)` for the counted promotions. */
function forCounted(
  models: SellerSpans[],
  scope: WindowScope,
  each: (si: number, i: number, v: number, k: number) => void,
): void {
  const mult = leafCounts(scope.leaves);
  const { fx, day0, span } = scope;
  models.forEach((s, si) => {
    const { at, first, promo, cur } = leafGroups(s);
    for (const [lf, k] of mult) {
      const [start, end] = at.get(lf) ?? [0, 0];
      for (let i = start; i < end; i++) {
        const v = promo[i] * fx[cur[i] * span + first[i] - day0];
        if (!Number.isNaN(v)) each(si, i, v, k);
      }
    }
  });
}

export function buildRangeIndex(models: SellerSpans[], scope: WindowScope): RangeIndex {
  const { n, maxFirst, d0, cap } = dayAxis((each) =>
    forCounted(models, scope, (si, i) =>
      each(leafGroups(models[si]).first[i], leafGroups(models[si]).last[i]),
    ),
  );
  const edges = sampledEdges((each) => forCounted(models, scope, (_si, _i, v) => each(v)), n, SAMPLE, BINS);
  const nb = edges.length + 1;
  const slots = cap + 1;
  const counts = column(Int32Array, models.length * nb * slots);
  const binStart = column(Int32Array, nb + 1);
  const lowest = new Float64Array(nb).fill(Number.POSITIVE_INFINITY);
  const highest = new Float64Array(nb).fill(Number.NEGATIVE_INFINITY);
  let several = false;
  forCounted(models, scope, (si, i, v, k) => {
    const b = binOf(edges, v);
    const l = leafGroups(models[si]).last[i];
    counts[(si * nb + b) * slots + (l === RUNNING ? cap : l - d0)] += k;
    binStart[b + 1]++;
    if (v < lowest[b]) lowest[b] = v;
    if (v > highest[b]) highest[b] = v;
    if (k > 1) several = true;
  });
  for (let o = 0; o < counts.length; o += slots)
    for (let j = slots - 2; j >= 0; j--) counts[o + j] += counts[o + j + 1];
  // each bin's promotions, for the bins whose values differ (a bin of one value is read from `lowest`);
  // their bins found again rather than kept while building
  for (let b = 0; b < nb; b++) {
    if (lowest[b] === highest[b]) binStart[b + 1] = 0;
    binStart[b + 1] += binStart[b];
  }
  const fill = binStart.slice(0, nb);
  const refs = binStart[nb];
  const refSeller = column(Uint8Array, refs);
  const refPos = column(Int32Array, refs);
  const refTimes = column(Uint16Array, several ? refs : 0);
  forCounted(models, scope, (si, i, v, k) => {
    const b = binOf(edges, v);
    if (lowest[b] === highest[b]) return;
    const r = fill[b]++;
    refSeller[r] = si;
    refPos[r] = i;
    if (several) refTimes[r] = k;
  });
  const bounds = column(Float64Array, 2 * nb);
  bounds.set(lowest);
  bounds.set(highest, nb);
  return {
    maxFirst: n ? maxFirst : -1,
    d0,
    cap,
    edges,
    bounds,
    counts,
    binStart,
    refSeller,
    refPos,
    refTimes,
  };
}

/**
 * rangeChart's answer for the window whose first day has index `fi` (scatter-index.ts fromIndex):
 * the `ranges + 1` boundaries rounded by `round` and the promotions per seller and range.
 */
export function rangeFromIndex(
  models: SellerSpans[],
  scope: WindowScope,
  index: RangeIndex,
  fi: number,
  ranges: number,
  round: (v: number) => number,
): { points: number[]; counts: { seller_id: number; range: number; count: number }[] } {
  const { edges, bounds, counts, binStart, refSeller, refPos, refTimes, cap, d0 } = index;
  const nb = edges.length + 1;
  const slots = cap + 1;
  const ns = models.length;
  const { fx, day0, span } = scope;
  const at = (si: number, b: number) => counts[(si * nb + b) * slots + fi];
  /** Bin b's values in the window, with multiplicity; `seller` ≥ 0: only that seller's. */
  const valuesIn = (b: number, seller = -1): number[] => {
    const out: number[] = [];
    for (let r = binStart[b]; r < binStart[b + 1]; r++) {
      const si = refSeller[r];
      if (seller >= 0 && si !== seller) continue;
      const g = leafGroups(models[si]);
      const i = refPos[r];
      const l = g.last[i];
      if ((l === RUNNING ? cap : l - d0) < fi) continue;
      const v = g.promo[i] * fx[g.cur[i] * span + g.first[i] - day0];
      for (let k = refTimes.length ? refTimes[r] : 1; k > 0; k--) out.push(v);
    }
    return out;
  };
  // the window's count and the boundaries (percentile_cont at i / ranges, as rangeChart asks them)
  const perBin = new Float64Array(nb);
  let m = 0;
  for (let b = 0; b < nb; b++) {
    for (let si = 0; si < ns; si++) perBin[b] += at(si, b);
    m += perBin[b];
  }
  if (m === 0) return { points: [], counts: [] };
  const fractions = Array.from({ length: ranges + 1 }, (_, i) => i / ranges);
  const valueOfRank = (rank: number): number => {
    let below = 0;
    let b = 0;
    while (below + perBin[b] <= rank) below += perBin[b++];
    if (bounds[b] === bounds[nb + b]) return bounds[b]; // a bin of one value
    return Float64Array.from(valuesIn(b)).sort()[rank - below];
  };
  const raw = fractions.map((q) => {
    const first = Math.floor(q * (m - 1));
    const low = valueOfRank(first);
    const high = valueOfRank(Math.ceil(q * (m - 1)));
    return low + (q * (m - 1) - first) * (high - low);
  });
  const points = raw.map(round);
  const inner = points.slice(1, -1);
  // per seller, how many of its values lie below each inner boundary: its bins below, then the boundary's bin
  const out: { seller_id: number; range: number; count: number }[] = [];
  models.forEach((s, si) => {
    let total = 0;
    for (let b = 0; b < nb; b++) total += at(si, b);
    const below = inner.map((x) => {
      const bx = binOf(edges, x);
      let k = 0;
      for (let b = 0; b < bx; b++) k += at(si, b);
      if (bounds[bx] === bounds[nb + bx]) return bounds[bx] < x ? k + at(si, bx) : k;
      for (const v of valuesIn(bx, si)) if (v < x) k++;
      return k;
    });
    const cumulative = [0, ...below, total];
    for (let r = 1; r < cumulative.length; r++) {
      const count = cumulative[r] - cumulative[r - 1];
      if (count > 0) out.push({ seller_id: s.sellerId, range: r, count });
    }
  });
  return { points, counts: out };
}
