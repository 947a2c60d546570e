import type { PriceMode } from '@vigia/domain';
import type pg from 'pg';
import type { Queryable } from '../../db/database.js';
import { coder } from '../../lib/coder.js';
import { ownArrayBytes, readModelsOf } from '../../platform/read-model.js';
import { type Columns, effectiveListed, type PivotModel, priceTypeCode, type Row } from './model.js';

// A period in the pricing screens means the prices of that period (issue 31 item 1): when `to_date`
// (Hasta) is a closed day, every pivot listing and matched competitor listing of the model takes its
// state at the end of that day — the last price interval that began before the day's end (its last
// known state when it was unpublished earlier) — instead of its latest one. Which listings count is
// still the window's choice (seen in [Desde, Hasta]); prices, price types, stock and currencies are
// replaced, and one thing more: a listing that was unpublished at the day's end but is published again
// now (its interval then ended before the day's end, the next one began after it) is not "seen up to
// its seller's last crawl" — its products.last_seen is its last sighting before its latest removal,
// and the overlay makes it an unpublished listing last seen then (an earlier removal: that sighting is
// not kept, the listing does not count). Without it, a listing republished after a gap counted on the
// gap's days with its last price before it (the dashboard's closed-day index, which takes the
// intervals covering the day's end, then differed from DPM on that day). A closed day's state never changes (ingestion refuses older observations), so the overlay
// is kept per (pivot, model version, day) for a few days at once, and requests for the same day while
// it is being built wait for that build.
//
// Where the states come from (issue 30): the brand comparator's in-memory price history of the pivot's
// model listings (brand-comparator/history.ts, registered with provideClosingStates) once it is loaded
// — a binary search per listing, no database work; else, and for a listing it does not hold, the
// database, reading only the listings whose current interval began after the day's end (the others'
// state then is their current one, the model's). Before, every listing of the model (~250,000 on the
// medium market) was one probe of price_intervals per closed day asked, and 16 different days at once
// held the pool for seconds.

/** A listing's state at an instant, as a closed day's overlay takes it. */
export interface ClosingState {
  normal: number | null;
  sale: number | null;
  exclusive: number | null;
  priceType: string;
  stockOut: boolean;
  currency: string;
  /** when that interval ended before the instant (the listing was unpublished then): its end, epoch ms */
  removedAt: number | null;
}

/**
 * The states at a day's end of a model's listings, as columns: `rowState[i]` (row i's listing) and
 * `offerState[k]` (offer k's) index the state arrays, −1 when the model's state stays (the listing had
 * no interval before the day's end, or its current one began before it). Prices as listed, NaN = none;
 * currency and price type as indexes into `currencies` and `priceTypes`. The in-memory history hands its
 * own table of distinct states (many listings and intervals share one), so a day's states copy nothing.
 */
export interface ClosingStates {
  rowState: Int32Array;
  offerState: Int32Array;
  /**
   * per row and offer: the instant its removal was found (epoch ms) when the listing was unpublished at
   * the day's end — its interval then ended before it — NaN otherwise
   */
  rowRemovedAt: Float64Array;
  offerRemovedAt: Float64Array;
  /** state j's listed prices: normal, sale and exclusive at 3j, 3j + 1, 3j + 2 (NaN = none) */
  prices: Float64Array;
  stockOut: Uint8Array;
  currency: Uint8Array;
  currencies: readonly string[];
  priceType: Uint8Array;
  priceTypes: readonly string[];
}

