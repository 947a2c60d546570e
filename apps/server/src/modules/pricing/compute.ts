import {
  differencePct,
  HeadToHeadTally,
  INDEX_EPSILON,
  isCheaper,
  lastSeenAt,
  type MpiRange,
  mpiBucket,
  type PriceMode,
  type PricingSortField,
  PricingTally,
  priceIndexValue,
  rankingIcon,
  type SortDirection,
  seenInWindow,
} from '@vigia/domain';
import { nameRank, type Offer, offerAt, type PivotModel, type Row, rowAt, searchTexts } from './model.js';

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
  /** start of today in the market zone (epoch ms; queries.ts selectRequestLookups) */
  todayTs: number;
  /**
   * The closed day (yyyy-MM-dd, Hasta) whose closing prices the model holds (as-of.ts); null: the
   * latest prices (no period, or a period ending today).
   */
  pricesAt?: string | null;
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

const overlaps = (path: number[], ids: Set<number>) => path.some((id) => ids.has(id));

/**
 * The descriptive row filters (classification, category, brand, SKU, text, price type, stock) of row i
 * (`r`: model.rows[i]); price type and stock are the model's state (a closed day's, rowAt), not the row
 * object's.
 */
function rowFilter(s: PricingScope, model: PivotModel): ((r: Row, i: number) => boolean) | null {
  const f = s.rows;
  const tests: ((r: Row, i: number) => boolean)[] = [];
  // a row passes every test (the order does not change the answer): the cheap and usually narrow ones
  // first — a brand is one Set lookup and leaves few rows, a path test walks the row's classification
  // path (issue 30: the comparator's picked brands read every row's path first, ~6 ms a request on large)
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
  if (f.classificationsIds?.length) {
    const ids = new Set(f.classificationsIds);
    tests.push((r) => overlaps(r.classPath, ids));
  }
  if (f.categories?.length) {
    const ids = new Set(f.categories);
    tests.push((r) => overlaps(r.categoryPath, ids));
  }
  if (f.licenseRoots.length) {
    const roots = new Set(f.licenseRoots);
    tests.push((r) => overlaps(r.classPath, roots));
  }
  if (f.words?.length) {
    const words = f.words;
    const texts = searchTexts(model);
    tests.push((_r, i) => words.every((w) => texts[i].includes(w)));
  }
  if (f.priceTypes?.length) {
    const types = new Set(f.priceTypes);
    tests.push((_r, i) => types.has(rowAt(model, i).priceType));
  }
  const { rowStockOut } = model.cols;
  if (f.stockOut) tests.push((_r, i) => rowStockOut[i] === 1);
  return tests.length ? (r, i) => tests.every((t) => t(r, i)) : null;
}

/**
 * The scope's SKUs (filter SKUs) that no pivot product of the selection has as its SKU or the seller's
 * product id: the products in the base score (published, or seen in the window) that pass the
 * descriptive row filters — match, index ranges and the price range do not hide a product here.
 */
export function skusNotFound(set: ScoredSet): string[] {
  const skus = set.scope.rows.skus;
  if (!skus?.length) return [];
  const pass = rowFilter(set.scope, set.model);
  const found = new Set<string>();
  const rows = set.model.rows;
  for (let i = 0; i < rows.length; i++) {
    if (set.rowIn[i] !== 1) continue;
    const r = rows[i];
    if (pass && !pass(r, i)) continue;
    found.add(r.ref);
    if (r.sku !== null) found.add(r.sku);
  }
  return [...new Set(skus)].filter((s) => !found.has(s));
}

/** NaN (the typed columns' "none") → null. */
export const nn = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * What a pivot's products and offers are worth for one price mode, currency and window, whatever the
 * competitors chosen: which pivot listings count, my price, each offer's counted flag and comparable
 * price, and per product one entry per seller with a counted offer there (that seller's lowest and
 * highest comparable price). A new competitor selection then walks these few entries per product
 * (`computeBaseScore`) instead of every offer with its window test and currency conversion. Memoised per
 * (model, mode, rates, window) in service.ts; the window's crawl times are part of its key (they name
 * the pivot and the selected competitors only), so with a period each competitor set has its own.
 * Size: 25 bytes per product and 29 per offer (~4.5 MB for medium's pivot 116 — 26,933 products,
 * 132,875 offers —, ~16 MB for a large pivot of 120k products and 440k offers).
 */
