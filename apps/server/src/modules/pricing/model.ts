import { effectivePriceFor, foldText, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
import { emptySlot, freshValue, type VersionedSlot } from '../../lib/versioned-slot.js';
import { readModelsOf, touches } from '../../platform/read-model.js';
import { ensurePricingPivot } from './maintain.js';
import {
  type OfferRecord,
  type RowRecord,
  selectChangedIds,
  selectModelVersion,
  selectPivotModel,
} from './queries.js';

// In-memory copy of a pivot's pricing read model (pricing_rows + pricing_offers), per API process.
// Requests compute every KPI from it (compute.ts) instead of aggregating tens of thousands of rows in
// SQL each time. It is refreshed before use whenever pricing_pivots.version moved: only the pivot
// listings logged in pricing_changes since the copy's version are reloaded (a full reload when that log
// was pruned). Loads of one pivot are shared by concurrent requests. The copies live in the process's
// read-model holder (platform/read-model.ts): loaded after start-up, refreshed in the background when the
// change signal names a change of listings, matches or products (pricingReadModels).

/** Effective prices per price mode (metrics/pricing.ts effectivePriceFor). */
export type ModePrices = Record<PriceMode, number | null>;

/**
 * A competitor listing matched with a pivot product, as the page rendering reads it (`offerAt`): the
 * model keeps offers only as columns, so that a pivot's hundred thousand offers cost no objects.
 */
export interface Offer {
  productId: number;
  sellerId: number;
  ref: string;
  url: string | null;
  normal: number | null;
  sale: number | null;
  exclusive: number | null;
  priceType: string;
  stockOut: boolean;
  currency: string;
  published: boolean;
  firstSeen: number;
  lastSeen: number;
}

export interface Row {
  productId: number;
  groupId: number | null;
  ref: string;
  sku: string | null;
  ean: string | null;
  name: string;
  /** lower case, accents removed: name ordering */
  sortName: string;
  /** normalised name, brand, sku, seller id and EAN: metaSearch */
  search: string;
  brandId: number | null;
  brandName: string | null;
  classificationId: number | null;
  classPath: number[];
  categoryPath: number[];
  url: string | null;
  imageUrl: string | null;
  normal: number | null;
  sale: number | null;
  exclusive: number | null;
  eff: ModePrices;
  priceType: string;
  stockOut: boolean;
  currency: string;
  published: boolean;
  firstSeen: number;
  lastSeen: number;
}

/**
 * Columnar copy of the rows and offers, for the per-request scoring loop (compute.ts): typed arrays
 * indexed by row position / offer position; offers of row i are offerStart[i] … offerStart[i+1] − 1.
 * Missing prices are NaN; sellers and currencies are small indexes into sellerIds / currencies (which
 * only grow, so that an incremental reload can copy the offers of unchanged rows as they are).
 */
export interface Columns {
  sellerIds: number[];
  sellerIndex: Map<number, number>;
  currencies: string[];
  rowPrice: Record<PriceMode, Float64Array>;
  rowCurrency: Uint8Array;
  rowStockOut: Uint8Array;
  /** the row's price type as an index into ROW_PRICE_TYPES (the tallies' loops read no Row object) */
  rowPriceType: Uint8Array;
  /** the row's classification leaf (last id of classPath), 0 without classification */
  rowClassLeaf: Int32Array;
  /** the row's brand id, 0 without brand (DPM by brand's and the comparator's tally) */
  rowBrand: Int32Array;
  rowPublished: Uint8Array;
  rowFirstSeen: Float64Array;
  rowLastSeen: Float64Array;
  offerStart: Int32Array;
  offerSeller: Int32Array;
  offerPrice: Record<PriceMode, Float64Array>;
  offerCurrency: Uint8Array;
  offerStockOut: Uint8Array;
  offerPublished: Uint8Array;
  offerFirstSeen: Float64Array;
  offerLastSeen: Float64Array;
  offerProductId: Float64Array;
  offerNormal: Float64Array;
  offerSale: Float64Array;
  offerExclusive: Float64Array;
  offerRef: string[];
  offerUrl: (string | null)[];
  offerPriceType: string[];
}

/**
 * Price types the tallies tell apart (PricingTally.add counts NORMAL, SALE and EXCLUSIVE); every other
 * type (BYQUANTITY, …) is 'OTHER'.
 */
export const ROW_PRICE_TYPES = ['NORMAL', 'SALE', 'EXCLUSIVE', 'OTHER'] as const;

export function priceTypeCode(priceType: string): number {
  const k = (ROW_PRICE_TYPES as readonly string[]).indexOf(priceType);
  return k < 0 ? 3 : k;
}

export interface PivotModel {
  pivot: number;
  version: number;
  /**
   * The products. In a closed day's overlay (as-of.ts) these are the latest model's objects: their
   * prices, price type, stock and currency are the latest ones, and the day's are in the columns and in
   * `stateRow` — read a row's state with rowAt.
   */
  rows: Row[];
  cols: Columns;
  /** A closed day's overlay: row i with its state at the end of that day (made on each call). */
  stateRow?: (i: number) => Row;
}

/** Row i of a model with its state in that model (a closed day's overlay: its state at that day). */
export function rowAt(model: PivotModel, i: number): Row {
  return model.stateRow ? model.stateRow(i) : model.rows[i];
}

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];