/** ClosingStates from a map listing id → state (selectStatesAt's answer). */
export function statesFromMap(model: PivotModel, states: Map<number, ClosingState>): ClosingStates {
  const list = [...states.values()];
  const index = new Map([...states.keys()].map((id, j) => [id, j]));
  const codes = (values: string[]) => {
    const distinct = [...new Set(values)];
    return { table: distinct, codes: Uint8Array.from(values, (v) => distinct.indexOf(v)) };
  };
  const cur = codes(list.map((s) => s.currency));
  const types = codes(list.map((s) => s.priceType));
  const removedAt = (id: number) => states.get(id)?.removedAt ?? Number.NaN;
  return {
    rowState: Int32Array.from(model.rows, (r) => index.get(r.productId) ?? -1),
    offerState: Int32Array.from(model.cols.offerProductId, (id) => index.get(id) ?? -1),
    rowRemovedAt: Float64Array.from(model.rows, (r) => removedAt(r.productId)),
    offerRemovedAt: Float64Array.from(model.cols.offerProductId, removedAt),
    prices: Float64Array.from(
      list.flatMap((s) => [s.normal, s.sale, s.exclusive]),
      nan,
    ),
    stockOut: Uint8Array.from(list, (s) => (s.stockOut ? 1 : 0)),
    currency: cur.codes,
    currencies: cur.table,
    priceType: types.codes,
    priceTypes: types.table,
  };
}

/**
 * An in-memory source of closing states for a model (null while it cannot answer for that model):
 * `missing`, the model's listings it does not hold (read from the database), and `at(endTs)`, the
 * states at instant `endTs` (epoch ms) of those it holds.
 */
export type ClosingStateSource = (
  model: PivotModel,
) => Promise<{ missing: number[]; at(endTs: number): ClosingStates } | null>;

const sourceOf = (pool: pg.Pool) =>
  readModelsOf(pool).state<{ source: ClosingStateSource | null }>('pricing-closing-states', () => ({
    source: null,
  }));

/** Registers the process's in-memory source of closing states (the brand comparator's history). */
export function provideClosingStates(pool: pg.Pool, source: ClosingStateSource): void {
  sourceOf(pool).source = source;
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_F64 = new Float64Array(0);
const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];
const nan = (v: number | null) => (v === null ? Number.NaN : v);
const nul = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The state at `endTs` (epoch ms) of each listing of `ids` whose current interval (listing_current.since)
 * began at or after `endTs`: its last interval that began before `endTs`, and its end when that was
 * before `endTs` (unpublished then). A listing absent from the answer keeps its current state (or had
 * none then).
 */
export async function selectStatesAt(
  db: Queryable,
  ids: number[],
  endTs: number,
): Promise<Map<number, ClosingState>> {
  const { rows } = await db.query<ClosingState & { id: string }>(
    `select lc.product_id::text as id, x.normal_price::float8 as normal, x.sale_price::float8 as sale,
            x.exclusive_price::float8 as exclusive, x.price_type as "priceType", x.stock_out as "stockOut",
            x.currency,
            case when x.valid_to < to_timestamp($2::float8 / 1000)
                 then (extract(epoch from x.valid_to) * 1000)::float8 end as "removedAt"
       from listing_current lc
       cross join lateral (
         select normal_price, sale_price, exclusive_price, price_type, stock_out, currency, valid_to
           from price_intervals
          where product_id = lc.product_id and valid_from < to_timestamp($2::float8 / 1000)
          order by valid_from desc limit 1) x
      where lc.product_id = any($1::bigint[]) and lc.since >= to_timestamp($2::float8 / 1000)`,
    [ids, endTs],
  );
  return new Map(rows.map(({ id, ...state }) => [Number(id), state]));
}

/** The states at `endTs` of the model's listings: from the in-memory source when it can answer. */
async function closingStates(pool: pg.Pool, model: PivotModel, endTs: number): Promise<ClosingStates[]> {
  const source = sourceOf(pool).source;
  const mem = source ? await source(model) : null;
  if (!mem) {
    const ids = [...new Set([...model.rows.map((r) => r.productId), ...model.cols.offerProductId])];
    return [statesFromMap(model, await selectStatesAt(pool, ids, endTs))];
  }
  const fromDb = mem.missing.length
    ? statesFromMap(model, await selectStatesAt(pool, mem.missing, endTs))
    : null;
  const held = mem.at(endTs);
  return fromDb ? [held, fromDb] : [held];
}

