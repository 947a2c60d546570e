import {
  differencePct,
  HeadToHeadTally,
  INDEX_EPSILON,
  isCheaper,
  type MpiRange,
  mpiBucket,
  type PriceMode,
  type PricingSortField,
  PricingTally,
  priceIndex,
  rankingIcon,
  type SortDirection,
} from '@vigia/domain';
import type { Offer, PivotModel, Row } from './model.js';

// The pricing questions over a pivot's in-memory model (model.ts), with the formulas of
// packages/domain/src/metrics/pricing.ts (docs/metrics.md "Pricing"): effective price per price mode →
// converted to the requested currency → lowest comparable competitor price → index → bucket / ranking →
// aggregates (PricingTally, HeadToHeadTally). The scoring loop runs over the model's typed columns so
// that a pivot of tens of thousands of products and a few hundred thousand offers scores in a few ms.

/** Everything a question depends on, already checked against the license (service.ts). */
export interface PricingScope {
  pivot: number;
  /** competitor sellers (selected ∩ license, pivot excluded), in the request's order */
  competitors: number[];
  currency: string;
  /** currency → factor to the requested currency: clp_per_unit(currency) / clp_per_unit(requested) */
  rates: Map<string, number>;
  mode: PriceMode;
  mpiValue: number;
  /**
   * Observation window: null = the latest crawl (published listings); else listings seen in
   * [fromTs, toEndTs) — last seen at or after fromTs and first seen before toEndTs (epoch ms).
   */
  window: { fromTs: number | null; toEndTs: number | null } | null;
  /** sellers.last_crawl_at (epoch ms) of the pivot and competitors */
  crawl: Map<number, number | null>;
  /** start of today in America/Santiago (epoch ms) */
  todayTs: number;
  rows: {
    /** license's granted classification roots; empty = whole tree */
    licenseRoots: number[];
    classificationsIds?: number[];
    categories?: number[];
    brands?: number[];
    /** license's own brands when the ownBrands flag is set */
    ownBrands?: number[];
    skus?: string[];
    /** normalised words of metaSearch: all must appear */
    words?: string[];
    priceTypes?: string[];
    stockOut?: boolean;
  };
  post: { match?: boolean; minPrice?: number; maxPrice?: number; mpiRanges?: MpiRange[] };
}

/** When a listing was last seen: a published one at greatest(last_seen, its seller's last crawl). */
export function seenAt(
  l: { published: boolean; lastSeen: number },
  crawl: number | null | undefined,
): number {
  return l.published && crawl != null ? Math.max(l.lastSeen, crawl) : l.lastSeen;
}

/** Historical (grey, seed 001 §4): out of stock, or last seen before today (America/Santiago). */
export function isHistoricalAt(
  l: { published: boolean; lastSeen: number; stockOut: boolean },
  crawl: number | null | undefined,
  todayTs: number,
): boolean {
  return l.stockOut || seenAt(l, crawl) < todayTs;
}

const overlaps = (path: number[], ids: Set<number>) => path.some((id) => ids.has(id));

/** The descriptive row filters (classification, category, brand, SKU, text, price type, stock). */
function rowFilter(s: PricingScope): ((r: Row) => boolean) | null {
  const f = s.rows;
  const tests: ((r: Row) => boolean)[] = [];
  if (f.licenseRoots.length) {
    const roots = new Set(f.licenseRoots);
    tests.push((r) => overlaps(r.classPath, roots));
  }
  if (f.classificationsIds?.length) {
    const ids = new Set(f.classificationsIds);
    tests.push((r) => overlaps(r.classPath, ids));
  }
  if (f.categories?.length) {
    const ids = new Set(f.categories);
    tests.push((r) => overlaps(r.categoryPath, ids));
  }
  if (f.brands?.length) {
    const ids = new Set(f.brands);
    tests.push((r) => r.brandId !== null && ids.has(r.brandId));
  }
  if (f.ownBrands) {
    const ids = new Set(f.ownBrands);
    tests.push((r) => r.brandId !== null && ids.has(r.brandId));
  }
  if (f.skus?.length) {
    const ids = new Set(f.skus);
    tests.push((r) => ids.has(r.ref) || (r.sku !== null && ids.has(r.sku)));
  }
  if (f.words?.length) {
    const words = f.words;
    tests.push((r) => words.every((w) => r.search.includes(w)));
  }
  if (f.priceTypes?.length) {
    const types = new Set(f.priceTypes);
    tests.push((r) => types.has(r.priceType));
  }
  if (f.stockOut) tests.push((r) => r.stockOut);
  return tests.length ? (r) => tests.every((t) => t(r)) : null;
}

