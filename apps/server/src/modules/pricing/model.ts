import { effectivePriceFor, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
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
// was pruned). Loads of one pivot are shared by concurrent requests.

/** Effective prices per price mode (metrics/pricing.ts effectivePriceFor). */
export type ModePrices = Record<PriceMode, number | null>;

export interface Offer {
  productId: number;
  sellerId: number;
  ref: string;
  url: string | null;
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
  offers: Offer[];
}

/**
 * Columnar copy of the rows and offers, for the per-request scoring loop (compute.ts): typed arrays
 * indexed by row position / offer position; offers of row i are offerStart[i] … offerStart[i+1] − 1,
 * in the order of rows[i].offers. Missing prices are NaN; sellers and currencies are small indexes.
 */
export interface Columns {
  sellerIds: number[];
  sellerIndex: Map<number, number>;
  currencies: string[];
  rowPrice: Record<PriceMode, Float64Array>;
  rowCurrency: Uint8Array;
  rowStockOut: Uint8Array;
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
}

export interface PivotModel {
  pivot: number;
  version: number;
  rows: Row[];
  cols: Columns;
}

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];

/** Builds the columnar copy of a model's rows. */
export function buildColumns(rows: Row[]): Columns {
  const n = rows.length;
  let m = 0;
  for (const r of rows) m += r.offers.length;
  const sellerIds: number[] = [];
  const sellerIndex = new Map<number, number>();
  const currencies: string[] = [];
  const currencyIndex = new Map<string, number>();
  const cur = (c: string) => {
    let i = currencyIndex.get(c);
    if (i === undefined) {
      i = currencies.length;
      currencies.push(c);
      currencyIndex.set(c, i);
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
  };
  const [rNse, rNs, rN] = MODES.map((mode) => c.rowPrice[mode]);
  const [oNse, oNs, oN] = MODES.map((mode) => c.offerPrice[mode]);
  const nan = (v: number | null) => (v === null ? Number.NaN : v);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    rNse[i] = nan(r.eff.NORMAL_SALE_EXCLUSIVE_PRICE);
    rNs[i] = nan(r.eff.NORMAL_SALE_PRICE);
    rN[i] = nan(r.eff.NORMAL_PRICE);
    c.rowCurrency[i] = cur(r.currency);
    c.rowStockOut[i] = r.stockOut ? 1 : 0;
    c.rowPublished[i] = r.published ? 1 : 0;
    c.rowFirstSeen[i] = r.firstSeen;
    c.rowLastSeen[i] = r.lastSeen;
    c.offerStart[i] = k;
    for (const o of r.offers) {
      let si = sellerIndex.get(o.sellerId);
      if (si === undefined) {
        si = sellerIds.length;
        sellerIds.push(o.sellerId);
        sellerIndex.set(o.sellerId, si);
      }
      c.offerSeller[k] = si;
      oNse[k] = nan(o.eff.NORMAL_SALE_EXCLUSIVE_PRICE);
      oNs[k] = nan(o.eff.NORMAL_SALE_PRICE);
      oN[k] = nan(o.eff.NORMAL_PRICE);
      c.offerCurrency[k] = cur(o.currency);
      c.offerStockOut[k] = o.stockOut ? 1 : 0;
      c.offerPublished[k] = o.published ? 1 : 0;
      c.offerFirstSeen[k] = o.firstSeen;
      c.offerLastSeen[k] = o.lastSeen;
      k++;
    }
  }
  c.offerStart[n] = k;
  if (currencies.length > 255) throw new Error('demasiadas divisas en el modelo de precios');
  return c;
}

/** Lower case without accents (the normalisation of names and of metaSearch words). */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

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

function toOffer(o: OfferRecord): Offer {
  return {
    productId: o.product_id,
    sellerId: o.seller_id,
    ref: o.listing_ref,
    url: o.url,
    normal: o.normal_price,
    sale: o.sale_price,
    exclusive: o.exclusive_price,
    eff: modePrices(o),
    priceType: o.price_type,
    stockOut: o.stock_out,
    currency: o.currency,
    published: o.published,
    firstSeen: o.first_seen,
    lastSeen: o.last_seen,
  };
}

function toRow(r: RowRecord, offers: Offer[]): Row {
  return {
    productId: r.product_id,
    groupId: r.group_id,
    ref: r.listing_ref,
    sku: r.sku,
    ean: r.ean,
    name: r.name,
    sortName: normalizeText(r.name),
    search: normalizeText([r.name, r.brand_name, r.sku, r.listing_ref, r.ean].filter(Boolean).join(' ')),
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
    offers,
  };
}

function assemble(rows: RowRecord[], offers: OfferRecord[]): Row[] {
  const byRow = new Map<number, Offer[]>();
  for (const o of offers) {
    const list = byRow.get(o.pivot_product_id);
    if (list) list.push(toOffer(o));
    else byRow.set(o.pivot_product_id, [toOffer(o)]);
  }
  return rows.map((r) => toRow(r, byRow.get(r.product_id) ?? []));
}

interface Slot {
  model: PivotModel | null;
  loading: Promise<PivotModel> | null;
}

const store = new WeakMap<pg.Pool, Map<number, Slot>>();

async function load(
  pool: pg.Pool,
  pivot: number,
  current: PivotModel | null,
  version: number,
): Promise<PivotModel> {
  const changed = current ? await selectChangedIds(pool, pivot, current.version, version) : null;
  if (!current || !changed) {
    const { rows, offers } = await selectPivotModel(pool, pivot);
    const all = assemble(rows, offers).sort((a, b) => a.productId - b.productId);
    return { pivot, version, rows: all, cols: buildColumns(all) };
  }
  const { rows, offers } = await selectPivotModel(pool, pivot, changed);
  const fresh = new Map(assemble(rows, offers).map((r) => [r.productId, r]));
  const gone = new Set(changed);
  const kept = current.rows.filter((r) => !gone.has(r.productId));
  const all = [...kept, ...fresh.values()].sort((a, b) => a.productId - b.productId);
  return { pivot, version, rows: all, cols: buildColumns(all) };
}

/**
 * The pivot's model at `version` (the caller read it with the request's lookups) or newer.
 * Builds the read model on first use.
 */
export async function getPivotModel(
  pool: pg.Pool,
  pivot: number,
  version?: number | null,
): Promise<PivotModel> {
  let v = version ?? null;
  if (v === null) {
    await ensurePricingPivot(pool, pivot);
    v = (await selectModelVersion(pool, pivot)) ?? 0;
  }
  let slots = store.get(pool);
  if (!slots) {
    slots = new Map();
    store.set(pool, slots);
  }
  let slot = slots.get(pivot);
  if (!slot) {
    slot = { model: null, loading: null };
    slots.set(pivot, slot);
  }
  const s = slot;
  const target = v;
  while (!s.model || s.model.version < target) {
    if (!s.loading) {
      s.loading = load(pool, pivot, s.model, target).then(
        (m) => {
          s.model = m;
          s.loading = null;
          return m;
        },
        (err) => {
          s.loading = null;
          throw err;
        },
      );
    }
    await s.loading;
  }
  return s.model;
}
