import type { PriceMode } from '@vigia/domain';
import type pg from 'pg';
import type { Queryable } from '../../db/database.js';
import { readModelsOf } from '../../platform/read-model.js';
import { type Columns, type PivotModel, priceTypeCode, type Row } from './model.js';

// A period in the pricing screens means the prices of that period (issue 31 item 1): when `to_date`
// (Hasta) is a closed day, every pivot listing and matched competitor listing of the model takes its
// state at the end of that day — the last price interval that began before the day's end (its last
// known state when it was unpublished earlier) — instead of its latest one. Which listings count is
// still the window's choice (seen in [Desde, Hasta]); only prices, price types, stock and currencies are
// replaced. A closed day's state never changes (ingestion refuses older observations), so the overlay
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
}

/**
 * The states at a day's end of a model's listings: `row(i, out)` for row i's listing, `offer(k, out)`
 * for offer k's, each writing the state into `out` and returning true, or false when the model's state
 * stays (the listing had no interval before the day's end, or its current one began before it).
 */
export interface ClosingStates {
  row(i: number, out: ClosingState): boolean;
  offer(k: number, out: ClosingState): boolean;
}

/** ClosingStates from a map listing id → state (selectStatesAt's answer). */
export function statesFromMap(model: PivotModel, states: Map<number, ClosingState>): ClosingStates {
  const put = (s: ClosingState | undefined, out: ClosingState) => {
    if (!s) return false;
    Object.assign(out, s);
    return true;
  };
  return {
    row: (i, out) => put(states.get(model.rows[i].productId), out),
    offer: (k, out) => put(states.get(model.cols.offerProductId[k]), out),
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

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];
const nan = (v: number | null) => (v === null ? Number.NaN : v);
const nul = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The state at `endTs` (epoch ms) of each listing of `ids` whose current interval (listing_current.since)
 * began at or after `endTs`: its last interval that began before `endTs`. A listing absent from the
 * answer keeps its current state (or had none then).
 */
export async function selectStatesAt(
  db: Queryable,
  ids: number[],
  endTs: number,
): Promise<Map<number, ClosingState>> {
  const { rows } = await db.query<ClosingState & { id: string }>(
    `select lc.product_id::text as id, x.normal_price::float8 as normal, x.sale_price::float8 as sale,
            x.exclusive_price::float8 as exclusive, x.price_type as "priceType", x.stock_out as "stockOut",
            x.currency
       from listing_current lc
       cross join lateral (
         select normal_price, sale_price, exclusive_price, price_type, stock_out, currency
           from price_intervals
          where product_id = lc.product_id and valid_from < to_timestamp($2::float8 / 1000)
          order by valid_from desc limit 1) x
      where lc.product_id = any($1::bigint[]) and lc.since >= to_timestamp($2::float8 / 1000)`,
    [ids, endTs],
  );
  return new Map(rows.map(({ id, ...state }) => [Number(id), state]));
}

/** The states at `endTs` of the model's listings: from the in-memory source when it can answer. */
async function closingStates(pool: pg.Pool, model: PivotModel, endTs: number): Promise<ClosingStates> {
  const source = sourceOf(pool).source;
  const mem = source ? await source(model) : null;
  if (!mem) {
    const ids = [...new Set([...model.rows.map((r) => r.productId), ...model.cols.offerProductId])];
    return statesFromMap(model, await selectStatesAt(pool, ids, endTs));
  }
  const fromDb = mem.missing.length
    ? statesFromMap(model, await selectStatesAt(pool, mem.missing, endTs))
    : null;
  const held = mem.at(endTs);
  if (!fromDb) return held;
  return {
    row: (i, out) => held.row(i, out) || fromDb.row(i, out),
    offer: (k, out) => held.offer(k, out) || fromDb.offer(k, out),
  };
}

/** effectivePriceFor of listed prices (null = none), without its arrays: NaN when none. */
function effective(mode: PriceMode, normal: number | null, sale: number | null, exclusive: number | null) {
  let r = normal !== null && normal > 0 ? normal : Number.NaN;
  if (mode === 'NORMAL_PRICE') return r;
  if (sale !== null && sale > 0 && !(sale >= r)) r = sale;
  if (mode === 'NORMAL_SALE_PRICE') return r;
  if (exclusive !== null && exclusive > 0 && !(exclusive >= r)) r = exclusive;
  return r;
}

/** A copy of `model` whose prices, price types, stock and currencies are the states of `states`. */
export function overlayStates(model: PivotModel, states: ClosingStates): PivotModel {
  const c = model.cols;
  const currencies = [...c.currencies];
  const cur = (code: string) => {
    let i = currencies.indexOf(code);
    if (i < 0) i = currencies.push(code) - 1;
    return i;
  };
  const cols: Columns = {
    ...c,
    currencies,
    rowPrice: Object.fromEntries(MODES.map((m) => [m, c.rowPrice[m].slice()])) as Columns['rowPrice'],
    rowCurrency: c.rowCurrency.slice(),
    rowStockOut: c.rowStockOut.slice(),
    rowPriceType: c.rowPriceType.slice(),
    offerPrice: Object.fromEntries(MODES.map((m) => [m, c.offerPrice[m].slice()])) as Columns['offerPrice'],
    offerCurrency: c.offerCurrency.slice(),
    offerStockOut: c.offerStockOut.slice(),
    offerNormal: c.offerNormal.slice(),
    offerSale: c.offerSale.slice(),
    offerExclusive: c.offerExclusive.slice(),
    offerPriceType: c.offerPriceType.slice(),
  };
  const s: ClosingState = {
    normal: null,
    sale: null,
    exclusive: null,
    priceType: '',
    stockOut: false,
    currency: '',
  };
  const rows: Row[] = model.rows.slice();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!states.row(i, s)) continue;
    if (
      r.normal === s.normal &&
      r.sale === s.sale &&
      r.exclusive === s.exclusive &&
      r.priceType === s.priceType &&
      r.stockOut === s.stockOut &&
      r.currency === s.currency
    )
      continue; // the same state: the model's row
    const eff = {
      NORMAL_SALE_EXCLUSIVE_PRICE: effective('NORMAL_SALE_EXCLUSIVE_PRICE', s.normal, s.sale, s.exclusive),
      NORMAL_SALE_PRICE: effective('NORMAL_SALE_PRICE', s.normal, s.sale, s.exclusive),
      NORMAL_PRICE: effective('NORMAL_PRICE', s.normal, s.sale, s.exclusive),
    };
    for (const m of MODES) cols.rowPrice[m][i] = eff[m];
    rows[i] = {
      ...r,
      normal: s.normal,
      sale: s.sale,
      exclusive: s.exclusive,
      eff: {
        NORMAL_SALE_EXCLUSIVE_PRICE: nul(eff.NORMAL_SALE_EXCLUSIVE_PRICE),
        NORMAL_SALE_PRICE: nul(eff.NORMAL_SALE_PRICE),
        NORMAL_PRICE: nul(eff.NORMAL_PRICE),
      },
      priceType: s.priceType,
      stockOut: s.stockOut,
      currency: s.currency,
    };
    cols.rowCurrency[i] = cur(s.currency);
    cols.rowStockOut[i] = s.stockOut ? 1 : 0;
    cols.rowPriceType[i] = priceTypeCode(s.priceType);
  }
  for (let k = 0; k < c.offerProductId.length; k++) {
    if (!states.offer(k, s)) continue;
    for (const m of MODES) cols.offerPrice[m][k] = effective(m, s.normal, s.sale, s.exclusive);
    cols.offerCurrency[k] = cur(s.currency);
    cols.offerStockOut[k] = s.stockOut ? 1 : 0;
    cols.offerNormal[k] = nan(s.normal);
    cols.offerSale[k] = nan(s.sale);
    cols.offerExclusive[k] = nan(s.exclusive);
    cols.offerPriceType[k] = s.priceType;
  }
  if (currencies.length > 255) throw new Error('demasiadas divisas en el modelo de precios');
  return { ...model, rows, cols };
}

/** Overlays kept at once per process (each a copy of a pivot model's columns). */
const KEPT = 4;

/** The model with every listing's state at the end of `day` (its end instant `endTs`, epoch ms). */
export function modelAsOf(pool: pg.Pool, model: PivotModel, day: string, endTs: number): Promise<PivotModel> {
  // kept in the read-model holder (platform/read-model.ts), keyed by the model's own version
  const kept = readModelsOf(pool).memo<Promise<PivotModel>>('pricing-as-of', KEPT, false);
  const key = `${model.pivot}:${model.version}:${day}`;
  const hit = kept.get(key);
  if (hit) return hit;
  const made = closingStates(pool, model, endTs).then((states) => overlayStates(model, states));
  made.catch(() => kept.delete(key));
  kept.set(key, made);
  return made;
}