/** NaN (the typed columns' "none") → null. */
export const nn = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The scored products of a request. Arrays are indexed by row position in the model (NaN / 0 = none);
 * `pre` and `filtered` list the positions that pass the filters.
 */
export interface ScoredSet {
  model: PivotModel;
  scope: PricingScope;
  /** after the row filters, match and mpi_range (the slider's bounds are computed over these) */
  pre: number[];
  /** after the price range too: what every answer counts */
  filtered: number[];
  /** my effective price in the requested currency */
  my: Float64Array;
  /** lowest / highest comparable competitor price */
  min: Float64Array;
  max: Float64Array;
  index: Float64Array;
  /** ≥ 1 confirmed-matched listing of a selected competitor seen in the window (any stock) */
  matched: Uint8Array;
  /** ranking position (0 = none) and sellers ranked (comparable competitors + the pivot) */
  position: Int32Array;
  ranked: Int32Array;
  /**
   * Per offer of the scored rows: 1 when it counts for the request (selected competitor, seen in the
   * window), and its comparable price (NaN when out of stock, absent or without rate).
   */
  offerIn: Uint8Array;
  offerPrice: Float64Array;
  /** derived answers (tallies, sort orders) computed once per scored set (service.ts memoises sets) */
  memo: Map<string, unknown>;
}

/** A derived answer of a scored set, computed on first use. */
export function memoOn<T>(set: ScoredSet, key: string, fn: () => T): T {
  if (set.memo.has(key)) return set.memo.get(key) as T;
  const v = fn();
  set.memo.set(key, v);
  return v;
}

/** Per-request views of the model's columns: selected sellers, rates, crawl times, window. */
function columnsContext(model: PivotModel, s: PricingScope) {
  const c = model.cols;
  const S = c.sellerIds.length;
  const selected = new Uint8Array(S);
  for (const id of s.competitors) {
    const i = c.sellerIndex.get(id);
    if (i !== undefined) selected[i] = 1;
  }
  const crawl = new Float64Array(S);
  for (let i = 0; i < S; i++) crawl[i] = s.crawl.get(c.sellerIds[i]) ?? Number.NaN;
  const factor = new Float64Array(c.currencies.length);
  for (let i = 0; i < factor.length; i++) factor[i] = s.rates.get(c.currencies[i]) ?? Number.NaN;
  return {
    c,
    selected,
    crawl,
    factor,
    fromTs: s.window?.fromTs ?? Number.NEGATIVE_INFINITY,
    toEndTs: s.window?.toEndTs ?? Number.POSITIVE_INFINITY,
    byWindow: s.window !== null,
    rowPrice: c.rowPrice[s.mode],
    offerPrice: c.offerPrice[s.mode],
  };
}

type Ctx = ReturnType<typeof columnsContext>;

/** Offer k counts for the request: a selected competitor, seen in the window. */
function offerInScope(x: Ctx, k: number): boolean {
  const si = x.c.offerSeller[k];
  if (!x.selected[si]) return false;
  if (!x.byWindow) return x.c.offerPublished[k] === 1;
  const crawl = x.crawl[si];
  const last = x.c.offerLastSeen[k];
  const seen = x.c.offerPublished[k] === 1 && !Number.isNaN(crawl) ? Math.max(last, crawl) : last;
  return seen >= x.fromTs && x.c.offerFirstSeen[k] < x.toEndTs;
}

/** Price of offer k for the request (NaN when out of stock, absent or without rate). */
function offerPriceAt(x: Ctx, k: number): number {
  if (x.c.offerStockOut[k]) return Number.NaN;
  const p = x.offerPrice[k] * x.factor[x.c.offerCurrency[k]];
  return p > 0 ? p : Number.NaN;
}