export interface PricedModel {
  model: PivotModel;
  /** 1 when the pivot listing itself was seen in the window (default: published at the latest crawl) */
  rowIn: Uint8Array;
  /** my effective price in the requested currency (NaN: none) */
  my: Float64Array;
  /** per offer: 1 when it was seen in the window (any stock, any seller) */
  offerSeen: Uint8Array;
  /** per offer: its comparable price (NaN when not seen, out of stock, absent or without rate) */
  offerPrice: Float64Array;
  /** entries of row i: entryStart[i] … entryStart[i+1] − 1, one per seller with a seen offer */
  entryStart: Int32Array;
  entrySeller: Int32Array;
  /**
   * the seller's lowest / highest comparable price for the product (NaN: none comparable); a row's
   * entries in ascending order of entryMin (NaN last)
   */
  entryMin: Float64Array;
  entryMax: Float64Array;
  /**
   * With at most 32 sellers in the model (`masks`), per row as bits of seller columns: the sellers with
   * a counted offer, with a comparable price, and with one cheaper than mine (isCheaper) — so that a
   * selection's matched flag, sellers ranked and position are a few bit operations.
   */
  masks: boolean;
  inMask: Int32Array;
  comparableMask: Int32Array;
  cheaperMask: Int32Array;
}

/** The selection-free part of a score: one pass over the model's columns (see PricedModel). */
export function computePriced(model: PivotModel, s: PricingScope): PricedModel {
  const c = model.cols;
  const n = model.rows.length;
  const m = c.offerSeller.length;
  const S = c.sellerIds.length;
  const crawl = new Float64Array(S);
  for (let i = 0; i < S; i++) crawl[i] = s.crawl.get(c.sellerIds[i]) ?? Number.NaN;
  const factor = new Float64Array(c.currencies.length);
  for (let i = 0; i < factor.length; i++) factor[i] = s.rates.get(c.currencies[i]) ?? Number.NaN;
  const byWindow = s.window !== null;
  const fromTs = s.window?.fromTs ?? Number.NEGATIVE_INFINITY;
  const toEndTs = s.window?.toEndTs ?? Number.POSITIVE_INFINITY;
  const pivotCrawl = s.crawl.get(s.pivot) ?? Number.NaN;
  const rowPrice = c.rowPrice[s.mode];
  const offerPrice = c.offerPrice[s.mode];
  const {
    offerStart,
    offerSeller,
    offerCurrency,
    offerStockOut,
    offerPublished,
    offerFirstSeen,
    offerLastSeen,
  } = c;
  const { rowCurrency, rowPublished, rowFirstSeen, rowLastSeen } = c;
  const rowIn = new Uint8Array(n);
  const my = new Float64Array(n);
  const offerSeen = new Uint8Array(m);
  const price = new Float64Array(m);
  const entryStart = new Int32Array(n + 1);
  const entrySeller = new Int32Array(m);
  const entryMin = new Float64Array(m);
  const entryMax = new Float64Array(m);
  const masks = S <= 32;
  const inMask = new Int32Array(masks ? n : 0);
  const comparableMask = new Int32Array(masks ? n : 0);
  const cheaperMask = new Int32Array(masks ? n : 0);
  // per seller while a row's offers are read: its entry (−1: none yet)
  const entryOf = new Int32Array(S).fill(-1);
  let e = 0;
  for (let i = 0; i < n; i++) {
    entryStart[i] = e;
    const start = offerStart[i];
    const end = offerStart[i + 1];
    for (let k = start; k < end; k++) price[k] = Number.NaN;
    if (byWindow) {
      const seen = lastSeenAt(rowPublished[i] === 1, rowLastSeen[i], pivotCrawl);
      if (!seenInWindow(seen, rowFirstSeen[i], fromTs, toEndTs)) {
        my[i] = Number.NaN;
        continue;
      }
    } else if (rowPublished[i] !== 1) {
      my[i] = Number.NaN;
      continue;
    }
    rowIn[i] = 1;
    const myRaw = rowPrice[i] * factor[rowCurrency[i]];
    my[i] = myRaw > 0 ? myRaw : Number.NaN;
    const first = e;
    for (let k = start; k < end; k++) {
      const si = offerSeller[k];
      if (byWindow) {
        const seen = lastSeenAt(offerPublished[k] === 1, offerLastSeen[k], crawl[si]);
        if (!seenInWindow(seen, offerFirstSeen[k], fromTs, toEndTs)) continue;
      } else if (offerPublished[k] !== 1) continue;
      offerSeen[k] = 1;
      let at = entryOf[si];
      if (at < 0) {
        at = e++;
        entryOf[si] = at;
        entrySeller[at] = si;
        entryMin[at] = Number.NaN;
        entryMax[at] = Number.NaN;
      }
      if (offerStockOut[k] === 1) continue;
      const p = offerPrice[k] * factor[offerCurrency[k]];
      if (!(p > 0)) continue;
      price[k] = p;
      if (!(p >= entryMin[at])) entryMin[at] = p;
      if (!(p <= entryMax[at])) entryMax[at] = p;
    }
    for (let t = first; t < e; t++) entryOf[entrySeller[t]] = -1;
    // the row's entries by lowest price, NaN last (insertion sort: a product has a few sellers)
    for (let t = first + 1; t < e; t++) {
      const sv = entrySeller[t];
      const lo = entryMin[t];
      const hi = entryMax[t];
      let u = t - 1;
      while (u >= first && (Number.isNaN(entryMin[u]) ? !Number.isNaN(lo) : lo < entryMin[u])) {
        entrySeller[u + 1] = entrySeller[u];
        entryMin[u + 1] = entryMin[u];
        entryMax[u + 1] = entryMax[u];
        u--;
      }
      entrySeller[u + 1] = sv;
      entryMin[u + 1] = lo;
      entryMax[u + 1] = hi;
    }
    if (masks) {
      let inBits = 0;
      let comparableBits = 0;
      let cheaperBits = 0;
      for (let t = first; t < e; t++) {
        const bit = 1 << entrySeller[t];
        inBits |= bit;
        const p = entryMin[t];
        if (Number.isNaN(p)) continue;
        comparableBits |= bit;
        if (isCheaper(p, my[i])) cheaperBits |= bit;
      }
      inMask[i] = inBits;
      comparableMask[i] = comparableBits;
      cheaperMask[i] = cheaperBits;
    }
  }
  entryStart[n] = e;
  return {
    model,
    rowIn,
    my,
    offerSeen,
    offerPrice: price,
    entryStart,
    entrySeller,
    entryMin,
    entryMax,
    masks,
    inMask,
    comparableMask,
    cheaperMask,
  };
}

