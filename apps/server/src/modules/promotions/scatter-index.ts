import { multiplicity, type ScatterRow, type WindowScope } from './distribution.js';
import { column, RUNNING, type SellerSpans } from './model.js';

// The scatter plot of a window that ends on or after the copies' latest first day (the screens' default:
// a period ending today), for any first day, from two structures built once per question (sellers, leaves,
// currency factors) and per set of copies — instead of a pass over every promotion of the window per
// request (~87 ms of a chart thread on the large market, 4.7 M promotions: 32 requests with new windows
// queued 1.3–1.4 s on the two threads, issue 30).
//
// Such a window holds exactly the promotions whose last day is ≥ its first day (every first day is ≤ its
// end). So, on an axis of last days (index 0 = the earliest first day, `cap` = running or after the
// latest ended promotion):
//  - ScatterIndex: the bucket width for each possible first day — the 95th percentile of the prices of the
//    promotions ending on or after it, found from counts per (price bin, last day) and the one or two bins
//    that hold its order statistics;
//  - ScatterPairs (per width): each (listing, bucket) once, with the latest last day of the listing's
//    promotions in that bucket, grouped by bucket in listing order. A window counts a listing in a bucket
//    when that day is ≥ its first day; its sample ids are the first such listings.
// Same definitions and numbers as distribution.ts scatterChart (promotions-model.test.ts compares both, and
// both with the SQL).

/** The width of the scatter plot for each first day of a window ending on or after `maxFirst`. */
export interface ScatterIndex {
  /** the latest first day of a counted promotion (−1: none) */
  maxFirst: number;
  /** the day of index 0 of the last-day axis */
  d0: number;
  /** the axis' last index: running promotions, and any first day after the latest ended promotion */
  cap: number;
  /** the bucket width of a window whose first day has index i (0 … cap) */
  widths: Float64Array;
}

/** One seller's (listing, bucket) pairs for one width, grouped by bucket (ascending), in listing order. */
export interface ScatterPairs {
  /** the buckets (price = bucket × width) */
  buckets: Float64Array;
  /** pairs of bucket g: starts[g] … starts[g + 1] − 1 */
  starts: Int32Array;
  /** the pair's latest last-day index */
  last: Uint16Array;
  /** each group's `last` again, ascending (a window's count: those ≥ its first day's index) */
  sortedLast: Uint16Array;
  /** a position of the pair's listing in the seller's columns (its product id: product[pos]) */
  pos: Int32Array;
}

/** The index on the last-day axis of a window's first day `from`. */
export const fromIndex = (index: Pick<ScatterIndex, 'd0' | 'cap'>, from: number): number =>
  from <= index.d0 ? 0 : Math.min(from - index.d0, index.cap);

/** Price bins of the percentile search (from a sample's quantiles; a value frequent in it gets its own). */
const BINS = 1024;
const SAMPLE = 16_384;

const bits = new Float64Array(1);
const bitsInt = new BigInt64Array(bits.buffer);
/** The smallest double greater than a finite `x`. */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  bits[0] = x;
  bitsInt[0] += x > 0 ? 1n : -1n;
  return bits[0];
}

/**
 * Edges of about `bins` price bins from a sorted sample's quantiles (a bin is [edge, next edge)); a value
 * repeated in the sample at a quantile gets a bin of its own, [x, nextUp(x)), so that a price thousands of
 * promotions share is one value, not a bin to read through.
 */
export function priceEdges(sample: Float64Array, bins: number): Float64Array {
  const edges: number[] = [];
  const per = Math.max(1, Math.floor(sample.length / bins));
  for (let j = per; j < sample.length; j += per) {
    const x = sample[j];
    if (edges.length && edges[edges.length - 1] >= x) continue;
    edges.push(x);
    if (sample[j - 1] === x || (j + 1 < sample.length && sample[j + 1] === x)) edges.push(nextUp(x));
  }
  return Float64Array.from(edges);
}

