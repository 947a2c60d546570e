import { effectivePriceFor, PRICE_MODES, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
import { type Queryable, queryOwnClient } from '../../db/database.js';
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
// The pricing screens' prices at the end of a closed day (pricing/as-of.ts) read it too (statesBefore):
// hence the listed prices and the price type per interval, not only the trend's effective prices.
//
// Layout (issue 30: 58 bytes per market interval on large before, 699 MiB): per slot, valid_from
// (Float64, exact as read) and a state index (Int32) into a table of the store's distinct states
// (listed prices, stock, currency, price type: most intervals repeat a state another interval has);
// valid_to is not stored — a slot lasts until the next slot of its listing begins, and an interval
// that ended before the next one began (or the last one, closed) is followed by a gap slot (state −1:
// no interval from its instant on). So 12 bytes a slot, ~0.4 % of them gaps. valid_from stays a double:
// the ingest's instants carry milliseconds (not whole seconds), and the instants asked ('now' among
// them) are compared with it as read. The listing index is an open-addressing table over typed arrays.
// Loads append (arrays growing 1.5×, 1.125× once large) and a finished load seals the store: exact-size
// arrays, without the slots of re-read listings nor the states no slot uses; a refresh seals only once
// those slots pass 1/16 of the store or the spare room 1/8 (a few changed listings copy nothing). A re-read listing whose intervals
// are unchanged keeps its slots, so a listing two pivots share (a competitor's listing matched to both)
// is stored once: the second pivot's load finds it as stored; after a change, the first pivot's
// refresh to read it moves it for both, and the other's refresh (its change log names it too) reads
// it again and finds it unchanged.

/**
 * The store's columns at one moment: a listing's slots are contiguous and sorted by `from`. Arrays are
 * never rewritten below the sizes they had when handed out (a put appends, a seal makes new arrays), so
 * slot ranges and state indexes read together with a Columns object stay true for it.
 */
interface Columns {
  /** slot's valid_from (epoch ms) */
  from: Float64Array;
  /** slot's state, or GAP: no interval from `from` until the listing's next slot */
  state: Int32Array;
  /**
   * state's listed prices, three side by side (normal, sale, exclusive at 3s, 3s + 1, 3s + 2; NaN =
   * none): a closed day's state or a trend's effective price reads one cache line, not three arrays
   */
  prices: Float64Array;
  stockOut: Uint8Array;
  currency: Uint8Array;
  priceType: Uint8Array;
}

const GAP = -1;

/** effectivePriceFor on stored prices (NaN = none): the lowest positive of the mode's prices, NaN when none. */
function effectiveAt(c: Columns, s: number, mode: PriceMode): number {
  const p = c.prices;
  let r = p[3 * s] > 0 ? p[3 * s] : Number.NaN;
  if (mode === 'NORMAL_PRICE') return r;
  const sale = p[3 * s + 1];
  if (sale > 0 && !(sale >= r)) r = sale;
  if (mode === 'NORMAL_SALE_PRICE') return r;
  const exclusive = p[3 * s + 2];
  if (exclusive > 0 && !(exclusive >= r)) r = exclusive;
  return r;
}

/** The last slot in [lo, end) whose `from` is ≤ t (`strict`: < t); lo − 1 when none. */
function lastStarted(from: Float64Array, lo: number, end: number, t: number, strict: boolean): number {
  let a = lo;
  let b = end - 1;
  let k = lo - 1;
  while (a <= b) {
    const mid = (a + b) >> 1;
    if (strict ? from[mid] < t : from[mid] <= t) {
      k = mid;
      a = mid + 1;
    } else b = mid - 1;
  }
  return k;
}

/** A listing's state at an instant, as the trend reads it. */
export interface SlotState {
  effective: Record<PriceMode, number | null>;
  stockOut: boolean;
  currency: string;
}

/** A price_intervals row as loadIntervals reads it: listing, valid_from, valid_to (epoch ms), prices, stock, currency, type. */
export type IntervalRow = [
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

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** A 32-bit hash step over a double's bits. */
function mix(h: number, v: number): number {
  f64[0] = v;
  h = Math.imul(h ^ u32[0], 0x9e3779b1);
  h = Math.imul(h ^ u32[1], 0x85ebca6b);
  return h ^ (h >>> 15);
}

/** The smallest power of two ≥ 2n (an open-addressing table at most half full), at least 16. */
const tableSize = (n: number) => 2 ** Math.max(4, Math.ceil(Math.log2(2 * n + 1)));

/** The store's distinct states, interned (open addressing over typed arrays). */
class StateTable {
  size = 0;
  prices: Float64Array;
  stockOut: Uint8Array;
  currency: Uint8Array;
  priceType: Uint8Array;
  private table: Int32Array;

  constructor(capacity: number) {
    this.prices = new Float64Array(3 * capacity);
    this.stockOut = new Uint8Array(capacity);
    this.currency = new Uint8Array(capacity);
    this.priceType = new Uint8Array(capacity);
    this.table = new Int32Array(tableSize(capacity)).fill(-1);
  }

  get capacity(): number {
    return this.stockOut.length;
  }

  private hash(n: number, s: number, e: number, stockOut: number, currency: number, type: number): number {
    return mix(mix(mix(stockOut | (currency << 1) | (type << 9), n), s), e);
  }

  private place(j: number) {
    const p = this.prices;
    const mask = this.table.length - 1;
    let i =
      this.hash(p[3 * j], p[3 * j + 1], p[3 * j + 2], this.stockOut[j], this.currency[j], this.priceType[j]) &
      mask;
    while (this.table[i] >= 0) i = (i + 1) & mask;
    this.table[i] = j;
  }

  /** The index of this state (added when new). Prices compare with Object.is (NaN = none). */
  intern(n: number, s: number, e: number, stockOut: number, currency: number, type: number): number {
    const p = this.prices;
    const mask = this.table.length - 1;
    for (let i = this.hash(n, s, e, stockOut, currency, type) & mask; ; i = (i + 1) & mask) {
      const j = this.table[i];
      if (j < 0) break;
      if (
        Object.is(p[3 * j], n) &&
        Object.is(p[3 * j + 1], s) &&
        Object.is(p[3 * j + 2], e) &&
        this.stockOut[j] === stockOut &&
        this.currency[j] === currency &&
        this.priceType[j] === type
      )
        return j;
    }
    const j = this.append(n, s, e, stockOut, currency, type);
    if (2 * this.size > this.table.length) this.rehash(tableSize(this.size));
    else this.place(j);
    return j;
  }

  /** Adds a state known to be new, without placing it in the table (rehash places them all). */
  append(n: number, s: number, e: number, stockOut: number, currency: number, type: number): number {
    if (this.size === this.capacity) this.resize(Math.max(16, Math.ceil(this.size * 1.5)));
    const j = this.size++;
    this.prices[3 * j] = n;
    this.prices[3 * j + 1] = s;
    this.prices[3 * j + 2] = e;
    this.stockOut[j] = stockOut;
    this.currency[j] = currency;
    this.priceType[j] = type;
    return j;
  }

  /** New arrays of `capacity` states (a Columns object handed out keeps the old ones). */
  resize(capacity: number) {
    const fit = <T extends Float64Array | Uint8Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a.subarray(0, Math.min(n, a.length)));
      return b;
    };
    this.prices = fit(this.prices, 3 * capacity);
    this.stockOut = fit(this.stockOut, capacity);
    this.currency = fit(this.currency, capacity);
    this.priceType = fit(this.priceType, capacity);
  }

  rehash(size: number) {
    this.table = new Int32Array(size).fill(-1);
    for (let j = 0; j < this.size; j++) this.place(j);
  }
}