const modePrices = (p: {
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
}) => {
  const prices = { normal: p.normal_price, sale: p.sale_price, exclusive: p.exclusive_price };
  return {
    NORMAL_SALE_EXCLUSIVE_PRICE: effectivePriceFor(prices, 'NORMAL_SALE_EXCLUSIVE_PRICE'),
    NORMAL_SALE_PRICE: effectivePriceFor(prices, 'NORMAL_SALE_PRICE'),
    NORMAL_PRICE: effectivePriceFor(prices, 'NORMAL_PRICE'),
  };
};

const nan = (v: number | null) => (v === null ? Number.NaN : v);
const nul = (v: number) => (Number.isNaN(v) ? null : v);

function toRow(r: RowRecord): Row {
  return {
    productId: r.product_id,
    groupId: r.group_id,
    ref: r.listing_ref,
    sku: r.sku,
    ean: r.ean,
    name: r.name,
    sortName: foldText(r.name),
    search: foldText([r.name, r.brand_name, r.sku, r.listing_ref, r.ean].filter(Boolean).join(' ')),
    brandId: r.brand_id,
    brandName: r.brand_name,
    classificationId: r.classification_id,
    classPath: r.class_path,
    categoryPath: r.category_path,
    url: r.url,
    imageUrl: r.image_url,
    normal: r.normal_price,
    sale: r.sale_price,
    exclusive: r.exclusive_price,
    eff: modePrices(r),
    priceType: r.price_type,
    stockOut: r.stock_out,
    currency: r.currency,
    published: r.published,
    firstSeen: r.first_seen,
    lastSeen: r.last_seen,
  };
}

/** A row of the new model: fresh from the database with its offers, or kept from the previous model. */
type Entry = { row: Row; offers: OfferRecord[] } | { row: Row; pos: number };