/**
 * The competitive position of every pivot product for one choice of competitors, price mode, currency
 * and window — what does not depend on the descriptive filters, mpi_value or the price range. Arrays are
 * indexed by row position in the model (NaN / 0 = none); rowIn, my and offerPrice are the PricedModel's
 * (shared by every selection). Memoised (service.ts `scored`), so requests that only change filters
 * reuse it.
 */
export interface BaseScore {
  model: PivotModel;
  priced: PricedModel;
  /** per seller column: 1 when selected */
  selected: Uint8Array;
  /** 1 when the pivot listing itself was seen in the window */
  rowIn: Uint8Array;
  /** my effective price in the requested currency */
  my: Float64Array;
  /** lowest comparable competitor price */
  min: Float64Array;
  index: Float64Array;
  /** ≥ 1 confirmed-matched listing of a selected competitor seen in the window (any stock) */
  matched: Uint8Array;
  /**
   * ranking position (0 = none) and sellers ranked (comparable competitors + the pivot); bytes while
   * the model has fewer than 255 sellers
   */
  position: Uint8Array | Int32Array;
  ranked: Uint8Array | Int32Array;
  /**
   * Per offer: its comparable price (NaN when out of stock, absent or without rate); it counts for the
   * request when seen in the window and of a selected competitor (offerCounted, offerInOf).
   */
  offerPrice: Float64Array;
}

/** Whether offer k counts for the request: seen in the window, of a selected competitor. */
export function offerCounted(set: BaseScore, k: number): boolean {
  return set.priced.offerSeen[k] === 1 && set.selected[set.model.cols.offerSeller[k]] === 1;
}

/**
 * Per offer, 1 when it counts (offerCounted) — made on first use for a base score (the brand comparator
 * reads it; the DPM screens test the few offers they show), kept as long as the base score is.
 */
const offerInKept = new WeakMap<Uint8Array, Uint8Array>();
export function offerInOf(set: BaseScore): Uint8Array {
  let flags = offerInKept.get(set.selected);
  if (!flags) {
    const { offerSeen } = set.priced;
    const { offerSeller } = set.model.cols;
    const { selected } = set;
    flags = new Uint8Array(offerSeen.length);
    for (let k = 0; k < flags.length; k++) flags[k] = offerSeen[k] & selected[offerSeller[k]];
    offerInKept.set(set.selected, flags);
  }
  return flags;
}

