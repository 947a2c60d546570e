import { effectivePriceFor, PRICE_MODES, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
import type { Queryable } from '../../db/database.js';
import { readModelsOf, touches } from '../../platform/read-model.js';
import {
  type ClosingStates,
  getPivotModel,
  heldPivots,
  licensedPivots,
  type PivotModel,
  provideClosingStates,
  selectChangedIds,
} from '../pricing/index.js';
import { type ListingState, selectStatesAt } from './queries.js';

// The brand comparator's price history in memory (docs/metrics.md "Brand price comparator", docs/
// architecture.md): the price intervals of every listing of a pivot's pricing model (its rows and their
// matched offers), as columns, so that the trend's states at the end of its days are binary searches
// instead of one primary-key probe of price_intervals per (listing, day) — 60,000 probes for 10,000
// listings, ~3 s on the medium market.
//
// Loaded in the background on first use of a pivot (requests meanwhile read the database as before) and
// kept current from the pricing read model's change log: when the pivot's model version moved, the
// pivot listings it rewrote (pricing_changes) and their offers' listings are read again. Every price
// change of a listing in the model rewrites a pricing row or offer (refreshPricingForListings at ingest),
// so the log names every listing whose intervals changed. A log that was pruned reloads the pivot.
// The history is a store of the read-model holder (platform/read-model.ts): loaded after start-up for
// every licensed pivot, brought forward when the change signal names a change (comparatorReadModels).
// The pricing screens' prices at the end of a closed day (pricing/as-of.ts) read it too (slotsBefore):
// hence the listed prices and the price type per interval, not only the trend's effective prices.

/**
 * Columns of the stored intervals; a listing's are contiguous and sorted by valid_from. Prices are kept
 * as listed (NaN = none); a price mode's effective price is computed from them when read (effectiveAt,
 * the rule of effectivePriceFor), so that the pricing screens' closing prices of a closed day (pricing
 * as-of.ts) can be read from the same store, with the price type.
 */
interface Columns {
  from: Float64Array;
  to: Float64Array; // +Infinity = open
  /**
   * listed prices, three per slot side by side (normal, sale, exclusive at 3k, 3k + 1, 3k + 2): a
   * closed day's state or a trend's effective price reads one cache line, not three arrays
   */
  prices: Float64Array;
  stockOut: Uint8Array;
  currency: Uint8Array;
  priceType: Uint8Array;
}

function allocate(capacity: number): Columns {
  return {
    from: new Float64Array(capacity),
    to: new Float64Array(capacity),
    prices: new Float64Array(capacity * 3),
    stockOut: new Uint8Array(capacity),
    currency: new Uint8Array(capacity),
    priceType: new Uint8Array(capacity),
  };
}

function copyInto(to: Columns, from: Columns, n: number) {
  for (const key of Object.keys(to) as (keyof Columns)[])
    (to[key] as Float64Array).set((from[key] as Float64Array).subarray(0, key === 'prices' ? n * 3 : n));
}

/** effectivePriceFor on stored prices (NaN = none): the lowest positive of the mode's prices, NaN when none. */
function effectiveAt(c: Columns, k: number, mode: PriceMode): number {
  const p = c.prices;
  let r = p[3 * k] > 0 ? p[3 * k] : Number.NaN;
  if (mode === 'NORMAL_PRICE') return r;
  const sale = p[3 * k + 1];
  if (sale > 0 && !(sale >= r)) r = sale;
  if (mode === 'NORMAL_SALE_PRICE') return r;
  const exclusive = p[3 * k + 2];
  if (exclusive > 0 && !(exclusive >= r)) r = exclusive;
  return r;
}

/** A listing's state at an instant, as the trend reads it. */
export interface SlotState {
  effective: Record<PriceMode, number | null>;
  stockOut: boolean;
  currency: string;
}

type IntervalRow = [
  number,
  number,
  number | null,
  number | null,
  number | null,
  number | null,
  boolean,
  string,
  string,
];

let storeIds = 0;

/** The intervals of many listings, append-only (a re-read listing points at its new slots). */
export class HistoryStore {
  readonly id = ++storeIds;
  private cols = allocate(1024);
  private size = 0;
  private garbage = 0;
  /** listing id → [first slot, count] */
  private readonly listings = new Map<number, [number, number]>();
  /** bumped by every put: slot ranges read before are stale */
  generation = 0;
  private readonly currencies: string[] = [];
  private readonly currencyIndex = new Map<string, number>();
  private readonly priceTypes: string[] = [];

  get slots(): number {
    return this.size;
  }

  /** Share of the slots that no listing points at any more (re-read listings). */
  get waste(): number {
    return this.size ? this.garbage / this.size : 0;
  }

  has(id: number): boolean {
    return this.listings.has(id);
  }

  private grow(min: number) {
    if (min <= this.cols.from.length) return;
    let cap = this.cols.from.length;
    while (cap < min) cap = Math.ceil(cap * 1.5); // ~43 bytes a slot: little slack on millions
    const next = allocate(cap);
    copyInto(next, this.cols, this.size);
    this.cols = next;
  }

  private currencyOf(code: string): number {
    let i = this.currencyIndex.get(code);
    if (i === undefined) {
      i = this.currencies.length;
      if (i > 255) throw new Error('brand comparator history: more than 256 currencies');
      this.currencies.push(code);
      this.currencyIndex.set(code, i);
    }
    return i;
  }

  /**
   * Stores rows sorted by (listing, valid_from): each listing named in `ids` gets exactly the rows given
   * for it (none = no interval), its slots placed in the order of `ids` (the listings a request reads
   * together — a pivot row's and its offers' — lie side by side in memory).
   */
  put(ids: Iterable<number>, rows: IntervalRow[]) {
    this.grow(this.size + rows.length);
    const c = this.cols;
    const at = new Map<number, number>(); // listing → its first row
    rows.forEach((row, r) => {
      if (r === 0 || rows[r - 1][0] !== row[0]) at.set(row[0], r);
    });
    for (const id of new Set(ids)) {
      const start = this.size;
      for (let r = at.get(id) ?? rows.length; r < rows.length && rows[r][0] === id; r++) {
        const [, from, to, normal, sale, exclusive, stockOut, currency, priceType] = rows[r];
        const k = this.size++;
        c.from[k] = from;
        c.to[k] = to ?? Number.POSITIVE_INFINITY;
        c.prices[3 * k] = normal ?? Number.NaN;
        c.prices[3 * k + 1] = sale ?? Number.NaN;
        c.prices[3 * k + 2] = exclusive ?? Number.NaN;
        c.stockOut[k] = stockOut ? 1 : 0;
        c.currency[k] = this.currencyOf(currency);
        let pt = this.priceTypes.indexOf(priceType);
        if (pt < 0) pt = this.priceTypes.push(priceType) - 1;
        c.priceType[k] = pt;
      }
      const old = this.listings.get(id);
      if (old) this.garbage += old[1];
      this.listings.set(id, [start, this.size - start]);
    }
    this.generation++;
  }

  /** A listing's slots: [first, count] (count 0 when the listing is not stored). */
  range(id: number): [number, number] {
    return this.listings.get(id) ?? [0, 0];
  }

  /** valid_from of the last of the slots [first, first + count) (−∞ when none). */
  lastFrom(first: number, count: number): number {
    return count ? this.cols.from[first + count - 1] : Number.NEGATIVE_INFINITY;
  }

  /** The slot of the interval covering instant `t` among [first, first + count): −1 when none. */
  slotAt(first: number, count: number, t: number): number {
    const c = this.cols;
    let lo = first;
    let hi = first + count - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (c.from[mid] <= t) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return k >= 0 && c.to[k] > t ? k : -1;
  }

  /** Effective price of a slot for a mode, converted with `rateOf` (by currency index): NaN when none. */
  price(slot: number, mode: PriceMode, rateOf: Float64Array): number {
    return effectiveAt(this.cols, slot, mode) * rateOf[this.cols.currency[slot]];
  }

  stockOutAt(slot: number): boolean {
    return this.cols.stockOut[slot] === 1;
  }

  /**
   * The effective prices (mode, converted with `rateOf`) of one listing's slots [first, first + count) at
   * instants `ts` into `out` (NaN: no interval covers the instant, no price, or — `inStockOnly` — out of
   * stock), as slotAt and price would give them one instant at a time. With ascending instants each
   * search starts at the previous one's slot.
   */
  pricesAt(
    first: number,
    count: number,
    ts: Float64Array,
    ascending: boolean,
    inStockOnly: boolean,
    mode: PriceMode,
    rateOf: Float64Array,
    out: Float64Array,
  ): void {
    const c = this.cols;
    const { from, to, stockOut, currency } = c;
    const end = first + count;
    let lo = first;
    for (let d = 0; d < ts.length; d++) {
      const t = ts[d];
      // the last slot in [lo, end) that starts at or before t (lo − 1 when none)
      let a = lo;
      let b = end - 1;
      let k = lo - 1;
      while (a <= b) {
        const mid = (a + b) >> 1;
        if (from[mid] <= t) {
          k = mid;
          a = mid + 1;
        } else b = mid - 1;
      }
      out[d] =
        k < first || !(to[k] > t) || (inStockOnly && stockOut[k] === 1)
          ? Number.NaN
          : effectiveAt(c, k, mode) * rateOf[currency[k]];
      if (ascending && k > lo) lo = k;
    }
  }

  /** Rate per stored currency (NaN when the request has none for it). */
  rates(rates: Map<string, number>): Float64Array {
    return Float64Array.from(this.currencies, (code) => rates.get(code) ?? Number.NaN);
  }

  /**
   * The states at instant `t` of many listings, as the pricing screens take a closed day's (pricing
   * as-of.ts): for listing j, whose slots are [first[j], first[j] + count[j]) and whose last interval
   * began at last[j], out[j] = its last slot that began before `t`, even when it ended earlier
   * (unpublished: its last known state); −1 when none began before `t`, and when its last interval did
   * (its state then is its current one, the model's: as as-of.ts selectStatesAt, which reads only
   * listings whose current interval began after the day). One tight loop: no object per listing.
   */
  slotsBefore(first: Int32Array, count: Int32Array, last: Float64Array, t: number, out: Int32Array): void {
    const from = this.cols.from;
    for (let j = 0; j < out.length; j++) {
      if (last[j] < t || count[j] === 0) {
        out[j] = -1;
        continue;
      }
      let lo = first[j];
      let hi = lo + count[j] - 1;
      let k = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (from[mid] < t) {
          k = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      out[j] = k;
    }
  }

  /**
   * The stored states as pricing's ClosingStates columns (a slot is a state), for the slots given per
   * row and offer. Slots are never rewritten (a re-read listing gets new ones) and a growing store copies
   * them into larger arrays, so the arrays handed out stay true for the slots named now.
   */
  closingStates(rowState: Int32Array, offerState: Int32Array): ClosingStates {
    const c = this.cols;
    return {
      rowState,
      offerState,
      prices: c.prices,
      stockOut: c.stockOut,
      currency: c.currency,
      currencies: this.currencies,
      priceType: c.priceType,
      priceTypes: this.priceTypes,
    };
  }

  /** The listing's state at instant `t` (epoch ms): undefined when no interval covers it (as selectStatesAt). */
  stateAt(id: number, t: number): SlotState | undefined {
    const [first, count] = this.range(id);
    const k = this.slotAt(first, count, t);
    if (k < 0) return undefined;
    const c = this.cols;
    const nn = (v: number) => (Number.isNaN(v) ? null : v);
    return {
      effective: Object.fromEntries(PRICE_MODES.map((m) => [m, nn(effectiveAt(c, k, m))])) as Record<
        PriceMode,
        number | null
      >,
      stockOut: c.stockOut[k] === 1,
      currency: this.currencies[c.currency[k]],
    };
  }
}

/** Reads the intervals of `ids` into `store`, in batches, laid out in the order of `ids`. */
export async function loadIntervals(
  db: Queryable,
  store: HistoryStore,
  ids: number[],
  { batch = 20_000, stopped = (): boolean => false } = {},
) {
  const order = [...new Set(ids)];
  for (let i = 0; i < order.length; i += batch) {
    if (stopped()) throw new Error('brand comparator history: stopped');
    const part = order.slice(i, i + batch);
    const { rows } = await db.query<IntervalRow>({
      text: `select pi.product_id::float8, (extract(epoch from pi.valid_from) * 1000)::float8,
                    (extract(epoch from pi.valid_to) * 1000)::float8, pi.normal_price::float8,
                    pi.sale_price::float8, pi.exclusive_price::float8, pi.stock_out, pi.currency,
                    pi.price_type
               from price_intervals pi
              where pi.product_id = any($1::bigint[])
              order by pi.product_id, pi.valid_from`,
      values: [part],
      rowMode: 'array',
    });
    store.put(part, rows);
  }
}

/** The listings of a pivot model: its rows' and their offers'. */
export function modelListings(model: PivotModel, pivotIds?: Set<number>): number[] {
  const out: number[] = [];
  const c = model.cols;
  model.rows.forEach((row, i) => {
    if (pivotIds && !pivotIds.has(row.productId)) return;
    out.push(row.productId);
    for (let k = c.offerStart[i], end = c.offerStart[i + 1]; k < end; k++) out.push(c.offerProductId[k]);
  });
  return out;
}

interface PivotHistory {
  /** model version the stored intervals of this pivot's listings are current for; null = not loaded */
  version: number | null;
  /** the load or refresh in progress */
  busy: Promise<void> | null;
}

interface PoolHistory {
  store: HistoryStore;
  pivots: Map<number, PivotHistory>;
  /** the server is closing: loads stop after their current batch */
  closed: boolean;
}

/** The process's history (a store of the read-model holder). */
const poolHistory = (pool: pg.Pool): PoolHistory =>
  readModelsOf(pool).state('comparator-history', () => ({
    store: new HistoryStore(),
    pivots: new Map(),
    closed: false,
  }));

/** Loads the whole history of the model's listings (a pivot not loaded yet, or a pruned change log). */
function startLoad(pool: pg.Pool, h: PoolHistory, p: PivotHistory, model: PivotModel) {
  if (p.busy) return;
  p.busy = (async () => {
    // when the waste of re-read listings outweighs the live slots, start over
    if (h.store.waste > 0.5) {
      h.store = new HistoryStore();
      for (const other of h.pivots.values()) if (other !== p) other.version = null;
    }
    await loadIntervals(pool, h.store, modelListings(model), { stopped: () => h.closed });
    p.version = model.version;
  })()
    .catch(() => {
      p.version = null;
    })
    .finally(() => {
      p.busy = null;
    });
}

/**
 * The store, current for `model` (the request's pivot model): null while the pivot's history is being
 * loaded (the caller reads the database meanwhile). A model version newer than the store's re-reads
 * the listings the pricing change log names first.
 */
export async function historyFor(pool: pg.Pool, model: PivotModel): Promise<HistoryStore | null> {
  const h = poolHistory(pool);
  if (h.closed) return null;
  let p = h.pivots.get(model.pivot);
  if (!p) {
    p = { version: null, busy: null };
    h.pivots.set(model.pivot, p);
  }
  const ph = p;
  for (;;) {
    if (ph.version === null) {
      startLoad(pool, h, ph, model);
      return null;
    }
    if (ph.version >= model.version) return h.store;
    if (ph.busy) {
      await ph.busy;
      continue;
    }
    const from = ph.version;
    ph.busy = (async () => {
      const changed = await selectChangedIds(pool, model.pivot, from, model.version);
      if (changed === null) {
        ph.version = null; // the log was pruned: load the pivot again
        return;
      }
      await loadIntervals(pool, h.store, modelListings(model, new Set(changed)));
      ph.version = model.version;
    })()
      .catch(() => {
        ph.version = null;
      })
      .finally(() => {
        ph.busy = null;
      });
    await ph.busy;
  }
}

/**
 * The instants (epoch ms) of the end of each day in the organisation's market zone, now for today (as
 * selectStatesAt); `open` = the day has not ended yet (its instant is now).
 */
export async function dayEnds(
  db: Queryable,
  days: string[],
  zone: string,
): Promise<{ t: number; open: boolean }[]> {
  const { rows } = await db.query<{ t: number; open: boolean }>(
    `select (extract(epoch from least(now(), e.t)) * 1000)::float8 as t, now() < e.t as open
       from unnest($1::date[]) with ordinality u(day, k)
       cross join lateral (select vigia_day_start(day + 1, $2::text) - interval '1 millisecond' as t) e
      order by k`,
    [days, zone],
  );
  return rows;
}

/**
 * Prices of a pivot model's listings at the end of each day of a trend, for the request's price mode and
 * rates: per listing, one value per day (NaN when the listing had no interval then or no effective price,
 * and, for an offer, when it was out of stock).
 */
export interface TrendPrices {
  /** number of days */
  days: number;
  /** pivot row i's listing: out[d] for each day d */
  mine(i: number, out: Float64Array): void;
  /** offer k's listing (in stock only): out[d] for each day d */
  theirs(k: number, out: Float64Array): void;
  /**
   * Per day, what identifies its values (store, its generation, model version, price mode, rates, the
   * day's end — today's: its date, as its values change only with the rest): equal keys give equal
   * prices. null = not worth keeping (read from the database while the store loads).
   */
  dayKeys: string[] | null;
  /** The same prices at some of the days (indexes into them, ascending). */
  only(days: number[]): TrendPrices;
}

interface Slots {
  generation: number;
  store: HistoryStore;
  /** the model's listings the store does not hold */
  missing: number[];
  rowFirst: Int32Array;
  rowCount: Int32Array;
  offerFirst: Int32Array;
  offerCount: Int32Array;
  /**
   * valid_from of each row's / offer's listing's last interval (−∞: none): read in order, so that a
   * closed day's overlay passes over the listings unchanged since the day without a search in the store
   */
  rowLast: Float64Array;
  offerLast: Float64Array;
}
// Kept per listing layout: the offers' listing ids of a model's columns (a new model version builds new
// columns; a closed day's overlay, pricing as-of.ts, keeps its model's rows and offers in place and
// shares that array), so that the requests on every closed day's overlay of a model reuse its ranges.
const slotCache = new WeakMap<Float64Array, Slots>();

/** The model's listings' slot ranges in the store (kept per listing layout until the store changes). */
function slotsOf(store: HistoryStore, model: PivotModel): Slots {
  const cached = slotCache.get(model.cols.offerProductId);
  if (cached && cached.store === store && cached.generation === store.generation) return cached;
  const c = model.cols;
  const nOffers = c.offerProductId.length;
  const s: Slots = {
    generation: store.generation,
    store,
    rowFirst: new Int32Array(model.rows.length),
    rowCount: new Int32Array(model.rows.length),
    offerFirst: new Int32Array(nOffers),
    offerCount: new Int32Array(nOffers),
    rowLast: new Float64Array(model.rows.length),
    offerLast: new Float64Array(nOffers),
    missing: [],
  };
  model.rows.forEach((row, i) => {
    [s.rowFirst[i], s.rowCount[i]] = store.range(row.productId);
    s.rowLast[i] = store.lastFrom(s.rowFirst[i], s.rowCount[i]);
    if (!store.has(row.productId)) s.missing.push(row.productId);
  });
  for (let k = 0; k < nOffers; k++) {
    [s.offerFirst[k], s.offerCount[k]] = store.range(c.offerProductId[k]);
    s.offerLast[k] = store.lastFrom(s.offerFirst[k], s.offerCount[k]);
    if (!store.has(c.offerProductId[k])) s.missing.push(c.offerProductId[k]);
  }
  slotCache.set(model.cols.offerProductId, s);
  return s;
}

/**
 * The states of the model's listings the store holds at the end instant `endTs` of a closed day, as the
 * pricing screens overlay them (pricing as-of.ts); a listing not held reads as "keep" (`missing`).
 */
export function closingStatesOf(
  store: HistoryStore,
  model: PivotModel,
  endTs: number,
): { missing: number[]; states: ClosingStates } {
  const s = slotsOf(store, model);
  const rowState = new Int32Array(s.rowFirst.length);
  const offerState = new Int32Array(s.offerFirst.length);
  store.slotsBefore(s.rowFirst, s.rowCount, s.rowLast, endTs, rowState);
  store.slotsBefore(s.offerFirst, s.offerCount, s.offerLast, endTs, offerState);
  return { missing: s.missing, states: store.closingStates(rowState, offerState) };
}

/** Trend prices from the database's states (selectStatesAt), for a store not loaded yet. */
export function trendPricesFromDatabase(
  model: PivotModel,
  states: Map<number, ListingState>[],
  mode: PriceMode,
  rates: Map<string, number>,
): TrendPrices {
  const conv = (s: ListingState | undefined) => {
    if (!s) return Number.NaN;
    const p = effectivePriceFor(s, mode);
    const f = rates.get(s.currency);
    return p === null || f === undefined ? Number.NaN : p * f;
  };
  const c = model.cols;
  return {
    days: states.length,
    dayKeys: null,
    mine: (i, out) => {
      const id = model.rows[i].productId;
      states.forEach((st, d) => {
        out[d] = conv(st.get(id));
      });
    },
    theirs: (k, out) => {
      const id = c.offerProductId[k];
      states.forEach((st, d) => {
        const s = st.get(id);
        out[d] = s && !s.stockOut ? conv(s) : Number.NaN;
      });
    },
    only: (days) =>
      trendPricesFromDatabase(
        model,
        days.map((d) => states[d]),
        mode,
        rates,
      ),
  };
}

/**
 * The prices of the model's listings at the end of each of `days`: from the in-memory history when it
 * is loaded for the pivot, else from the database (selectStatesAt for the listings `ids` gives, the same
 * rule). From the store, a listing's values for all the days come from one search over its own slots
 * (the days' instants ascend, so each search starts where the previous one ended): the store is far
 * larger than the CPU's caches, and reading it a day at a time cost a cache miss per listing and day.
 */
export async function pricesAt(
  pool: pg.Pool,
  model: PivotModel,
  ids: () => number[],
  days: string[],
  mode: PriceMode,
  rates: Map<string, number>,
  zone: string,
): Promise<TrendPrices> {
  const store = await historyFor(pool, model);
  if (!store) {
    const states = await selectStatesAt(pool, ids(), days, zone);
    return trendPricesFromDatabase(model, states, mode, rates);
  }
  const ends = await dayEnds(pool, days, zone);
  const s = slotsOf(store, model);
  const rateOf = store.rates(rates);
  const base = [store.id, store.generation, model.pivot, model.version, mode, [...rateOf].join(',')].join(
    '|',
  );
  const read = (ts: Float64Array, dayKeys: string[]): TrendPrices => {
    const ascending = ts.every((t, d) => d === 0 || t >= ts[d - 1]);
    return {
      days: ts.length,
      dayKeys,
      mine: (i, out) => store.pricesAt(s.rowFirst[i], s.rowCount[i], ts, ascending, false, mode, rateOf, out),
      theirs: (k, out) =>
        store.pricesAt(s.offerFirst[k], s.offerCount[k], ts, ascending, true, mode, rateOf, out),
      only: (picked) =>
        read(
          Float64Array.from(picked, (d) => ts[d]),
          picked.map((d) => dayKeys[d]),
        ),
    };
  };
  return read(
    Float64Array.from(ends, (e) => e.t),
    ends.map((e, d) => `${base}|${e.open ? `open ${days[d]}` : e.t}`),
  );
}

/** Waits for the loads in progress (tests). */
export async function historySettled(pool: pg.Pool): Promise<void> {
  const h = poolHistory(pool);
  await Promise.all([...h.pivots.values()].map((p) => p.busy));
}

/** Loads a pivot's history now (server start, tests); resolves when it is in memory. */
export async function warmHistory(pool: pg.Pool, model: PivotModel): Promise<void> {
  await historyFor(pool, model);
  await historySettled(pool);
}

/** Stops the loads in progress after their current batch and waits for them (server close). */
export async function stopHistory(pool: pg.Pool): Promise<void> {
  const h = poolHistory(pool);
  h.closed = true;
  await historySettled(pool);
}

/**
 * The history in the read-model holder: every licensed pivot's loaded after start-up (stopped at close),
 * and the pivots loaded brought to their pricing models' new versions when the change signal names a
 * change (after the pricing models', which subscribe first).
 */
export function comparatorReadModels(pool: pg.Pool): void {
  const holder = readModelsOf(pool);
  // the pricing screens' closing prices of a closed day (pricing as-of.ts) read the same history
  provideClosingStates(pool, async (model) => {
    const store = await historyFor(pool, model);
    return (
      store && {
        missing: slotsOf(store, model).missing,
        at: (endTs) => closingStatesOf(store, model, endTs).states,
      }
    );
  });
  holder.warmUp(
    'comparator-history',
    async () => {
      for (const pivot of await licensedPivots(pool)) {
        await holder.pause(); // the requests first (platform/read-model.ts)
        if (poolHistory(pool).closed) return;
        await warmHistory(pool, await getPivotModel(pool, pivot, null, true));
      }
    },
    { stop: () => stopHistory(pool), inTests: true },
  );
  holder.subscribe('comparator-history', async (changes) => {
    if (!touches(changes, ['listings', 'matches', 'products'])) return;
    const h = poolHistory(pool);
    const held = new Set(heldPivots(pool));
    for (const [pivot, p] of h.pivots)
      if (!h.closed && p.version !== null && held.has(pivot))
        await historyFor(pool, await getPivotModel(pool, pivot));
  });
}