/** Scores the pivot's products that pass the filters. */
export function scoreModel(model: PivotModel, s: PricingScope): ScoredSet {
  const x = columnsContext(model, s);
  const { c } = x;
  const n = model.rows.length;
  const pass = rowFilter(s);
  const pivotCrawl = s.crawl.get(s.pivot) ?? Number.NaN;
  const ranges = s.post.mpiRanges?.length ? new Set(s.post.mpiRanges) : null;
  const out: ScoredSet = {
    model,
    scope: s,
    pre: [],
    filtered: [],
    my: new Float64Array(n).fill(Number.NaN),
    min: new Float64Array(n).fill(Number.NaN),
    max: new Float64Array(n).fill(Number.NaN),
    index: new Float64Array(n).fill(Number.NaN),
    matched: new Uint8Array(n),
    position: new Int32Array(n),
    ranked: new Int32Array(n),
    offerIn: new Uint8Array(c.offerSeller.length),
    offerPrice: new Float64Array(c.offerSeller.length).fill(Number.NaN),
    memo: new Map(),
  };
  const S = c.sellerIds.length;
  const sellerMin = new Float64Array(S).fill(Number.NaN);
  const touched: number[] = [];
  for (let i = 0; i < n; i++) {
    // the pivot listing itself must be seen in the window
    if (x.byWindow) {
      const last = c.rowLastSeen[i];
      const seen = c.rowPublished[i] === 1 && !Number.isNaN(pivotCrawl) ? Math.max(last, pivotCrawl) : last;
      if (seen < x.fromTs || c.rowFirstSeen[i] >= x.toEndTs) continue;
    } else if (!c.rowPublished[i]) continue;
    if (pass && !pass(model.rows[i])) continue;
    const myRaw = x.rowPrice[i] * x.factor[c.rowCurrency[i]];
    const my = myRaw > 0 ? myRaw : Number.NaN;
    let matched = 0;
    let min = Number.NaN;
    let max = Number.NaN;
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) {
      if (!offerInScope(x, k)) continue;
      matched = 1;
      out.offerIn[k] = 1;
      const p = offerPriceAt(x, k);
      if (Number.isNaN(p)) continue;
      out.offerPrice[k] = p;
      const si = c.offerSeller[k];
      const cur = sellerMin[si];
      if (Number.isNaN(cur)) {
        touched.push(si);
        sellerMin[si] = p;
      } else if (p < cur) sellerMin[si] = p;
      if (!(p >= min)) min = p;
      if (!(p <= max)) max = p;
    }
    let comparable = 0;
    let cheaper = 0;
    for (const si of touched) {
      comparable++;
      if (isCheaper(sellerMin[si], my)) cheaper++;
      sellerMin[si] = Number.NaN;
    }
    touched.length = 0;
    const index = priceIndex(nn(my), nn(min));
    if (s.post.match && !matched) continue;
    if (ranges) {
      const b = mpiBucket(index, s.mpiValue);
      if (b === null || !ranges.has(b)) continue;
    }
    out.my[i] = my;
    out.min[i] = min;
    out.max[i] = max;
    out.matched[i] = matched;
    if (index !== null) {
      out.index[i] = index;
      out.position[i] = 1 + cheaper;
      out.ranked[i] = comparable + 1;
    }
    out.pre.push(i);
  }
  const { minPrice, maxPrice } = s.post;
  out.filtered =
    minPrice === undefined && maxPrice === undefined
      ? out.pre
      : out.pre.filter((i) => {
          const my = out.my[i];
          return (
            !Number.isNaN(my) &&
            (minPrice === undefined || my >= minPrice - INDEX_EPSILON) &&
            (maxPrice === undefined || my <= maxPrice + INDEX_EPSILON)
          );
        });
  return out;
}

/** Pricing KPIs and index split of some scored products. */
export function tallyOf(set: ScoredSet, positions: number[]): PricingTally {
  const t = new PricingTally(set.scope.mpiValue);
  const rows = set.model.rows;
  for (const i of positions) {
    const r = rows[i];
    t.add(r.priceType, r.stockOut, set.matched[i] === 1, nn(set.index[i]));
  }
  return t;
}