/** Listing id → its slots [first, first + count): open addressing over typed arrays. */
class ListingIndex {
  size = 0;
  ids = new Float64Array(16);
  first = new Int32Array(16);
  count = new Int32Array(16);
  /** entry index, −1 = empty */
  private table = new Int32Array(32).fill(-1);

  private slot(id: number): number {
    const lo = id >>> 0;
    const hi = Math.floor(id / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0;
  }

  /** The entry of listing `id`, −1 when it has none. */
  get(id: number): number {
    const mask = this.table.length - 1;
    for (let i = this.slot(id) & mask; ; i = (i + 1) & mask) {
      const e = this.table[i];
      if (e < 0 || this.ids[e] === id) return e;
    }
  }

  add(id: number, first: number, count: number): void {
    if (this.size === this.ids.length) this.resize(Math.max(16, Math.ceil(this.size * 1.5)));
    const e = this.size++;
    this.ids[e] = id;
    this.first[e] = first;
    this.count[e] = count;
    if (2 * this.size > this.table.length) this.rehash();
    else this.place(e);
  }

  private place(e: number) {
    const mask = this.table.length - 1;
    let i = this.slot(this.ids[e]) & mask;
    while (this.table[i] >= 0) i = (i + 1) & mask;
    this.table[i] = e;
  }

  private rehash() {
    this.table = new Int32Array(tableSize(this.size)).fill(-1);
    for (let e = 0; e < this.size; e++) this.place(e);
  }

  /** Entries in exact-size arrays (the table keeps its size: a power of two at most half full). */
  resize(capacity: number) {
    this.ids = fitted(this.ids, capacity);
    this.first = fitted(this.first, capacity);
    this.count = fitted(this.count, capacity);
  }

  get slack(): number {
    return this.ids.length - this.size;
  }
}

function fitted<T extends Float64Array | Int32Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a.subarray(0, Math.min(n, a.length)));
  return b;
}