/** Builds the columns of a model's rows (copying kept rows' offers from `prev`). */
export function buildColumns(entries: Entry[], prev?: Columns): Columns {
  const n = entries.length;
  let m = 0;
  for (const e of entries) {
    m +=
      'offers' in e
        ? e.offers.length
        : (prev as Columns).offerStart[e.pos + 1] - (prev as Columns).offerStart[e.pos];
  }
  const sellerIds = prev ? [...prev.sellerIds] : [];
  const sellerIndex = new Map(sellerIds.map((id, i) => [id, i]));
  const currencies = prev ? [...prev.currencies] : [];
  const currencyIndex = new Map(currencies.map((c, i) => [c, i]));
  const cur = (c: string) => {
    let i = currencyIndex.get(c);
    if (i === undefined) {
      i = currencies.length;
      currencies.push(c);
      currencyIndex.set(c, i);
    }
    return i;
  };
  const seller = (id: number) => {
    let i = sellerIndex.get(id);
    if (i === undefined) {
      i = sellerIds.length;
      sellerIds.push(id);
      sellerIndex.set(id, i);
    }
    return i;
  };
  const price = (len: number) =>
    Object.fromEntries(MODES.map((mode) => [mode, new Float64Array(len)])) as Record<PriceMode, Float64Array>;
  const c: Columns = {
    sellerIds,
    sellerIndex,
    currencies,
    rowPrice: price(n),
    rowCurrency: new Uint8Array(n),
    rowStockOut: new Uint8Array(n),
    rowPriceType: new Uint8Array(n),
    rowClassLeaf: new Int32Array(n),
    rowBrand: new Int32Array(n),
    rowPublished: new Uint8Array(n),
    rowFirstSeen: new Float64Array(n),
    rowLastSeen: new Float64Array(n),
    offerStart: new Int32Array(n + 1),
    offerSeller: new Int32Array(m),
    offerPrice: price(m),
    offerCurrency: new Uint8Array(m),
    offerStockOut: new Uint8Array(m),
    offerPublished: new Uint8Array(m),
    offerFirstSeen: new Float64Array(m),
    offerLastSeen: new Float64Array(m),
    offerProductId: new Float64Array(m),
    offerNormal: new Float64Array(m),
    offerSale: new Float64Array(m),
    offerExclusive: new Float64Array(m),
    offerRef: new Array<string>(m),
    offerUrl: new Array<string | null>(m),
    offerPriceType: new Array<string>(m),
  };
  const [rNse, rNs, rN] = MODES.map((mode) => c.rowPrice[mode]);
  const [oNse, oNs, oN] = MODES.map((mode) => c.offerPrice[mode]);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const r = e.row;
    rNse[i] = nan(r.eff.NORMAL_SALE_EXCLUSIVE_PRICE);
    rNs[i] = nan(r.eff.NORMAL_SALE_PRICE);
    rN[i] = nan(r.eff.NORMAL_PRICE);
    c.rowCurrency[i] = cur(r.currency);
    c.rowStockOut[i] = r.stockOut ? 1 : 0;
    c.rowPriceType[i] = priceTypeCode(r.priceType);
    c.rowClassLeaf[i] = r.classPath.length ? r.classPath[r.classPath.length - 1] : 0;
    c.rowBrand[i] = r.brandId ?? 0;
    c.rowPublished[i] = r.published ? 1 : 0;
    c.rowFirstSeen[i] = r.firstSeen;
    c.rowLastSeen[i] = r.lastSeen;
    c.offerStart[i] = k;
    if ('offers' in e) {
      for (const o of e.offers) {
        const eff = modePrices(o);
        c.offerSeller[k] = seller(o.seller_id);
        oNse[k] = nan(eff.NORMAL_SALE_EXCLUSIVE_PRICE);
        oNs[k] = nan(eff.NORMAL_SALE_PRICE);
        oN[k] = nan(eff.NORMAL_PRICE);
        c.offerCurrency[k] = cur(o.currency);
        c.offerStockOut[k] = o.stock_out ? 1 : 0;
        c.offerPublished[k] = o.published ? 1 : 0;
        c.offerFirstSeen[k] = o.first_seen;
        c.offerLastSeen[k] = o.last_seen;
        c.offerProductId[k] = o.product_id;
        c.offerNormal[k] = nan(o.normal_price);
        c.offerSale[k] = nan(o.sale_price);
        c.offerExclusive[k] = nan(o.exclusive_price);
        c.offerRef[k] = o.listing_ref;
        c.offerUrl[k] = o.url;
        c.offerPriceType[k] = o.price_type;
        k++;
      }
    } else {
      const p = prev as Columns;
      for (let j = p.offerStart[e.pos], end = p.offerStart[e.pos + 1]; j < end; j++) {
        c.offerSeller[k] = p.offerSeller[j];
        oNse[k] = p.offerPrice.NORMAL_SALE_EXCLUSIVE_PRICE[j];
        oNs[k] = p.offerPrice.NORMAL_SALE_PRICE[j];
        oN[k] = p.offerPrice.NORMAL_PRICE[j];
        c.offerCurrency[k] = p.offerCurrency[j];
        c.offerStockOut[k] = p.offerStockOut[j];
        c.offerPublished[k] = p.offerPublished[j];
        c.offerFirstSeen[k] = p.offerFirstSeen[j];
        c.offerLastSeen[k] = p.offerLastSeen[j];
        c.offerProductId[k] = p.offerProductId[j];
        c.offerNormal[k] = p.offerNormal[j];
        c.offerSale[k] = p.offerSale[j];
        c.offerExclusive[k] = p.offerExclusive[j];
        c.offerRef[k] = p.offerRef[j];
        c.offerUrl[k] = p.offerUrl[j];
        c.offerPriceType[k] = p.offerPriceType[j];
        k++;
      }
    }
  }
  c.offerStart[n] = k;
  if (currencies.length > 255) throw new Error('demasiadas divisas en el modelo de precios');
  return c;
}