/** Groups products by keys (a product may count in several groups: classification ancestors). */
export function tallyBy(set: ScoredSet, keys: (row: Row) => readonly number[]): Map<number, PricingTally> {
  const groups = new Map<number, PricingTally>();
  const rows = set.model.rows;
  for (const i of set.filtered) {
    const r = rows[i];
    const index = nn(set.index[i]);
    for (const k of keys(r)) {
      let t = groups.get(k);
      if (!t) {
        t = new PricingTally(set.scope.mpiValue);
        groups.set(k, t);
      }
      t.add(r.priceType, r.stockOut, set.matched[i] === 1, index);
    }
  }
  return groups;
}

export interface SellerTally {
  sellerId: number;
  tally: PricingTally;
  headToHead: HeadToHeadTally;
}

/**
 * DPM by e-commerce / comparator: per selected competitor, the products with a matched listing there
 * (seen in the window, any stock); index, split and head-to-head against THAT competitor's lowest
 * comparable price.
 */
export function tallyBySeller(set: ScoredSet): SellerTally[] {
  const c = set.model.cols;
  const S = c.sellerIds.length;
  const tallies = set.scope.competitors.map((sellerId) => ({
    sellerId,
    tally: new PricingTally(set.scope.mpiValue),
    headToHead: new HeadToHeadTally(),
  }));
  const bySellerIndex: (SellerTally | undefined)[] = new Array(S);
  for (const t of tallies) {
    const si = c.sellerIndex.get(t.sellerId);
    if (si !== undefined) bySellerIndex[si] = t;
  }
  const sellerMin = new Float64Array(S).fill(Number.NaN);
  const seen = new Uint8Array(S);
  const touched: number[] = [];
  const rows = set.model.rows;
  for (const i of set.filtered) {
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) {
      if (!set.offerIn[k]) continue;
      const si = c.offerSeller[k];
      if (!seen[si]) {
        seen[si] = 1;
        touched.push(si);
      }
      const p = set.offerPrice[k];
      if (!Number.isNaN(p) && !(p >= sellerMin[si])) sellerMin[si] = p;
    }
    const r = rows[i];
    const my = nn(set.my[i]);
    for (const si of touched) {
      const theirs = nn(sellerMin[si]);
      const t = bySellerIndex[si];
      if (t) {
        t.tally.add(r.priceType, r.stockOut, true, priceIndex(my, theirs));
        t.headToHead.add(my, theirs);
      }
      seen[si] = 0;
      sellerMin[si] = Number.NaN;
    }
    touched.length = 0;
  }
  return tallies;
}

type Key = number | string | null;
const SORT_KEY: Record<PricingSortField, (set: ScoredSet, i: number) => Key> = {
  index: (set, i) => nn(set.index[i]),
  difference: (set, i) => (Number.isNaN(set.index[i]) ? null : set.my[i] - set.min[i]),
  name: (set, i) => set.model.rows[i].sortName,
  price: (set, i) => nn(set.my[i]),
};

/** Order of the items: by the key (nulls last whatever the direction), ties by id in the same direction. */
function comparator(set: ScoredSet, by: PricingSortField, dir: SortDirection) {
  const key = SORT_KEY[by];
  const sign = dir === 'asc' ? 1 : -1;
  const rows = set.model.rows;
  return (a: number, b: number): number => {
    const ka = key(set, a);
    const kb = key(set, b);
    if (ka === null || kb === null) {
      if (ka !== kb) return ka === null ? 1 : -1;
    } else if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return (rows[a].productId - rows[b].productId) * sign;
  };
}

/**
 * One page of `size` items in the given order after the item whose id is `cursor` (keyset paging on
 * the order; only the page is sorted, never the whole list). null when the cursor is not in the list.
 */