/** The scored products of a request: the base score, and the positions that pass the filters. */
export interface ScoredSet extends BaseScore {
  scope: PricingScope;
  /** after the row filters, match and mpi_range (the slider's bounds are computed over these) */
  pre: number[];
  /** after the price range too: what every answer counts */
  filtered: number[];
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

/**
 * Scores every pivot product against the selected competitors: per product, its priced entries of the
 * selected sellers (no offer is read).
 */
export function computeBaseScore(
  model: PivotModel,
  s: PricingScope,
  priced: PricedModel = computePriced(model, s),
): BaseScore {
  const c = model.cols;
  const n = model.rows.length;
  const S = c.sellerIds.length;
  const selected = new Uint8Array(S);
  for (const id of s.competitors) {
    const i = c.sellerIndex.get(id);
    if (i !== undefined) selected[i] = 1;
  }
  const small = S < 0xff;
  const out: Selection = {
    min: new Float64Array(n),
    index: new Float64Array(n),
    matched: new Uint8Array(n),
    position: small ? new Uint8Array(n) : new Int32Array(n),
    ranked: small ? new Uint8Array(n) : new Int32Array(n),
  };
  if (priced.masks) scoreByMasks(priced, selected, out);
  else scoreByEntries(priced, selected, out);
  return {
    model,
    priced,
    selected,
    rowIn: priced.rowIn,
    my: priced.my,
    ...out,
    offerPrice: priced.offerPrice,
  };
}

/** What a competitor selection adds to its priced model (BaseScore's arrays of the same names). */
type Selection = Pick<BaseScore, 'min' | 'index' | 'matched' | 'position' | 'ranked'>;

/** At most 32 sellers: a product's matched flag, sellers ranked and position from its bit masks. */
function scoreByMasks(priced: PricedModel, selected: Uint8Array, out: Selection): void {
  const { rowIn, my, entryStart, entrySeller, entryMin, inMask, comparableMask, cheaperMask } = priced;
  const { min, index, matched, position, ranked } = out;
  let sel = 0;
  for (let si = 0; si < selected.length; si++) if (selected[si] === 1) sel |= 1 << si;
  for (let i = 0; i < rowIn.length; i++) {
    let lowest = Number.NaN;
    let ix = Number.NaN;
    if (rowIn[i] === 1) {
      matched[i] = (inMask[i] & sel) !== 0 ? 1 : 0;
      const comparable = comparableMask[i] & sel;
      if (comparable !== 0) {
        // the first selected entry in price order is the lowest comparable price
        let e = entryStart[i];
        while (selected[entrySeller[e]] !== 1) e++;
        lowest = entryMin[e];
        const pi = priceIndexValue(my[i], lowest);
        if (!Number.isNaN(pi)) {
          ix = pi;
          position[i] = 1 + bitCount(cheaperMask[i] & sel);
          ranked[i] = bitCount(comparable) + 1;
        }
      }
    }
    min[i] = lowest;
    index[i] = ix;
  }
}

/** More than 32 sellers: the walk over each product's entries. */
function scoreByEntries(priced: PricedModel, selected: Uint8Array, out: Selection): void {
  const { rowIn, my, entryStart, entrySeller, entryMin } = priced;
  const { min, index, matched, position, ranked } = out;
  for (let i = 0; i < rowIn.length; i++) {
    let lowest = Number.NaN;
    let ix = Number.NaN;
    if (rowIn[i] === 1) {
      const mine = my[i];
      let counted = 0;
      let comparable = 0;
      let cheaper = 0;
      for (let e = entryStart[i], end = entryStart[i + 1]; e < end; e++) {
        if (selected[entrySeller[e]] !== 1) continue;
        counted = 1;
        const p = entryMin[e];
        if (Number.isNaN(p)) continue;
        comparable++;
        if (isCheaper(p, mine)) cheaper++;
        if (!(p >= lowest)) lowest = p;
      }
      matched[i] = counted;
      const pi = priceIndexValue(mine, lowest);
      if (!Number.isNaN(pi)) {
        ix = pi;
        position[i] = 1 + cheaper;
        ranked[i] = comparable + 1;
      }
    }
    min[i] = lowest;
    index[i] = ix;
  }
}

/** The number of bits set in a 32-bit integer. */
function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The highest comparable price of the selected competitors for product `i` (NaN: none). */
export function maxPriceOf(set: BaseScore, i: number): number {
  const { entryStart, entrySeller, entryMax } = set.priced;
  let max = Number.NaN;
  for (let e = entryStart[i], end = entryStart[i + 1]; e < end; e++) {
    if (set.selected[entrySeller[e]] !== 1) continue;
    const p = entryMax[e];
    if (!Number.isNaN(p) && !(p <= max)) max = p;
  }
  return max;
}

/**
 * Which rows pass the descriptive row filters (1) — null when there are none. They depend only on the
 * rows and the filters (and, for price type and stock, on the model's state), not on the competitors,
 * the window or the prices: kept per row array (shared by a model's closed-day overlays) or, with a
 * price type or stock filter, per model columns, for a few filter sets each (a new competitor selection
 * or a closed day's overlay no longer tests every row's classification path again).
 */
const PASSES_KEPT = 16;
const passesOf = new WeakMap<object, Map<string, Uint8Array>>();
export function rowPasses(model: PivotModel, s: PricingScope): Uint8Array | null {
  const pass = rowFilter(s, model);
  if (!pass) return null;
  const owner = s.rows.priceTypes?.length || s.rows.stockOut ? model.cols : model.rows;
  let kept = passesOf.get(owner);
  if (!kept) {
    kept = new Map();
    passesOf.set(owner, kept);
  }
  const key = JSON.stringify(s.rows);
  let flags = kept.get(key);
  if (!flags) {
    const rows = model.rows;
    flags = new Uint8Array(rows.length);
    for (let i = 0; i < rows.length; i++) flags[i] = pass(rows[i], i) ? 1 : 0;
    if (kept.size >= PASSES_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, flags);
  }
  return flags;
}

/**
 * The products a priced model counts (seen in the window) that pass the descriptive row filters, in
 * model order: they depend on neither the competitors nor the post filters, so every selection and
 * market or price range of one priced model shares them (a few lists per priced model, the most recent
 * kept: ≤ 8 bytes a product each). Read-only: answers copy before sorting.
 */
const CANDIDATES_KEPT = 4;
const candidatesOf = new WeakMap<PricedModel, Map<string, number[]>>();
function candidates(priced: PricedModel, s: PricingScope): number[] {
  let kept = candidatesOf.get(priced);
  if (!kept) {
    kept = new Map();
    candidatesOf.set(priced, kept);
  }
  const key = JSON.stringify(s.rows);
  let list = kept.get(key);
  if (list) {
    // most recently used last
    kept.delete(key);
    kept.set(key, list);
    return list;
  }
  const passes = rowPasses(priced.model, s);
  const { rowIn } = priced;
  const n = rowIn.length;
  let count = 0;
  for (let i = 0; i < n; i++) if (rowIn[i] === 1 && (!passes || passes[i] === 1)) count++;
  list = new Array<number>(count);
  for (let i = 0, j = 0; i < n; i++) if (rowIn[i] === 1 && (!passes || passes[i] === 1)) list[j++] = i;
  if (kept.size >= CANDIDATES_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, list);
  return list;
}

/** Applies the filters to a base score: row filters, match, mpi_range, then the price range. */
export function filterScore(base: BaseScore, s: PricingScope): ScoredSet {
  const from = candidates(base.priced, s);
  const ranges = s.post.mpiRanges?.length ? new Set(s.post.mpiRanges) : null;
  const match = s.post.match === true;
  let pre = from;
  if (match || ranges) {
    pre = [];
    for (let j = 0; j < from.length; j++) {
      const i = from[j];
      if (match && base.matched[i] !== 1) continue;
      if (ranges) {
        const bucket = mpiBucket(nn(base.index[i]), s.mpiValue);
        if (bucket === null || !ranges.has(bucket)) continue;
      }
      pre.push(i);
    }
  }
  return { ...base, scope: s, pre, filtered: inPriceRange(pre, base.my, s), memo: new Map() };
}

/** The products of `list` whose price of mine is in the scope's price range (all of them without one). */
function inPriceRange(list: number[], my: Float64Array, s: PricingScope): number[] {
  const { minPrice, maxPrice } = s.post;
  if (minPrice === undefined && maxPrice === undefined) return list;
  const low = minPrice === undefined ? Number.NEGATIVE_INFINITY : minPrice - INDEX_EPSILON;
  const high = maxPrice === undefined ? Number.POSITIVE_INFINITY : maxPrice + INDEX_EPSILON;
  const filtered: number[] = [];
  for (let j = 0; j < list.length; j++) {
    const i = list[j];
    const p = my[i];
    if (p >= low && p <= high) filtered.push(i);
  }
  return filtered;
}

/**
 * The sum of the filtered products' indexes, of |index − 100| and their number for ANY competitor
 * selection of a priced model (issue 30: the dashboard's today with a new selection scored every product
 * of the pivot — five arrays of its size a request — to add these three numbers). A product's index is
 * against its first selected entry in price order (scoreByMasks), so seller j's entry counts for a
 * selection S exactly when j is in S and none of the sellers of the entries before it is: each entry's
 * index is added into the bucket [j][sellers before it], and the buckets are summed over the subsets of
 * each mask (as the dashboard's closed days, dashboard/selection-sums.ts); a selection's totals are then
 * |S| reads. Only for filters that do not depend on the selection (no match, no market range) and at most
 * INDEX_TOTALS_MAX_SELLERS seller columns (12: 1.2 MB); else null (the caller scores the selection).
 */
export interface IndexTotals {
  /** seller columns of the model (bit j: column j) */
  S: number;
  /** per column j and mask U, at 3 × (j × 2^S + U): Σ index, Σ |index − 100|, count over the masks ⊆ U */
  cells: Float64Array;
}
export const INDEX_TOTALS_MAX_SELLERS = 12;

export function makeIndexTotals(priced: PricedModel, s: PricingScope): IndexTotals | null {
  const S = priced.model.cols.sellerIds.length;
  if (!priced.masks || S > INDEX_TOTALS_MAX_SELLERS || s.post.match === true || s.post.mpiRanges?.length)
    return null;
  const rows = inPriceRange(candidates(priced, s), priced.my, s);
  const { my, entryStart, entrySeller, entryMin } = priced;
  const M = 2 ** S;
  const cells = new Float64Array(S * M * 3);
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r];
    let before = 0;
    for (let e = entryStart[i], end = entryStart[i + 1]; e < end; e++) {
      const p = entryMin[e];
      if (Number.isNaN(p)) break; // (NaN last: none comparable after)
      const j = entrySeller[e];
      const v = priceIndexValue(my[i], p);
      if (!Number.isNaN(v)) {
        const x = (j * M + before) * 3;
        cells[x] += v;
        cells[x + 1] += Math.abs(v - 100);
        cells[x + 2]++;
      }
      before |= 1 << j;
    }
  }
  for (let j = 0; j < S; j++)
    for (let b = 0; b < S; b++) {
      if (b === j) continue; // (a mask of column j's entries never holds bit j: never read)
      const bit = 1 << b;
      for (let U = 0; U < M; U++)
        if (U & bit) {
          const to = (j * M + U) * 3;
          const from = (j * M + (U ^ bit)) * 3;
          cells[to] += cells[from];
          cells[to + 1] += cells[from + 1];
          cells[to + 2] += cells[from + 2];
        }
    }
  return { S, cells };
}