/** The offer at column position k, as an object (page rendering). */
export function offerAt(c: Columns, k: number): Offer {
  return {
    productId: c.offerProductId[k],
    sellerId: c.sellerIds[c.offerSeller[k]],
    ref: c.offerRef[k],
    url: c.offerUrl[k],
    normal: nul(c.offerNormal[k]),
    sale: nul(c.offerSale[k]),
    exclusive: nul(c.offerExclusive[k]),
    priceType: c.offerPriceType[k],
    stockOut: c.offerStockOut[k] === 1,
    currency: c.currencies[c.offerCurrency[k]],
    published: c.offerPublished[k] === 1,
    firstSeen: c.offerFirstSeen[k],
    lastSeen: c.offerLastSeen[k],
  };
}

function freshEntries(rows: RowRecord[], offers: OfferRecord[]): Entry[] {
  const byRow = new Map<number, OfferRecord[]>();
  for (const o of offers) {
    const list = byRow.get(o.pivot_product_id);
    if (list) list.push(o);
    else byRow.set(o.pivot_product_id, [o]);
  }
  return rows.map((r) => ({ row: toRow(r), offers: byRow.get(r.product_id) ?? [] }));
}

const slotsOf = (pool: pg.Pool) =>
  readModelsOf(pool).state('pricing-models', () => new Map<number, VersionedSlot<PivotModel>>());

async function load(
  pool: pg.Pool,
  pivot: number,
  current: PivotModel | null,
  version: number,
): Promise<PivotModel> {
  const changed = current ? await selectChangedIds(pool, pivot, current.version, version) : null;
  const byId = (a: Entry, b: Entry) => a.row.productId - b.row.productId;
  if (!current || !changed) {
    const { rows, offers } = await selectPivotModel(pool, pivot);
    const entries = freshEntries(rows, offers).sort(byId);
    return { pivot, version, rows: entries.map((e) => e.row), cols: buildColumns(entries) };
  }
  const { rows, offers } = await selectPivotModel(pool, pivot, changed);
  const gone = new Set(changed);
  const kept: Entry[] = [];
  current.rows.forEach((row, pos) => {
    if (!gone.has(row.productId)) kept.push({ row, pos });
  });
  const entries = [...kept, ...freshEntries(rows, offers)].sort(byId);
  return { pivot, version, rows: entries.map((e) => e.row), cols: buildColumns(entries, current.cols) };
}

/**
 * The pivot's model at `version` (the caller read it with the request's lookups) or newer.
 * Builds the read model on first use. A request's first load of a pivot (not `background`: the warm-ups
 * and refreshes are) goes ahead of the warm-ups, which pause until it is done (ReadModels.forRequest).
 */
export async function getPivotModel(
  pool: pg.Pool,
  pivot: number,
  version?: number | null,
  background = false,
): Promise<PivotModel> {
  let v = version ?? null;
  if (v === null) {
    await ensurePricingPivot(pool, pivot);
    v = (await selectModelVersion(pool, pivot)) ?? 0;
  }
  const slots = slotsOf(pool);
  let slot = slots.get(pivot);
  if (!slot) {
    slot = emptySlot();
    slots.set(pivot, slot);
  }
  const target = v;
  const holder = readModelsOf(pool);
  return freshValue(
    slot,
    (m) => m.version >= target,
    (previous) =>
      previous || background
        ? load(pool, pivot, previous, target)
        : holder.forRequest(() => load(pool, pivot, previous, target)),
  );
}

/** Every pivot some license names (the models loaded after start-up). */
export async function licensedPivots(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ seller_id: number }>(
    'select distinct seller_id from license_pivots order by seller_id',
  );
  return rows.map((r) => r.seller_id);
}

/** The pivots whose models this process holds. */
export const heldPivots = (pool: pg.Pool): number[] => [...slotsOf(pool).keys()];

/**
 * The pricing models in the read-model holder: every licensed pivot's model is loaded after start-up,
 * and the models held are brought to their new versions when the change signal names a change (the
 * next request then finds them current).
 */
export function pricingReadModels(pool: pg.Pool): void {
  const holder = readModelsOf(pool);
  holder.warmUp(
    'pricing-models',
    async () => {
      for (const pivot of await licensedPivots(pool)) {
        // a pivot a request asked for meanwhile is loaded first (getPivotModel); then the next one
        await holder.pause();
        await getPivotModel(pool, pivot, null, true);
      }
    },
    { inTests: true },
  );
  holder.subscribe('pricing-models', async (changes) => {
    if (!touches(changes, ['listings', 'matches', 'products'])) return;
    for (const pivot of heldPivots(pool)) await getPivotModel(pool, pivot, null, true);
  });
}