/** Row `r` with another state (every field named: a literal of one shape, not a spread). */
function rowWithState(
  r: Row,
  normal: number | null,
  sale: number | null,
  exclusive: number | null,
  priceType: string,
  stockOut: boolean,
  currency: string,
): Row {
  return {
    productId: r.productId,
    groupId: r.groupId,
    ref: r.ref,
    sku: r.sku,
    ean: r.ean,
    name: r.name,
    brandId: r.brandId,
    brandName: r.brandName,
    classificationId: r.classificationId,
    classPath: r.classPath,
    categoryPath: r.categoryPath,
    normal,
    sale,
    exclusive,
    priceType,
    stockOut,
    currency,
    published: r.published,
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
  };
}

/** A value computed on first use; `made()` says whether it was. */
function lazily<T>(make: () => T): (() => T) & { made: () => T | undefined } {
  let made: { v: T } | null = null;
  const get = () => {
    made ??= { v: make() };
    return made.v;
  };
  return Object.assign(get, { made: () => made?.v });
}

/**
 * A model's window columns (published, last seen) for the listings unpublished at the day's end —
 * `removedAt` (one array per states, each for its own listings) NaN elsewhere: unpublished then, last seen
 * at their products.last_seen when that is before the removal (their last sighting before it), else never
 * (an earlier removal: that sighting is not kept). null when there is none (the model's columns stay).
 */
function unpublishedThen(
  removedAt: Float64Array[],
  published: Uint8Array,
  lastSeen: Float64Array,
): { published: Uint8Array; lastSeen: Float64Array } | null {
  let out: { published: Uint8Array; lastSeen: Float64Array } | null = null;
  for (const at of removedAt)
    for (let i = 0; i < at.length; i++) {
      if (Number.isNaN(at[i])) continue;
      out ??= { published: published.slice(), lastSeen: lastSeen.slice() };
      out.published[i] = 0;
      out.lastSeen[i] = lastSeen[i] < at[i] ? lastSeen[i] : Number.NEGATIVE_INFINITY;
    }
  return out;
}

/**
 * A copy of `model` whose prices, price types, stock and currencies are the states of `states` (several:
 * each for its own listings, e.g. the history's and the database's for the listings it does not hold).
 * The rows stay the model's objects (no object per row: a day 40 days back changes ~17,000 rows of the
 * medium market's largest pivot); a row's state is in the columns, and in the object `stateRow(i)` makes
 * (model.ts rowAt: a page of items, a price type filter). Of the offers' columns, the scoring's currency
 * and stock are copied at once; each price mode's effective prices and the listed prices and price types
 * (read only to show a page of items) when first read: a request scores one price mode, and the trend and
 * tallies never read the listed prices.
 */