/** A selection's totals from the table (the selected sellers' columns as computeBaseScore maps them). */
export function indexTotalsOf(
  t: IndexTotals,
  model: PivotModel,
  competitors: readonly number[],
): { sum: number; dev: number; n: number } {
  const M = 2 ** t.S;
  let sel = 0;
  for (const id of competitors) {
    const j = model.cols.sellerIndex.get(id);
    if (j !== undefined) sel |= 1 << j;
  }
  const U = (M - 1) & ~sel;
  let sum = 0;
  let dev = 0;
  let n = 0;
  for (let j = 0; j < t.S; j++)
    if (sel & (1 << j)) {
      const x = (j * M + U) * 3;
      sum += t.cells[x];
      dev += t.cells[x + 1];
      n += t.cells[x + 2];
    }
  return { sum, dev, n };
}

/** Scores the pivot's products that pass the filters (no memo; service.ts `scored` memoises). */
export function scoreModel(model: PivotModel, s: PricingScope): ScoredSet {
  return filterScore(computeBaseScore(model, s), s);
}

/**
 * PricingTally's counts of many groups at once (slot = group) in typed arrays, for the tallies' loops
 * over thousands of products: add() counts what PricingTally.add counts (price type and stock from the
 * model's columns, no Row object read), the index sum of each slot added in the order of the adds; and
 * HeadToHeadTally's per slot when asked (`headToHead`).
 */