export function pageOf(
  set: ScoredSet,
  q: { cursor?: string; size: number; sortBy: PricingSortField; sort: SortDirection },
): { positions: number[]; hasMore: boolean; total: number } | null {
  const cmp = comparator(set, q.sortBy, q.sort);
  const candidates = set.filtered;
  if (q.cursor !== undefined) {
    // Later pages: the whole order, sorted once per scored set and sort, then a slice after the cursor.
    const order = memoOn(set, `order:${q.sortBy}:${q.sort}`, () => {
      const sorted = [...set.filtered].sort(cmp);
      const rows = set.model.rows;
      return { sorted, at: new Map(sorted.map((i, k) => [rows[i].productId, k])) };
    });
    const k = order.at.get(Number(q.cursor));
    if (k === undefined) return null;
    const positions = order.sorted.slice(k + 1, k + 1 + q.size);
    return { positions, hasMore: k + 1 + q.size < order.sorted.length, total: set.filtered.length };
  }
  const take = q.size + 1;
  let top: number[];
  if (candidates.length <= take * 8) top = [...candidates].sort(cmp).slice(0, take);
  else {
    // bounded max-heap of the `take` first items
    const heap: number[] = [];
    const up = (j: number) => {
      while (j > 0) {
        const p = (j - 1) >> 1;
        if (cmp(heap[p], heap[j]) >= 0) break;
        [heap[p], heap[j]] = [heap[j], heap[p]];
        j = p;
      }
    };
    const down = (j: number) => {
      for (;;) {
        const l = 2 * j + 1;
        const r = l + 1;
        let m = j;
        if (l < heap.length && cmp(heap[l], heap[m]) > 0) m = l;
        if (r < heap.length && cmp(heap[r], heap[m]) > 0) m = r;
        if (m === j) break;
        [heap[m], heap[j]] = [heap[j], heap[m]];
        j = m;
      }
    };
    for (const i of candidates) {
      if (heap.length < take) {
        heap.push(i);
        up(heap.length - 1);
      } else if (cmp(i, heap[0]) < 0) {
        heap[0] = i;
        down(0);
      }
    }
    top = heap.sort(cmp);
  }
  return { positions: top.slice(0, q.size), hasMore: top.length > q.size, total: set.filtered.length };
}

export interface CompetitorOffer {
  offer: Offer;
  price: number | null;
  comparable: boolean;
  difference: number | null;
}

/** Each selected competitor's offer for a product: its cheapest comparable listing, else its cheapest. */
export function competitorOffers(set: ScoredSet, i: number): CompetitorOffer[] {
  const { scope } = set;
  const row = set.model.rows[i];
  const my = nn(set.my[i]);
  const start = set.model.cols.offerStart[i];
  const best = new Map<number, { offer: Offer; price: number | null; comparable: boolean }>();
  row.offers.forEach((offer, j) => {
    const k = start + j;
    if (!set.offerIn[k]) return;
    const comparable = !Number.isNaN(set.offerPrice[k]);
    const eff = offer.eff[scope.mode];
    const f = scope.rates.get(offer.currency);
    const price = comparable ? set.offerPrice[k] : eff !== null && f !== undefined ? eff * f : null;
    const cur = best.get(offer.sellerId);
    const better =
      !cur ||
      (comparable && !cur.comparable) ||
      (comparable === cur.comparable &&
        (price ?? Number.POSITIVE_INFINITY) < (cur.price ?? Number.POSITIVE_INFINITY));
    if (better) best.set(offer.sellerId, { offer, price, comparable });
  });
  return [...best.values()]
    .map((b) => ({ ...b, difference: b.comparable ? differencePct(my, b.price) : null }))
    .sort(
      (a, b) =>
        Number(!a.comparable) - Number(!b.comparable) ||
        (a.price ?? Number.POSITIVE_INFINITY) - (b.price ?? Number.POSITIVE_INFINITY) ||
        a.offer.sellerId - b.offer.sellerId,
    );
}

/** Ranking icons 1–9 of the filtered products: counts per icon, products first, mean position. */
export function rankingSummary(set: ScoredSet) {
  const icons = Array.from({ length: 9 }, () => 0);
  let ranked = 0;
  let first = 0;
  let sum = 0;
  for (const i of set.filtered) {
    const position = set.position[i];
    if (!position) continue;
    const icon = rankingIcon(position, set.ranked[i]);
    if (icon === null) continue;
    icons[icon - 1]++;
    ranked++;
    sum += position;
    if (position === 1) first++;
  }
  return { icons, ranked, first, averagePosition: ranked ? sum / ranked : null };
}

/** Lowest / highest of my prices over positions, floored / ceiled (the slider's settings). */
export function priceBounds(set: ScoredSet, positions: number[]) {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const i of positions) {
    const my = set.my[i];
    if (Number.isNaN(my)) continue;
    if (my < min) min = my;
    if (my > max) max = my;
  }
  return Number.isFinite(min)
    ? { min_price: Math.floor(min), max_price: Math.ceil(max) }
    : { min_price: null, max_price: null };
}