export function overlayStates(model: PivotModel, states: ClosingStates | ClosingStates[]): PivotModel {
  const given = Array.isArray(states) ? states : [states];
  // what the overlay's lazy columns and rows read later: not the per-listing row states and removal
  // instants (12 bytes a listing, ~7 MB a day on the large market), used only here
  const list = given.map(
    (st): ClosingStates => ({
      ...st,
      rowState: EMPTY_I32,
      rowRemovedAt: EMPTY_F64,
      offerRemovedAt: EMPTY_F64,
    }),
  );
  const c = model.cols;
  const currencies = [...c.currencies];
  const cur = coder(currencies);
  const priceTypes = [...c.priceTypes];
  // each states' price type indexes → the overlay's priceTypes
  const offerTypeOf = list.map((st) => Uint8Array.from(st.priceTypes, coder(priceTypes)));
  const rowPrice = Object.fromEntries(MODES.map((m) => [m, c.rowPrice[m].slice()])) as Columns['rowPrice'];
  const rowCurrency = c.rowCurrency.slice();
  const rowStockOut = c.rowStockOut.slice();
  const rowPriceType = c.rowPriceType.slice();
  const rNse = rowPrice.NORMAL_SALE_EXCLUSIVE_PRICE;
  const rNs = rowPrice.NORMAL_SALE_PRICE;
  const rN = rowPrice.NORMAL_PRICE;
  const offerCurrency = c.offerCurrency.slice();
  const offerStockOut = c.offerStockOut.slice();
  // rows with a state at the day: which states (index into `list`) and which of them
  const rowFrom = new Int8Array(model.rows.length).fill(-1);
  const rowSlot = new Int32Array(model.rows.length);
  const listed = (st: ClosingStates, j: number) => ({
    normal: nul(st.prices[3 * j]),
    sale: nul(st.prices[3 * j + 1]),
    exclusive: nul(st.prices[3 * j + 2]),
    priceType: st.priceTypes[st.priceType[j]],
    stockOut: st.stockOut[j] === 1,
    currency: st.currencies[st.currency[j]],
  });
  given.forEach((st, from) => {
    const { prices, stockOut, currency, priceType, rowState, offerState } = st;
    // the states' currency and price type indexes → the overlay's
    const curOf = Uint8Array.from(st.currencies, cur);
    const typeOf = Uint8Array.from(st.priceTypes, priceTypeCode);
    for (let i = 0; i < rowState.length; i++) {
      const j = rowState[i];
      if (j < 0) continue;
      rowFrom[i] = from;
      rowSlot[i] = j;
      const n = prices[3 * j];
      const sl = prices[3 * j + 1];
      const ex = prices[3 * j + 2];
      rN[i] = effectiveListed(n, sl, ex, false, false);
      rNs[i] = effectiveListed(n, sl, ex, true, false);
      rNse[i] = effectiveListed(n, sl, ex, true, true);
      rowCurrency[i] = curOf[currency[j]];
      rowStockOut[i] = stockOut[j];
      rowPriceType[i] = typeOf[priceType[j]];
    }
    for (let k = 0; k < offerState.length; k++) {
      const j = offerState[k];
      if (j < 0) continue;
      offerCurrency[k] = curOf[currency[j]];
      offerStockOut[k] = stockOut[j];
    }
  });
  const rowsThen = unpublishedThen(
    given.map((st) => st.rowRemovedAt),
    c.rowPublished,
    c.rowLastSeen,
  );
  const offersThen = unpublishedThen(
    given.map((st) => st.offerRemovedAt),
    c.offerPublished,
    c.offerLastSeen,
  );
  const seen = {
    ...(rowsThen && { rowPublished: rowsThen.published, rowLastSeen: rowsThen.lastSeen }),
    ...(offersThen && { offerPublished: offersThen.published, offerLastSeen: offersThen.lastSeen }),
  };
  if (currencies.length > 255 || priceTypes.length > 255)
    throw new Error('demasiadas divisas o tipos de precio en el modelo de precios');
  /** One mode's effective offer prices: the model's, with each state's where it has one. */
  const modePrices = (mode: PriceMode) =>
    lazily(() => {
      const out = c.offerPrice[mode].slice();
      const withSale = mode !== 'NORMAL_PRICE';
      const withExclusive = mode === 'NORMAL_SALE_EXCLUSIVE_PRICE';
      for (const { offerState, prices } of list)
        for (let k = 0; k < offerState.length; k++) {
          const j = offerState[k];
          if (j < 0) continue;
          out[k] = effectiveListed(
            prices[3 * j],
            prices[3 * j + 1],
            prices[3 * j + 2],
            withSale,
            withExclusive,
          );
        }
      return out;
    });
  const offerListed = lazily(() => {
    const out = {
      normal: c.offerNormal.slice(),
      sale: c.offerSale.slice(),
      exclusive: c.offerExclusive.slice(),
      priceType: c.offerPriceType.slice(),
    };
    list.forEach((st, from) => {
      const typeOf = offerTypeOf[from];
      for (let k = 0; k < st.offerState.length; k++) {
        const j = st.offerState[k];
        if (j < 0) continue;
        out.normal[k] = st.prices[3 * j];
        out.sale[k] = st.prices[3 * j + 1];
        out.exclusive[k] = st.prices[3 * j + 2];
        out.priceType[k] = typeOf[st.priceType[j]];
      }
    });
    return out;
  });
  const offerPrice = {} as Columns['offerPrice'];
  const modeGets = MODES.map(modePrices);
  MODES.forEach((m, i) => {
    Object.defineProperty(offerPrice, m, { get: modeGets[i], enumerable: true });
  });
  const cols = {
    ...c,
    currencies,
    priceTypes,
    rowPrice,
    rowCurrency,
    rowStockOut,
    rowPriceType,
    offerPrice,
    offerCurrency,
    offerStockOut,
    ...seen,
  } as Columns;
  Object.defineProperties(cols, {
    offerNormal: { get: () => offerListed().normal, enumerable: true },
    offerSale: { get: () => offerListed().sale, enumerable: true },
    offerExclusive: { get: () => offerListed().exclusive, enumerable: true },
    offerPriceType: { get: () => offerListed().priceType, enumerable: true },
  });
  const stateRow = (i: number): Row => {
    const r = model.rows[i];
    if (rowFrom[i] < 0) return r;
    const s = listed(list[rowFrom[i]], rowSlot[i]);
    return rowWithState(r, s.normal, s.sale, s.exclusive, s.priceType, s.stockOut, s.currency);
  };
  const fixed =
    ownArrayBytes(rowPrice) +
    ownArrayBytes({
      rowCurrency,
      rowStockOut,
      rowPriceType,
      offerCurrency,
      offerStockOut,
      rowFrom,
      rowSlot,
    }) +
    ownArrayBytes(seen) +
    list.reduce((n, st) => n + st.offerState.byteLength, 0);
  const ownBytes = () => {
    let n = fixed;
    for (const get of modeGets) n += get.made()?.byteLength ?? 0;
    const l = offerListed.made();
    return l ? n + ownArrayBytes(l) : n;
  };
  return { ...model, cols, stateRow, ownBytes };
}