let storeIds = 0;
/** A listing's slots being made (put), before they are compared with those held. */
const scratch = { from: new Float64Array(64), state: new Int32Array(64) };

/**
 * The intervals of many listings. A put appends (a re-read listing that changed points at its new
 * slots); seal() drops what no listing points at and the arrays' spare room.
 */
export class HistoryStore {
  readonly id = ++storeIds;
  private from = new Float64Array(1024);
  private state = new Int32Array(1024);
  private size = 0;
  /** slots no listing points at any more (re-read listings that changed) */
  private garbage = 0;
  private readonly index = new ListingIndex();
  private states = new StateTable(256);
  private view: Columns | null = null;
  /** bumped by every put that changed a listing's slots and by every seal that moved them */
  generation = 0;
  /** listings given to put since the store was made (each one read from the database) */
  listingsRead = 0;
  private readonly currencies: string[] = [];
  private readonly currencyIndex = new Map<string, number>();
  private readonly priceTypes: string[] = [];

  /** Slots in use (live ones and, until the next seal, those of re-read listings). */
  get slots(): number {
    return this.size;
  }

  /** What the store holds, and its spare room (none after a seal). */
  stats() {
    return {
      slots: this.size,
      gaps: this.state.subarray(0, this.size).reduce((n, s) => n + (s === GAP ? 1 : 0), 0),
      garbage: this.garbage,
      spareSlots: this.from.length - this.size,
      states: this.states.size,
      spareStates: this.states.capacity - this.states.size,
      listings: this.index.size,
      spareListings: this.index.slack,
    };
  }

  has(id: number): boolean {
    return this.index.get(id) >= 0;
  }

  /** The columns now (slot ranges read now stay true for them). */
  columns(): Columns {
    const t = this.states;
    const v = this.view;
    if (
      v &&
      v.from === this.from &&
      v.state === this.state &&
      v.prices === t.prices &&
      v.stockOut === t.stockOut
    )
      return v;
    this.view = {
      from: this.from,
      state: this.state,
      prices: t.prices,
      stockOut: t.stockOut,
      currency: t.currency,
      priceType: t.priceType,
    };
    return this.view;
  }