class TallySlots {
  readonly total: Int32Array;
  readonly match: Int32Array;
  readonly types: Int32Array; // 4 per slot: ROW_PRICE_TYPES
  readonly stockOut: Int32Array;
  readonly withoutIndex: Int32Array;
  readonly cheapest: Int32Array;
  readonly inRange: Int32Array;
  readonly dearer: Int32Array;
  readonly indexSum: Float64Array;
  readonly h2h: {
    common: Int32Array;
    cheaper: Int32Array;
    equal: Int32Array;
    dearer: Int32Array;
    sum: Float64Array;
  } | null;
  private readonly cheapUpTo: number;
  private readonly rangeUpTo: number;
  private readonly rowPriceType: Uint8Array;
  private readonly rowStockOut: Uint8Array;

  constructor(
    size: number,
    readonly mpiValue: number,
    c: { rowPriceType: Uint8Array; rowStockOut: Uint8Array },
    headToHead = false,
  ) {
    this.total = new Int32Array(size);
    this.match = new Int32Array(size);
    this.types = new Int32Array(4 * size);
    this.stockOut = new Int32Array(size);
    this.withoutIndex = new Int32Array(size);
    this.cheapest = new Int32Array(size);
    this.inRange = new Int32Array(size);
    this.dearer = new Int32Array(size);
    this.indexSum = new Float64Array(size);
    this.h2h = headToHead
      ? {
          common: new Int32Array(size),
          cheaper: new Int32Array(size),
          equal: new Int32Array(size),
          dearer: new Int32Array(size),
          sum: new Float64Array(size),
        }
      : null;
    // PricingTally.add's bounds, written as it writes them
    this.cheapUpTo = 100 + INDEX_EPSILON;
    this.rangeUpTo = 100 + mpiValue + INDEX_EPSILON;
    this.rowPriceType = c.rowPriceType;
    this.rowStockOut = c.rowStockOut;
  }

  /** Product `i` in `slot`: matched or not, its index (NaN: none). */
  add(slot: number, i: number, matched: boolean, index: number): void {
    this.total[slot]++;
    if (matched) this.match[slot]++;
    this.types[4 * slot + this.rowPriceType[i]]++;
    if (this.rowStockOut[i] === 1) this.stockOut[slot]++;
    if (Number.isNaN(index)) this.withoutIndex[slot]++;
    else {
      this.indexSum[slot] += index;
      if (index <= this.cheapUpTo) this.cheapest[slot]++;
      else if (index <= this.rangeUpTo) this.inRange[slot]++;
      else this.dearer[slot]++;
    }
  }

  /** HeadToHeadTally.addDifference for the difference index − 100 (nothing without an index). */
  addHeadToHead(slot: number, index: number): void {
    const h = this.h2h as NonNullable<TallySlots['h2h']>;
    if (Number.isNaN(index)) return;
    const d = index - 100;
    h.common[slot]++;
    h.sum[slot] += d;
    if (Math.abs(d) <= INDEX_EPSILON * Math.min(100 + d, 100)) h.equal[slot]++;
    else if (d < 0) h.cheaper[slot]++;
    else h.dearer[slot]++;
  }

