import { effectivePriceFor, type PriceMode } from '@vigia/domain';
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

/** Listing id → its state at the day's end (null or undefined: keep the model's). */
export interface ClosingStates {
  get(id: number): ClosingState | null | undefined;
}

/**
 * An in-memory source of closing states for a model (null while it cannot answer for that model): per
 * listing, its state at `endTs` — undefined when the source does not hold the listing, null when the
 * listing had no interval before `endTs`.
 */
export type ClosingStateSource = (
  model: PivotModel,
) => Promise<{ stateBefore(id: number, endTs: number): ClosingState | null | undefined } | null>;

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
  const ids = [...new Set([...model.rows.map((r) => r.productId), ...model.cols.offerProductId])];
  const source = sourceOf(pool).source;
  const mem = source ? await source(model) : null;
  if (!mem) return selectStatesAt(pool, ids, endTs);
  const missing = ids.filter((id) => mem.stateBefore(id, endTs) === undefined);
  const fromDb = missing.length ? await selectStatesAt(pool, missing, endTs) : null;
  return {
    get: (id) => {
      const s = mem.stateBefore(id, endTs);
      return s === undefined ? fromDb?.get(id) : s;
    },
  };
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
  const prices = (s: ClosingState) => ({ normal: s.normal, sale: s.sale, exclusive: s.exclusive });
  const rows: Row[] = model.rows.map((r) => {
    const s = states.get(r.productId);
    if (!s) return r;
    const p = prices(s);
    return {
      ...r,
      normal: s.normal,
      sale: s.sale,
      exclusive: s.exclusive,
      eff: {
        NORMAL_SALE_EXCLUSIVE_PRICE: effectivePriceFor(p, 'NORMAL_SALE_EXCLUSIVE_PRICE'),
        NORMAL_SALE_PRICE: effectivePriceFor(p, 'NORMAL_SALE_PRICE'),
        NORMAL_PRICE: effectivePriceFor(p, 'NORMAL_PRICE'),
      },
      priceType: s.priceType,
      stockOut: s.stockOut,
      currency: s.currency,
    };
  });
  const cols: Columns = {
    ...c,
    currencies,
    rowPrice: Object.fromEntries(
      MODES.map((m) => [m, Float64Array.from(c.rowPrice[m])]),
    ) as Columns['rowPrice'],
    rowCurrency: Uint8Array.from(c.rowCurrency),
    rowStockOut: Uint8Array.from(c.rowStockOut),
    rowPriceType: Uint8Array.from(c.rowPriceType),
    offerPrice: Object.fromEntries(
      MODES.map((m) => [m, Float64Array.from(c.offerPrice[m])]),
    ) as Columns['offerPrice'],
    offerCurrency: Uint8Array.from(c.offerCurrency),
    offerStockOut: Uint8Array.from(c.offerStockOut),
    offerNormal: Float64Array.from(c.offerNormal),
    offerSale: Float64Array.from(c.offerSale),
    offerExclusive: Float64Array.from(c.offerExclusive),
    offerPriceType: [...c.offerPriceType],
  };
  rows.forEach((r, i) => {
    if (r === model.rows[i]) return;
    for (const m of MODES) cols.rowPrice[m][i] = nan(r.eff[m]);
    cols.rowCurrency[i] = cur(r.currency);
    cols.rowStockOut[i] = r.stockOut ? 1 : 0;
    cols.rowPriceType[i] = priceTypeCode(r.priceType);
  });
  for (let k = 0; k < c.offerProductId.length; k++) {
    const s = states.get(c.offerProductId[k]);
    if (!s) continue;
    const p = prices(s);
    for (const m of MODES) cols.offerPrice[m][k] = nan(effectivePriceFor(p, m));
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