  private ensure(min: number) {
    if (min <= this.from.length) return;
    let cap = this.from.length;
    // by half while small, by an eighth once large (a refresh's appends after a seal, a copy's peak)
    while (cap < min) cap = Math.max(1024, Math.ceil(cap * (cap < 1 << 22 ? 1.5 : 1.125)));
    this.from = fitted(this.from, cap);
    this.state = fitted(this.state, cap);
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

  private priceTypeOf(code: string): number {
    let i = this.priceTypes.indexOf(code);
    if (i < 0) {
      if (this.priceTypes.length > 255)
        throw new Error('brand comparator history: more than 256 price types');
      i = this.priceTypes.push(code) - 1;
    }
    return i;
  }

  /**
   * Stores rows sorted by (listing, valid_from): each listing named in `ids` gets exactly the rows given
   * for it (none = no interval), its slots placed in the order of `ids` (the listings a request reads
   * together — a pivot row's and its offers' — lie side by side in memory). A listing already held with
   * the same intervals keeps its slots.
   */
  put(ids: Iterable<number>, rows: IntervalRow[]) {
    const at = new Map<number, number>(); // listing → its first row
    rows.forEach((row, r) => {
      if (r === 0 || rows[r - 1][0] !== row[0]) at.set(row[0], r);
    });
    let changed = false;
    for (const id of new Set(ids)) {
      this.listingsRead++;
      const r0 = at.get(id) ?? rows.length;
      let r1 = r0;
      while (r1 < rows.length && rows[r1][0] === id) r1++;
      // the listing's slots, first in a scratch area: an interval and at most one gap after it
      if (scratch.from.length < 2 * (r1 - r0)) {
        scratch.from = new Float64Array(4 * (r1 - r0));
        scratch.state = new Int32Array(4 * (r1 - r0));
      }
      const { from, state } = scratch;
      let k = 0;
      let gapAt = Number.NaN; // where the previous interval ended (NaN: open, or none)
      for (let r = r0; r < r1; r++) {
        const [, valid, to, normal, sale, exclusive, stockOut, currency, priceType] = rows[r];
        if (gapAt < valid) {
          from[k] = gapAt;
          state[k++] = GAP;
        }
        from[k] = valid;
        state[k++] = this.states.intern(
          normal ?? Number.NaN,
          sale ?? Number.NaN,
          exclusive ?? Number.NaN,
          stockOut ? 1 : 0,
          this.currencyOf(currency),
          this.priceTypeOf(priceType),
        );
        // an interval ended at or before its start (none is) covers no instant: its gap starts with it
        gapAt = to === null ? Number.NaN : Math.max(to, valid);
      }
      if (!Number.isNaN(gapAt)) {
        from[k] = gapAt;
        state[k++] = GAP;
      }
      const n = k;
      const e = this.index.get(id);
      if (e >= 0) {
        const f = this.index.first[e];
        let same = this.index.count[e] === n;
        for (let j = 0; same && j < n; j++)
          same = Object.is(this.from[f + j], from[j]) && this.state[f + j] === state[j];
        if (same) continue;
      }
      const start = this.size;
      this.ensure(start + n);
      this.from.set(from.subarray(0, n), start);
      this.state.set(state.subarray(0, n), start);
      this.size += n;
      if (e >= 0) {
        this.garbage += this.index.count[e];
        this.index.first[e] = start;
        this.index.count[e] = n;
      } else this.index.add(id, start, n);
      changed = true;
    }
    if (changed) this.generation++;
  }

  /**
   * Exact-size arrays holding only what the listings point at: their slots (laid out in the order the
   * listings were first stored) and the states those use. Columns handed out before keep their arrays.
   * `exact` false (after a refresh): only when the slots of re-read listings exceed 1/16 of the slots or
   * the spare room 1/8 of the arrays, so that a few changed listings do not copy the whole store.
   */
  seal(exact = true) {
    const ix = this.index;
    const t = this.states;
    if (this.garbage === 0 && this.from.length === this.size && t.capacity === t.size && ix.slack === 0)
      return;
    if (
      !exact &&
      this.garbage <= this.size / 16 &&
      this.from.length - this.size <= this.from.length / 8 + 1024
    )
      return;
    if (this.garbage === 0) {
      // every slot is live and every state used (a state is new only with a listing that changed): trim
      this.from = this.from.slice(0, this.size);
      this.state = this.state.slice(0, this.size);
      t.resize(t.size);
      ix.resize(ix.size);
      this.generation++;
      return;
    }
    let live = 0;
    for (let e = 0; e < ix.size; e++) live += ix.count[e];
    const oldFrom = this.from;
    const oldState = this.state;
    const from = new Float64Array(live);
    const state = new Int32Array(live);
    const remap = new Int32Array(t.size).fill(-1);
    const next = new StateTable(0);
    next.resize(t.size);
    const { prices, stockOut, currency, priceType } = t;
    const firsts = ix.first;
    const counts = ix.count;
    let k = 0;
    for (let e = 0; e < ix.size; e++) {
      const f = firsts[e];
      const end = f + counts[e];
      firsts[e] = k;
      for (let j = f; j < end; j++, k++) {
        from[k] = oldFrom[j];
        const s = oldState[j];
        if (s === GAP) {
          state[k] = GAP;
          continue;
        }
        let r = remap[s];
        if (r < 0)
          r = remap[s] = next.append(
            prices[3 * s],
            prices[3 * s + 1],
            prices[3 * s + 2],
            stockOut[s],
            currency[s],
            priceType[s],
          );
        state[k] = r;
      }
    }
    next.resize(next.size);
    next.rehash(tableSize(next.size));
    ix.resize(ix.size);
    this.from = from;
    this.state = state;
    this.size = live;
    this.garbage = 0;
    this.states = next;
    this.generation++;
  }

  /** A listing's slots: [first, count] (count 0 when the listing is not stored). */
  range(id: number): [number, number] {
    const e = this.index.get(id);
    return e < 0 ? [0, 0] : [this.index.first[e], this.index.count[e]];
  }

  /**
   * For each listing of `ids`, its slots in the columns of now [first[j], first[j] + count[j]) and the
   * valid_from of its last interval last[j] (−∞ when none); the listings not held are pushed to `missing`.
   */
  ranges(
    ids: ArrayLike<number>,
    first: Int32Array,
    count: Int32Array,
    last: Float64Array,
    missing: number[],
  ): void {
    const { from, state } = this;
    const ix = this.index;
    for (let j = 0; j < ids.length; j++) {
      const e = ix.get(ids[j]);
      if (e < 0) missing.push(ids[j]);
      const n = e < 0 ? 0 : ix.count[e];
      const k = e < 0 ? 0 : ix.first[e];
      first[j] = k;
      count[j] = n;
      // a gap always follows an interval
      last[j] = n === 0 ? Number.NEGATIVE_INFINITY : from[state[k + n - 1] === GAP ? k + n - 2 : k + n - 1];
    }
  }

  /**
   * State s's effective price of a mode, converted with `rateOf` (NaN: no price, no rate, or —
   * `inStockOnly` — out of stock). Read per slot asked rather than made for every state once per
   * request: on the large market the store holds millions of states, and a table of them all cost
   * ~17 ms a comparator request (issue 30, eighth session) for the ~100 k slots a trend reads.
   */
  static statePrice(
    c: Columns,
    s: number,
    mode: PriceMode,
    rateOf: Float64Array,
    inStockOnly: boolean,
  ): number {
    return inStockOnly && c.stockOut[s] === 1 ? Number.NaN : effectiveAt(c, s, mode) * rateOf[c.currency[s]];
  }

  /**
   * The values (statePrice) of one listing's slots [first, first + count) of columns `c` at instants `ts`
   * into `out` (NaN: no interval covers the instant). With ascending instants each search starts at the
   * previous one's slot.
   */
  static pricesAt(
    c: Columns,
    first: number,
    count: number,
    ts: Float64Array,
    ascending: boolean,
    mode: PriceMode,
    rateOf: Float64Array,
    inStockOnly: boolean,
    out: Float64Array,
  ): void {
    const { from, state } = c;
    const end = first + count;
    let lo = first;
    for (let d = 0; d < ts.length; d++) {
      const k = lastStarted(from, lo, end, ts[d], false);
      const s = k < first ? GAP : state[k];
      out[d] = s === GAP ? Number.NaN : HistoryStore.statePrice(c, s, mode, rateOf, inStockOnly);
      if (ascending && k > lo) lo = k;
    }
  }

  /** Rate per stored currency (NaN when the request has none for it). */
  rates(rates: Map<string, number>): Float64Array {
    return Float64Array.from(this.currencies, (code) => rates.get(code) ?? Number.NaN);
  }

  /**
   * The states at instant `t` of many listings, as the pricing screens take a closed day's (pricing
   * as-of.ts): for listing j, whose slots in `c` are [first[j], first[j] + count[j]) and whose last
   * interval began at last[j], out[j] = the state of its last interval that began before `t`, even when
   * it ended earlier (unpublished: its last known state); −1 when none began before `t`, and when its
   * last interval did (its state then is its current one, the model's: as as-of.ts selectStatesAt,
   * which reads only listings whose current interval began after the day). `removedAt[j]` = the instant that
   * interval ended when it ended before `t` (the listing was unpublished at `t`: its removal found
   * then), NaN otherwise. One tight loop: no object per listing.
   */
  static statesBefore(
    c: Columns,
    first: Int32Array,
    count: Int32Array,
    last: Float64Array,
    t: number,
    out: Int32Array,
    removedAt: Float64Array,
  ): void {
    const { from, state } = c;
    removedAt.fill(Number.NaN);
    for (let j = 0; j < out.length; j++) {
      if (last[j] < t || count[j] === 0) {
        out[j] = -1;
        continue;
      }
      const k = lastStarted(from, first[j], first[j] + count[j], t, true);
      if (k < first[j]) out[j] = -1;
      else if (state[k] === GAP) {
        // a gap began before t: the interval before it (a gap always follows one)
        out[j] = state[k - 1];
        removedAt[j] = from[k];
      } else out[j] = state[k];
    }
  }

  /**
   * Pricing's ClosingStates for the states given per row and offer (indexes into `c`'s states). The
   * arrays are `c`'s own: states are never rewritten (a seal makes new arrays), so they stay true.
   */
  closingStates(
    c: Columns,
    rowState: Int32Array,
    offerState: Int32Array,
    rowRemovedAt: Float64Array,
    offerRemovedAt: Float64Array,
  ): ClosingStates {
    return {
      rowState,
      offerState,
      rowRemovedAt,
      offerRemovedAt,
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
    const c = this.columns();
    const k = lastStarted(c.from, first, first + count, t, false);
    const s = k < first ? GAP : c.state[k];
    if (s === GAP) return undefined;
    const nn = (v: number) => (Number.isNaN(v) ? null : v);
    return {
      effective: Object.fromEntries(PRICE_MODES.map((m) => [m, nn(effectiveAt(c, s, m))])) as Record<
        PriceMode,
        number | null
      >,
      stockOut: c.stockOut[s] === 1,
      currency: this.currencies[c.currency[s]],
    };
  }
}

/**
 * Reads the intervals of `ids` into `store`, in batches, laid out in the order of `ids`; then seals the
 * store (exact-size arrays, nothing a listing does not point at; a `refresh`, only past its bounds).
 */
export async function loadIntervals(
  db: Queryable,
  store: HistoryStore,
  ids: number[],
  { batch = 20_000, stopped = (): boolean => false, refresh = false } = {},
) {
  const order = [...new Set(ids)];
  try {
    for (let i = 0; i < order.length; i += batch) {
      if (stopped()) throw new Error('brand comparator history: stopped');
      const part = order.slice(i, i + batch);
      // (on a client of its own: a batch through pool.query on a connection the pool opened for it would
      // stay reachable as long as that connection lives, db/database.ts queryOwnClient)
      const { rows } = await queryOwnClient<IntervalRow>(db, {
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
  } finally {
    store.seal(!refresh);
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
  // a subset model's history is its whole model's: the loads read every listing of the pivot
  const whole = model.subset?.of ?? model;
  for (;;) {
    if (ph.version === null) {
      startLoad(pool, h, ph, whole);
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
      await loadIntervals(pool, h.store, modelListings(whole, new Set(changed)), { refresh: true });
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
   * Per day, what identifies its values (store, its generation, model version and subset, price mode,
   * rates, the day's end — today's: its date, as its values change only with the rest): equal keys give
   * equal prices. null = not worth keeping (read from the database while the store loads).
   */
  dayKeys: string[] | null;
  /** The same prices at some of the days (indexes into them, ascending). */
  only(days: number[]): TrendPrices;
}

interface Slots {
  generation: number;
  store: HistoryStore;
  /** the store's columns the ranges are in */
  columns: Columns;
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
    columns: store.columns(),
    rowFirst: new Int32Array(model.rows.length),
    rowCount: new Int32Array(model.rows.length),
    offerFirst: new Int32Array(nOffers),
    offerCount: new Int32Array(nOffers),
    rowLast: new Float64Array(model.rows.length),
    offerLast: new Float64Array(nOffers),
    missing: [],
  };
  const rowIds = Float64Array.from(model.rows, (row) => row.productId);
  store.ranges(rowIds, s.rowFirst, s.rowCount, s.rowLast, s.missing);
  store.ranges(c.offerProductId, s.offerFirst, s.offerCount, s.offerLast, s.missing);
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
  const rowRemovedAt = new Float64Array(s.rowFirst.length);
  const offerRemovedAt = new Float64Array(s.offerFirst.length);
  HistoryStore.statesBefore(s.columns, s.rowFirst, s.rowCount, s.rowLast, endTs, rowState, rowRemovedAt);
  HistoryStore.statesBefore(
    s.columns,
    s.offerFirst,
    s.offerCount,
    s.offerLast,
    endTs,
    offerState,
    offerRemovedAt,
  );
  return {
    missing: s.missing,
    states: store.closingStates(s.columns, rowState, offerState, rowRemovedAt, offerRemovedAt),
  };
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
  const cols = s.columns;
  const rateOf = store.rates(rates);
  const base = [
    store.id,
    store.generation,
    model.pivot,
    model.version,
    model.subset?.key ?? '',
    mode,
    [...rateOf].join(','),
  ].join('|');
  const read = (ts: Float64Array, dayKeys: string[]): TrendPrices => {
    const ascending = ts.every((t, d) => d === 0 || t >= ts[d - 1]);
    return {
      days: ts.length,
      dayKeys,
      // the pivot's own listings at any stock; the offers in stock only
      mine: (i, out) =>
        HistoryStore.pricesAt(cols, s.rowFirst[i], s.rowCount[i], ts, ascending, mode, rateOf, false, out),
      theirs: (k, out) =>
        HistoryStore.pricesAt(cols, s.offerFirst[k], s.offerCount[k], ts, ascending, mode, rateOf, true, out),
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