  tally(slot: number): PricingTally {
    const t = new PricingTally(this.mpiValue);
    t.total = this.total[slot];
    t.match = this.match[slot];
    t.publishedMatch = this.total[slot] - this.withoutIndex[slot];
    t.normal = this.types[4 * slot];
    t.sale = this.types[4 * slot + 1];
    t.exclusive = this.types[4 * slot + 2];
    t.stockOut = this.stockOut[slot];
    t.cheapest = this.cheapest[slot];
    t.inRange = this.inRange[slot];
    t.dearer = this.dearer[slot];
    t.withoutIndex = this.withoutIndex[slot];
    t.indexSum = this.indexSum[slot];
    return t;
  }

  headToHead(slot: number): HeadToHeadTally {
    const h = this.h2h as NonNullable<TallySlots['h2h']>;
    const t = new HeadToHeadTally();
    t.common = h.common[slot];
    t.cheaper = h.cheaper[slot];
    t.equal = h.equal[slot];
    t.moreExpensive = h.dearer[slot];
    t.differenceSum = h.sum[slot];
    return t;
  }
}

/** Pricing KPIs and index split of some scored products. */
export function tallyOf(set: ScoredSet, positions: readonly number[]): PricingTally {
  const slots = new TallySlots(1, set.scope.mpiValue, set.model.cols);
  const { matched, index } = set;
  for (let j = 0; j < positions.length; j++) {
    const i = positions[j];
    slots.add(0, i, matched[i] === 1, index[i]);
  }
  return slots.tally(0);
}

/**
 * DPM by brand's tally (brand id → tally, 0: no brand), kept on the scored set (memo 'brands': the DPM
 * screen and the brand comparator share it); keys from the brand column, no Row object read.
 */
export function tallyByBrand(set: ScoredSet): Map<number, PricingTally> {
  return memoOn(set, 'brands', () => {
    const { slotOf, keys } = denseSlots(set.model.cols.rowBrand);
    const slots = new TallySlots(keys.length, set.scope.mpiValue, set.model.cols);
    // the brands in the order of their first product
    const order: number[] = [];
    const seen = new Uint8Array(keys.length);
    const { matched, index } = set;
    for (const i of set.filtered) {
      const slot = slotOf[i];
      if (seen[slot] === 0) {
        seen[slot] = 1;
        order.push(slot);
      }
      slots.add(slot, i, matched[i] === 1, index[i]);
    }
    return new Map(order.map((slot) => [keys[slot], slots.tally(slot)]));
  });
}

/**
 * Tallies per classification node: each product counts in every node of its path (root, level 2,
 * leaf), so a node covers its subtree. Products are tallied once per leaf, then leaves are added up
 * into their ancestors. Products without classification go to node 0.
 */
export function tallyByTree(set: ScoredSet): Map<number, PricingTally> {
  const rows = set.model.rows;
  const { rowClassLeaf } = set.model.cols;
  const { slotOf, keys: leaves } = denseSlots(rowClassLeaf);
  const slots = new TallySlots(leaves.length, set.scope.mpiValue, set.model.cols);
  // the leaves in the order of their first product (the order their tallies are added into the nodes)
  const order: number[] = [];
  const firstRow = new Int32Array(leaves.length).fill(-1);
  const { matched, index } = set;
  for (const i of set.filtered) {
    const slot = slotOf[i];
    if (firstRow[slot] < 0) {
      firstRow[slot] = i;
      order.push(slot);
    }
    slots.add(slot, i, matched[i] === 1, index[i]);
  }
  const nodes = new Map<number, PricingTally>();
  for (const slot of order) {
    // the path from the leaf's first product's Row (only one Row read per leaf)
    const r = rows[firstRow[slot]];
    const path = r.classPath.length ? r.classPath : NO_CLASS_PATH;
    const tally = slots.tally(slot);
    for (const id of path) {
      let t = nodes.get(id);
      if (!t) {
        t = new PricingTally(set.scope.mpiValue);
        nodes.set(id, t);
      }
      t.merge(tally);
    }
  }
  return nodes;
}

/**
 * Each row's value of an id column (classification leaf, brand) as a dense slot, and the value of each
 * slot, per column (a model's, shared by its closed-day overlays): 4 bytes a product, kept as long as
 * the column.
 */
const denseSlotsOf = new WeakMap<Int32Array, { slotOf: Int32Array; keys: number[] }>();
function denseSlots(column: Int32Array) {
  let kept = denseSlotsOf.get(column);
  if (!kept) {
    const slotOf = new Int32Array(column.length);
    const slotOfKey = new Map<number, number>();
    const keys: number[] = [];
    for (let i = 0; i < column.length; i++) {
      let slot = slotOfKey.get(column[i]);
      if (slot === undefined) {
        slot = keys.length;
        keys.push(column[i]);
        slotOfKey.set(column[i], slot);
      }
      slotOf[i] = slot;
    }
    kept = { slotOf, keys };
    denseSlotsOf.set(column, kept);
  }
  return kept;
}