/** The bin of `v`: how many edges are ≤ v. */
export function binOf(edges: Float64Array, v: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last-day axis of some promotions: index 0 = their earliest first day, `cap` = running or later. */
export interface DayAxis {
  /** how many promotions */
  n: number;
  /** the latest first day (−1: none) */
  maxFirst: number;
  d0: number;
  cap: number;
}

/** The axis of the promotions `visit` walks (each one's first and last day). */
export function dayAxis(visit: (each: (first: number, last: number) => void) => void): DayAxis {
  let n = 0;
  let minFirst = Number.POSITIVE_INFINITY;
  let maxFirst = -1;
  let maxEnded = -1;
  visit((first, last) => {
    n++;
    if (first < minFirst) minFirst = first;
    if (first > maxFirst) maxFirst = first;
    if (last !== RUNNING && last > maxEnded) maxEnded = last;
  });
  if (!n) return { n, maxFirst: -1, d0: 0, cap: 0 };
  return { n, maxFirst, d0: minFirst, cap: Math.max(0, maxEnded - minFirst + 1) };
}

/** Price bin edges (priceEdges) from a spread sample of about `size` of the `n` prices `visit` walks. */
export function sampledEdges(
  visit: (each: (v: number) => void) => void,
  n: number,
  size: number,
  bins: number,
): Float64Array {
  const stride = Math.max(1, Math.floor(n / size));
  const picked: number[] = [];
  let c = 0;
  visit((v) => {
    if (c++ % stride === 0) picked.push(v);
  });
  return priceEdges(Float64Array.from(picked).sort(), bins);
}

/**
 * Calls `each(seller index, position, price, multiplicity)` for every promotion the scatter plot counts in
 * a window ending on or after every first day: its leaf under an asked classification and a price in the
 * asked currency (distribution.ts scatterChart's filter, without the window).
 */
function forCounted(
  models: SellerSpans[],
  scope: WindowScope,
  each: (si: number, i: number, v: number, k: number) => void,
): void {
  const mult = multiplicity(scope.leaves);
  const top = mult.length;
  const { fx, day0, span } = scope;
  for (let si = 0; si < models.length; si++) {
    const { first, leaf, promo, cur, n } = models[si];
    for (let i = 0; i < n; i++) {
      const lf = leaf[i];
      const k = lf < top ? mult[lf] : 0;
      if (k === 0) continue;
      const v = promo[i] * fx[cur[i] * span + first[i] - day0];
      if (Number.isNaN(v)) continue;
      each(si, i, v, k);
    }
  }
}

/**
 * The widths of every first day (see the file's comment). `scope` must end on or after every first day of
 * the copies (the caller checks `maxFirst` against its windows).
 */
export function buildScatterIndex(
  models: SellerSpans[],
  scope: WindowScope,
  widthOf: (p95: number) => number,
): ScatterIndex {
  const { n, maxFirst, d0, cap } = dayAxis((each) =>
    forCounted(models, scope, (si, i) => each(models[si].first[i], models[si].last[i])),
  );
  if (n === 0) return { maxFirst, d0, cap, widths: Float64Array.of(widthOf(0)) };
  const at = (l: number) => (l === RUNNING ? cap : l - d0);
  // price bins: edges from a spread sample's quantiles; a value repeated in it is a bin of its own
  const edges = sampledEdges((each) => forCounted(models, scope, (_si, _i, v) => each(v)), n, SAMPLE, BINS);
  const nb = edges.length + 1;
  const width = cap + 1;
  // weights per (bin, last-day index), then summed from the last index down: promotions ending at or after
  const counts = new Float64Array(nb * width);
  const lowest = new Float64Array(nb).fill(Number.POSITIVE_INFINITY);
  const highest = new Float64Array(nb).fill(Number.NEGATIVE_INFINITY);
  const binSize = new Int32Array(nb + 1);
  forCounted(models, scope, (si, i, v, k) => {
    const b = binOf(edges, v);
    binSize[b + 1]++;
    counts[b * width + at(models[si].last[i])] += k;
    if (v < lowest[b]) lowest[b] = v;
    if (v > highest[b]) highest[b] = v;
  });
  for (let b = 0; b < nb; b++)
    for (let j = width - 2; j >= 0; j--) counts[b * width + j] += counts[b * width + j + 1];
  // each bin's promotions (seller, position), for the bins whose values differ (a bin of one value is read
  // from lowest[]); their bins found again rather than kept (4 bytes a promotion less while building)
  for (let b = 0; b < nb; b++) {
    if (lowest[b] === highest[b]) binSize[b + 1] = 0;
    binSize[b + 1] += binSize[b];
  }
  const fill = binSize.slice(0, nb);
  const refSeller = new Uint8Array(binSize[nb]);
  const refPos = new Int32Array(binSize[nb]);
  forCounted(models, scope, (si, i, v) => {
    const b = binOf(edges, v);
    if (lowest[b] === highest[b]) return;
    const r = fill[b]++;
    refSeller[r] = si;
    refPos[r] = i;
  });
  /** The value of rank `rank` (0-based, weighted) among bin b's promotions with index ≥ fi. */
  const mult = multiplicity(scope.leaves);
  const { fx, day0, span } = scope;
  const valueIn = (b: number, fi: number, rank: number): number => {
    if (lowest[b] === highest[b]) return lowest[b];
    const vs: number[] = [];
    for (let r = binSize[b]; r < binSize[b + 1]; r++) {
      const s = models[refSeller[r]];
      const i = refPos[r];
      if (at(s.last[i]) < fi) continue;
      const v = s.promo[i] * fx[s.cur[i] * span + s.first[i] - day0];
      for (let k = mult[s.leaf[i]]; k > 0; k--) vs.push(v);
    }
    return Float64Array.from(vs).sort()[rank];
  };
  const widths = new Float64Array(width);
  for (let fi = 0; fi < width; fi++) {
    let pooled = 0;
    for (let b = 0; b < nb; b++) pooled += counts[b * width + fi];
    if (pooled === 0) {
      widths[fi] = widthOf(0);
      continue;
    }
    // percentile_cont(0.95), as distribution.ts percentilesCont computes it
    const pos = 0.95 * (pooled - 1);
    const r1 = Math.floor(pos);
    const r2 = Math.ceil(pos);
    let below = 0;
    let b = 0;
    while (below + counts[b * width + fi] <= r1) below += counts[b++ * width + fi];
    const low = valueIn(b, fi, r1 - below);
    while (below + counts[b * width + fi] <= r2) below += counts[b++ * width + fi];
    const high = valueIn(b, fi, r2 - below);
    widths[fi] = widthOf(low + (pos - r1) * (high - low));
  }
  return { maxFirst, d0, cap, widths };
}

/** A copy of `a` twice as long (the growable columns below). */
function grown<T extends Float64Array | Int32Array | Uint16Array>(a: T): T {
  const more = new (a.constructor as new (n: number) => T)(a.length * 2);
  more.set(a as never);
  return more;
}

/** Growable columns of the pairs being collected. */
class PairColumns {
  n = 0;
  bucket = new Float64Array(1024);
  last = new Uint16Array(1024);
  pos = new Int32Array(1024);
  push(b: number, l: number, p: number) {
    if (this.n === this.bucket.length) {
      this.bucket = grown(this.bucket);
      this.last = grown(this.last);
      this.pos = grown(this.pos);
    }
    this.bucket[this.n] = b;
    this.last[this.n] = l;
    this.pos[this.n++] = p;
  }
}

/**
 * Each seller's (listing, bucket) pairs for buckets of `width` (see the file's comment), in shared memory:
 * a chart thread builds them once, and every later answer's thread reads them without a copy.
 */
export function buildScatterPairs(
  models: SellerSpans[],
  scope: WindowScope,
  width: number,
  index: Pick<ScatterIndex, 'd0' | 'cap'>,
): ScatterPairs[] {
  const { d0, cap } = index;
  const out: ScatterPairs[] = [];
  // the current listing's buckets, their latest last-day index and a position
  let cb = new Float64Array(16);
  let cl = new Int32Array(16);
  let cp = new Int32Array(16);
  for (const s of models) {
    const { last, product } = s;
    const cols = new PairColumns();
    let current = -1;
    let ns = 0;
    const flush = () => {
      for (let j = 0; j < ns; j++) cols.push(cb[j], cl[j], cp[j]);
      ns = 0;
    };
    forCounted([s], scope, (_si, i, v) => {
      const b = Math.floor(v / width);
      const l = last[i] === RUNNING ? cap : last[i] - d0;
      if (product[i] !== current) {
        flush();
        current = product[i];
      }
      let j = 0;
      while (j < ns && cb[j] !== b) j++;
      if (j < ns) {
        if (l > cl[j]) cl[j] = l;
        return;
      }
      if (ns === cb.length) {
        cb = grown(cb);
        cl = grown(cl);
        cp = grown(cp);
      }
      cb[ns] = b;
      cl[ns] = l;
      cp[ns++] = i;
    });
    flush();
    // grouped by bucket, ascending, each group in listing order (a stable placement)
    const sizes = new Map<number, number>();
    for (let j = 0; j < cols.n; j++) sizes.set(cols.bucket[j], (sizes.get(cols.bucket[j]) ?? 0) + 1);
    const sorted = Float64Array.from(sizes.keys()).sort();
    const buckets = column(Float64Array, sorted.length);
    buckets.set(sorted);
    const starts = column(Int32Array, sorted.length + 1);
    const slot = new Map<number, number>();
    let at = 0;
    sorted.forEach((b, g) => {
      starts[g] = at;
      slot.set(b, at);
      at += sizes.get(b) as number;
    });
    starts[sorted.length] = at;
    const lastOut = column(Uint16Array, cols.n);
    const posOut = column(Int32Array, cols.n);
    for (let j = 0; j < cols.n; j++) {
      const r = slot.get(cols.bucket[j]) as number;
      slot.set(cols.bucket[j], r + 1);
      lastOut[r] = cols.last[j];
      posOut[r] = cols.pos[j];
    }
    const sortedLast = column(Uint16Array, cols.n);
    sortedLast.set(lastOut);
    for (let g = 0; g < sorted.length; g++) sortedLast.subarray(starts[g], starts[g + 1]).sort();
    out.push({ buckets, starts, last: lastOut, sortedLast, pos: posOut });
  }
  return out;
}

/**
 * The scatter plot's rows of a window whose first day has index `fi` (fromIndex), from the pairs of its
 * width: per seller and bucket the listings counted, with the first `sample` of their ids.
 */
export function scatterFromPairs(
  models: Pick<SellerSpans, 'sellerId' | 'product'>[],
  pairs: ScatterPairs[],
  fi: number,
  width: number,
  sample: number,
): ScatterRow[] {
  const rows: ScatterRow[] = [];
  models.forEach((s, si) => {
    const { buckets, starts, last, sortedLast, pos } = pairs[si];
    const { product } = s;
    for (let g = 0; g < buckets.length; g++) {
      // the group's first pair whose last-day index is ≥ fi (binary search in its ascending copy)
      let lo = starts[g];
      let hi = starts[g + 1];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sortedLast[mid] < fi) lo = mid + 1;
        else hi = mid;
      }
      const count = starts[g + 1] - lo;
      if (!count) continue;
      const ids: number[] = [];
      for (let j = starts[g]; ids.length < Math.min(sample, count); j++)
        if (last[j] >= fi) ids.push(product[pos[j]]);
      rows.push({ seller_id: s.sellerId, price: buckets[g] * width, count, ids: sample > 0 ? ids : null });
    }
  });
  return rows;
}

/** Bytes the pairs hold (the cache's bound: chart-pool.ts). */
export const pairsBytes = (pairs: ScatterPairs[]): number =>
  pairs.reduce(
    (n, p) => n + p.buckets.byteLength + p.starts.byteLength + 2 * p.last.byteLength + p.pos.byteLength,
    0,
  );