/**
 * Overlays kept at once per process. Each holds copies of the columns it replaces and its states' slot
 * indexes: on medium, pivot 116 (26,933 rows, 132,875 offers), ~1.7 MB, and ~1.1 MB more per price mode
 * read (~3 MB for a comparator request's overlay).
 */
const KEPT = 8;
/** …and at most this many bytes of their own (large market: ~10–25 MB an overlay). */
const KEPT_BYTES = 96 * 1024 * 1024;

/** Overlays made (a kept promise's model, for its size in the memo's room). */
const madeOf = new WeakMap<Promise<PivotModel>, PivotModel>();

/** The model with every listing's state at the end of `day` (its end instant `endTs`, epoch ms). */
export function modelAsOf(pool: pg.Pool, model: PivotModel, day: string, endTs: number): Promise<PivotModel> {
  // kept in the read-model holder (platform/read-model.ts), keyed by the model's own version; at most
  // KEPT, and KEPT_BYTES of their own copies (counted when made)
  const kept = readModelsOf(pool).memo<Promise<PivotModel>>('pricing-as-of', KEPT, false, {
    maxBytes: KEPT_BYTES,
    bytes: (p) => madeOf.get(p)?.ownBytes?.() ?? 0,
  });
  const key = `${model.pivot}:${model.version}:${model.subset?.key ?? ''}:${day}`;
  const hit = kept.get(key);
  if (hit) return hit;
  const made = closingStates(pool, model, endTs).then((states) => overlayStates(model, states));
  made.then(
    (m) => {
      madeOf.set(made, m);
      // its size now known: set again (only if still the kept one)
      if (kept.get(key) === made) kept.set(key, made);
    },
    () => kept.delete(key),
  );
  kept.set(key, made);
  return made;
}