const NO_CLASS_PATH = [0];

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
  const slots = new TallySlots(S, set.scope.mpiValue, c, true);
  // the competitors asked for, by seller column (a seller the model has no offer of: an empty tally)
  const asked = new Uint8Array(S);
  for (const id of set.scope.competitors) {
    const si = c.sellerIndex.get(id);
    if (si !== undefined) asked[si] = 1;
  }
  // the priced entries: one per seller with a counted offer, its lowest comparable price
  const { entryStart, entrySeller, entryMin } = set.priced;
  const { selected, my } = set;
  for (const i of set.filtered) {
    const mine = my[i];
    for (let e = entryStart[i], end = entryStart[i + 1]; e < end; e++) {
      const si = entrySeller[e];
      if (selected[si] !== 1 || asked[si] !== 1) continue;
      // (entryMin is NaN or a positive price; the index is NaN unless both prices are positive)
      const index = priceIndexValue(mine, entryMin[e]);
      slots.add(si, i, true, index);
      slots.addHeadToHead(si, index);
    }
  }
  const { competitors } = set.scope;
  return competitors.map((sellerId, k) => {
    const si = c.sellerIndex.get(sellerId);
    // a seller named twice counts once, in its last place (as the per-seller tallies always did)
    return si === undefined || competitors.lastIndexOf(sellerId) !== k
      ? { sellerId, tally: new PricingTally(set.scope.mpiValue), headToHead: new HeadToHeadTally() }
      : { sellerId, tally: slots.tally(si), headToHead: slots.headToHead(si) };
  });
}

/**
 * Per row position, the products' ids, per row array (a model's, shared by its closed-day overlays): 8
 * bytes a product; with the name ranks (model.ts nameRank) a name comparison is a number comparison.
 */
const idsOf = new WeakMap<Row[], Float64Array>();
function productIds(rows: Row[]): Float64Array {
  let ids = idsOf.get(rows);
  if (!ids) {
    ids = Float64Array.from(rows, (r) => r.productId);
    idsOf.set(rows, ids);
  }
  return ids;
}
/** The sort key of every row position (NaN: none, sorted last). */
function sortKeys(set: ScoredSet, by: PricingSortField): Float64Array | Int32Array {
  switch (by) {
    case 'index':
      return set.index;
    case 'price':
      return set.my;
    case 'name':
      return nameRank(set.model);
    case 'difference':
      return memoOn(set, 'difference', () => {
        const d = new Float64Array(set.index.length);
        for (let i = 0; i < d.length; i++)
          d[i] = Number.isNaN(set.index[i]) ? Number.NaN : set.my[i] - set.min[i];
        return d;
      });
  }
}

/** Order of the items: by the key (nulls last whatever the direction), ties by id in the same direction. */
function comparator(set: ScoredSet, by: PricingSortField, dir: SortDirection) {
  const key = sortKeys(set, by);
  const sign = dir === 'asc' ? 1 : -1;
  const ids = productIds(set.model.rows);
  return (a: number, b: number): number => {
    const ka = key[a];
    const kb = key[b];
    const noA = Number.isNaN(ka);
    const noB = Number.isNaN(kb);
    if (noA || noB) {
      if (noA !== noB) return noA ? 1 : -1;
    } else if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return (ids[a] - ids[b]) * sign;
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
  const my = nn(set.my[i]);
  const start = set.model.cols.offerStart[i];
  const c = set.model.cols;
  const best = new Map<number, { k: number; price: number | null; comparable: boolean }>();
  for (let k = start, end = c.offerStart[i + 1]; k < end; k++) {
    if (!offerCounted(set, k)) continue;
    const comparable = !Number.isNaN(set.offerPrice[k]);
    const raw =
      c.offerPrice[scope.mode][k] * (scope.rates.get(c.currencies[c.offerCurrency[k]]) ?? Number.NaN);
    const price = comparable ? set.offerPrice[k] : raw > 0 ? raw : null;
    const sellerId = c.sellerIds[c.offerSeller[k]];
    const cur = best.get(sellerId);
    const better =
      !cur ||
      (comparable && !cur.comparable) ||
      (comparable === cur.comparable &&
        (price ?? Number.POSITIVE_INFINITY) < (cur.price ?? Number.POSITIVE_INFINITY));
    if (better) best.set(sellerId, { k, price, comparable });
  }
  return [...best.values()]
    .map((b) => ({
      offer: offerAt(c, b.k),
      price: b.price,
      comparable: b.comparable,
      difference: b.comparable ? differencePct(my, b.price) : null,
    }))
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
