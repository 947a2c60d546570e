import { effectivePriceFor, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
import { readModelsOf } from '../../platform/read-model.js';
import { type Columns, type PivotModel, priceTypeCode, type Row } from './model.js';

// A period in the pricing screens means the prices of that period (issue 31 item 1): when `to_date`
// (Hasta) is a closed day, every pivot listing and matched competitor listing of the model takes its
// state at the end of that day — the last price interval that began before the day's end (its last
// known state when it was unpublished earlier) — instead of its latest one. Which listings count is
// still the window's choice (seen in [Desde, Hasta]); only prices, price types, stock and currencies are
// replaced. A closed day's state never changes (ingestion refuses older observations), so the overlay
// is kept per (pivot, model version, day) for a few days at once.

interface StateRecord {
  product_id: string;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  price_type: string;
  stock_out: boolean;
  currency: string;
}

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];
const nan = (v: number | null) => (v === null ? Number.NaN : v);

/** The state of each listing at `endTs` (epoch ms): its last interval that began before it. */
export async function selectStatesAt(
  db: pg.Pool,
  ids: number[],
  endTs: number,
): Promise<Map<number, StateRecord>> {
  const { rows } = await db.query<StateRecord>(
    `select u.id::text as product_id, x.normal_price::float8 as normal_price, x.sale_price::float8 as sale_price,
            x.exclusive_price::float8 as exclusive_price, x.price_type, x.stock_out, x.currency
       from unnest($1::bigint[]) u(id)
       cross join lateral (
         select normal_price, sale_price, exclusive_price, price_type, stock_out, currency
           from price_intervals
          where product_id = u.id and valid_from < to_timestamp($2::float8 / 1000)
          order by valid_from desc limit 1) x`,
    [ids, endTs],
  );
  return new Map(rows.map((r) => [Number(r.product_id), r]));
}

/** A copy of `model` whose prices, price types, stock and currencies are the states of `states`. */
export function overlayStates(model: PivotModel, states: Map<number, StateRecord>): PivotModel {
  const c = model.cols;
  const currencies = [...c.currencies];
  const cur = (code: string) => {
    let i = currencies.indexOf(code);
    if (i < 0) i = currencies.push(code) - 1;
    return i;
  };
  const prices = (s: StateRecord) => ({
    normal: s.normal_price,
    sale: s.sale_price,
    exclusive: s.exclusive_price,
  });
  const rows: Row[] = model.rows.map((r) => {
    const s = states.get(r.productId);
    if (!s) return r;
    const p = prices(s);
    return {
      ...r,
      normal: s.normal_price,
      sale: s.sale_price,
      exclusive: s.exclusive_price,
      eff: {
        NORMAL_SALE_EXCLUSIVE_PRICE: effectivePriceFor(p, 'NORMAL_SALE_EXCLUSIVE_PRICE'),
        NORMAL_SALE_PRICE: effectivePriceFor(p, 'NORMAL_SALE_PRICE'),
        NORMAL_PRICE: effectivePriceFor(p, 'NORMAL_PRICE'),
      },
      priceType: s.price_type,
      stockOut: s.stock_out,
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
    cols.offerStockOut[k] = s.stock_out ? 1 : 0;
    cols.offerNormal[k] = nan(s.normal_price);
    cols.offerSale[k] = nan(s.sale_price);
    cols.offerExclusive[k] = nan(s.exclusive_price);
    cols.offerPriceType[k] = s.price_type;
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
  const ids = [...new Set([...model.rows.map((r) => r.productId), ...model.cols.offerProductId])];
  const made = selectStatesAt(pool, ids, endTs).then((states) => overlayStates(model, states));
  made.catch(() => kept.delete(key));
  kept.set(key, made);
  return made;
}
