import { effectivePriceFor, foldText, type PriceMode } from '@vigia/domain';
import type pg from 'pg';
import { coder } from '../../lib/coder.js';
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
import { FLAG, OFFER_ARRAYS, readSavedModel, type SavedModel, saveModel } from './snapshot.js';

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
 * model keeps offers only as columns, so that a pivot's hundred thousand offers cost no objects. Its
 * reference and URL are not held: a page reads them (queries.ts selectListingTexts).
 */
export interface Offer {
  productId: number;
  sellerId: number;
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

/**
 * A pivot listing. What only a page shows (URL, image) is not held (queries.ts selectListingTexts); the
 * effective prices per mode are in the columns (`rowPrice`); the name order is `nameRank` and the
 * folded text metaSearch reads is `searchTexts`, both made on first use. Repeated
 * values are one shared string or array per model: brand name, price type, currency, and the
 * classification and category paths (the same frozen array for every row of a leaf — never mutate).
 */
export interface Row {
  productId: number;
  groupId: number | null;
  ref: string;
  sku: string | null;
  ean: string | null;
  name: string;
  brandId: number | null;
  brandName: string | null;
  classificationId: number | null;
  classPath: number[];
  categoryPath: number[];
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
  /**
   * Per price mode, the offers' effective prices: each made from the listed prices (offerNormal, …) when
   * first read (`lazyModePrices`) — a request scores one mode, most often the default.
   */
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
  /** the offer's listed price type, an index into priceTypes (which only grows, as currencies) */
  offerPriceType: Uint8Array;
  priceTypes: string[];
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
  /** The model's shared strings and paths (an incremental reload's new rows share them too). */
  shared: Shared;
  /**
   * A model of some of another's rows (`subsetModel`): `key` names which (memo keys add it to the
   * version, which it shares with `of`); `of` is the whole model it was cut from (the comparator's
   * history loads and refreshes the whole model's listings).
   */
  subset?: { key: string; of: PivotModel };
  /** A closed day's overlay: row i with its state at the end of that day (made on each call). */
  stateRow?: (i: number) => Row;
  /**
   * A closed day's overlay: the bytes of the arrays it holds of its own (its copies of the columns it
   * replaces, those made so far), for the memos' room in bytes (platform/read-model.ts MemoBudget).
   */
  ownBytes?: () => number;
}

/** Row i of a model with its state in that model (a closed day's overlay: its state at that day). */
export function rowAt(model: PivotModel, i: number): Row {
  return model.stateRow ? model.stateRow(i) : model.rows[i];
}

const MODES: PriceMode[] = ['NORMAL_SALE_EXCLUSIVE_PRICE', 'NORMAL_SALE_PRICE', 'NORMAL_PRICE'];

const modePrices = (normal: number | null, sale: number | null, exclusive: number | null): ModePrices => {
  const prices = { normal, sale, exclusive };
  return {
    NORMAL_SALE_EXCLUSIVE_PRICE: effectivePriceFor(prices, 'NORMAL_SALE_EXCLUSIVE_PRICE'),
    NORMAL_SALE_PRICE: effectivePriceFor(prices, 'NORMAL_SALE_PRICE'),
    NORMAL_PRICE: effectivePriceFor(prices, 'NORMAL_PRICE'),
  };
};

const nan = (v: number | null) => (v === null ? Number.NaN : v);
const nul = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * effectivePriceFor's rule on listed prices as column values (NaN = none): the lowest positive finite of
 * normal, sale (modes with sale) and exclusive (NORMAL_SALE_EXCLUSIVE_PRICE); NaN when none.
 */
export function effectiveListed(
  n: number,
  sl: number,
  ex: number,
  withSale: boolean,
  withExclusive: boolean,
) {
  let e = n > 0 && n < Number.POSITIVE_INFINITY ? n : Number.NaN;
  if (withSale && sl > 0 && sl < Number.POSITIVE_INFINITY && !(sl >= e)) e = sl;
  if (withExclusive && ex > 0 && ex < Number.POSITIVE_INFINITY && !(ex >= e)) e = ex;
  return e;
}

/**
 * Effective prices per mode of listed prices as columns, each mode's array made on its first read and
 * kept (a getter replaced by the array).
 */
export function lazyModePrices(
  normal: Float64Array,
  sale: Float64Array,
  exclusive: Float64Array,
): Record<PriceMode, Float64Array> {
  const out = {} as Record<PriceMode, Float64Array>;
  for (const mode of MODES) {
    Object.defineProperty(out, mode, {
      configurable: true,
      enumerable: true,
      get() {
        const withSale = mode !== 'NORMAL_PRICE';
        const withExclusive = mode === 'NORMAL_SALE_EXCLUSIVE_PRICE';
        const prices = new Float64Array(normal.length);
        for (let k = 0; k < prices.length; k++)
          prices[k] = effectiveListed(normal[k], sale[k], exclusive[k], withSale, withExclusive);
        Object.defineProperty(out, mode, { value: prices, enumerable: true });
        return prices;
      },
    });
  }
  return out;
}

/**
 * One copy of each repeated value of a model: the database hands a new string per field and a new
 * array per path, while a pivot has a few brands, price types and currencies, and a path per leaf.
 */
export interface Shared {
  strings: Map<string, string>;
  paths: Map<string, number[]>;
}

export const newShared = (): Shared => ({ strings: new Map(), paths: new Map() });

function sharedString(sh: Shared, v: string): string;
function sharedString(sh: Shared, v: string | null): string | null;
function sharedString(sh: Shared, v: string | null): string | null {
  if (v === null) return null;
  const kept = sh.strings.get(v);
  if (kept !== undefined) return kept;
  sh.strings.set(v, v);
  return v;
}

/** A path from PostgreSQL's array text ('{1,2,3}', '{}'), one frozen array per distinct path. */
export function sharedPath(sh: Shared, text: string): number[] {
  let path = sh.paths.get(text);
  if (!path) {
    const inner = text.slice(1, -1);
    path = Object.freeze(inner ? inner.split(',').map(Number) : []) as number[];
    sh.paths.set(text, path);
  }
  return path;
}

function toRow(r: RowRecord, sh: Shared): Row {
  const [productId, groupId, ref, sku, ean, name, brandId, brandName, classificationId] = r;
  return {
    productId,
    groupId,
    ref,
    sku,
    ean,
    name,
    brandId,
    brandName: sharedString(sh, brandName),
    classificationId,
    classPath: sharedPath(sh, r[9]),
    categoryPath: sharedPath(sh, r[10]),
    normal: r[11],
    sale: r[12],
    exclusive: r[13],
    priceType: sharedString(sh, r[14]),
    stockOut: r[15],
    currency: sharedString(sh, r[16]),
    published: r[17],
    firstSeen: r[18],
    lastSeen: r[19],
  };
}

/**
 * Each row's text for metaSearch: name, brand, SKU, the seller's id and EAN, lower case and accents
 * removed. Made on the first search and kept per row array (a closed day's overlay shares it).
 */
const searchTextsOf = new WeakMap<Row[], string[]>();
export function searchTexts(model: PivotModel): string[] {
  const rows = model.rows;
  let texts = searchTextsOf.get(rows);
  if (!texts) {
    texts = rows.map((r) => foldText([r.name, r.brandName, r.sku, r.ref, r.ean].filter(Boolean).join(' ')));
    searchTextsOf.set(rows, texts);
  }
  return texts;
}

/**
 * The rank of each row's name in the name order (lower case, accents removed; equal names, equal rank):
 * made on the first request sorted by name and kept per row array (a closed day's overlay shares it).
 */
const nameRanks = new WeakMap<Row[], Int32Array>();
export function nameRank(model: PivotModel): Int32Array {
  const rows = model.rows;
  let rank = nameRanks.get(rows);
  if (!rank) {
    const keys = rows.map((r) => foldText(r.name));
    const order = Array.from(keys, (_k, i) => i).sort((a, b) =>
      keys[a] === keys[b] ? 0 : keys[a] < keys[b] ? -1 : 1,
    );
    rank = new Int32Array(rows.length);
    let r = 0;
    order.forEach((i, k) => {
      if (k > 0 && keys[i] !== keys[order[k - 1]]) r++;
      (rank as Int32Array)[i] = r;
    });
    nameRanks.set(rows, rank);
  }
  return rank;
}

/** A row of the new model: fresh from the database with its offers, or kept from the previous model. */
type Entry = { row: Row; offers: OfferRecord[] } | { row: Row; pos: number };

/**
 * Builds the columns of a model's rows (copying kept rows' offers from `prev`). Consecutive kept rows'
 * offers are copied a run at a time (one `set` per column): a saved model as read (savedToModel: every row
 * `prev`'s in its place) is one run — on the large market the copy offer by offer was ~0.2–0.35 s of a cold
 * start's first DPM answer (434,852 offers for the largest pivot) —, a refresh a run between each two
 * changed rows. Not `prev`'s arrays themselves: a saved model's are views of the whole value read, which
 * would keep the rows' columns and texts alive with them.
 */
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
  const cur = coder(currencies);
  const priceTypes = prev ? [...prev.priceTypes] : [];
  const type = coder(priceTypes);
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
    offerPrice: {} as Columns['offerPrice'], // below, once the listed prices are in
    offerCurrency: new Uint8Array(m),
    offerStockOut: new Uint8Array(m),
    offerPublished: new Uint8Array(m),
    offerFirstSeen: new Float64Array(m),
    offerLastSeen: new Float64Array(m),
    offerProductId: new Float64Array(m),
    offerNormal: new Float64Array(m),
    offerSale: new Float64Array(m),
    offerExclusive: new Float64Array(m),
    offerPriceType: new Uint8Array(m),
    priceTypes,
  };
  const [rNse, rNs, rN] = MODES.map((mode) => c.rowPrice[mode]);
  let k = 0;
  // kept rows' offers are copied a run at a time: the offers [from, to) of `prev` that consecutive kept
  // rows hold, placed at `at` — one `set` per column and run instead of a loop offer by offer (a refresh
  // keeps most rows, in runs between the changed ones)
  let run: { from: number; to: number; at: number } | null = null;
  const flush = () => {
    if (!run) return;
    const p = prev as Columns;
    const { from, to, at } = run;
    for (const name of OFFER_ARRAYS) if (name !== 'offerStart') c[name].set(p[name].subarray(from, to), at);
    run = null;
  };
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const r = e.row;
    const reff = modePrices(r.normal, r.sale, r.exclusive);
    rNse[i] = nan(reff.NORMAL_SALE_EXCLUSIVE_PRICE);
    rNs[i] = nan(reff.NORMAL_SALE_PRICE);
    rN[i] = nan(reff.NORMAL_PRICE);
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
      flush();
      for (const o of e.offers) {
        const [, productId, sellerId, normal, sale, exclusive, priceType] = o;
        c.offerSeller[k] = seller(sellerId);
        c.offerCurrency[k] = cur(o[8]);
        c.offerStockOut[k] = o[7] ? 1 : 0;
        c.offerPublished[k] = o[9] ? 1 : 0;
        c.offerFirstSeen[k] = o[10];
        c.offerLastSeen[k] = o[11];
        c.offerProductId[k] = productId;
        c.offerNormal[k] = nan(normal);
        c.offerSale[k] = nan(sale);
        c.offerExclusive[k] = nan(exclusive);
        c.offerPriceType[k] = type(priceType);
        k++;
      }
    } else {
      // the kept offers keep their codes: sellers, currencies and price types start as `prev`'s tables
      const p = prev as Columns;
      const from = p.offerStart[e.pos];
      const to = p.offerStart[e.pos + 1];
      if (run && run.to === from) run.to = to;
      else {
        flush();
        run = { from, to, at: k };
      }
      k += to - from;
    }
  }
  flush();
  c.offerStart[n] = k;
  c.offerPrice = lazyModePrices(c.offerNormal, c.offerSale, c.offerExclusive);
  if (currencies.length > 255) throw new Error('demasiadas divisas en el modelo de precios');
  if (priceTypes.length > 255) throw new Error('demasiados tipos de precio en el modelo de precios');
  return c;
}

/** The offer at column position k, as an object (page rendering). */
export function offerAt(c: Columns, k: number): Offer {
  return {
    productId: c.offerProductId[k],
    sellerId: c.sellerIds[c.offerSeller[k]],
    normal: nul(c.offerNormal[k]),
    sale: nul(c.offerSale[k]),
    exclusive: nul(c.offerExclusive[k]),
    priceType: c.priceTypes[c.offerPriceType[k]],
    stockOut: c.offerStockOut[k] === 1,
    currency: c.currencies[c.offerCurrency[k]],
    published: c.offerPublished[k] === 1,
    firstSeen: c.offerFirstSeen[k],
    lastSeen: c.offerLastSeen[k],
  };
}

function freshEntries(rows: RowRecord[], offers: OfferRecord[], sh: Shared): Entry[] {
  const byRow = new Map<number, OfferRecord[]>();
  for (const o of offers) {
    const list = byRow.get(o[0]);
    if (list) list.push(o);
    else byRow.set(o[0], [o]);
  }
  return rows.map((r) => ({ row: toRow(r, sh), offers: byRow.get(r[0]) ?? [] }));
}

const slotsOf = (pool: pg.Pool) =>
  readModelsOf(pool).state('pricing-models', () => new Map<number, VersionedSlot<PivotModel>>());

/** A saved model (snapshot.ts) as the model it was: its rows, their columns, the offers' columns. */
export function savedToModel(saved: SavedModel): PivotModel {
  // with no step the making never yields: its first `next` is its end
  return makeSaved(saved, Number.POSITIVE_INFINITY).next().value as PivotModel;
}

/** Rows made from a saved model between two gives-way (savedToModelInSteps). */
const ROWS_A_STEP = 16_384;

/**
 * savedToModel with `between()` awaited after every ROWS_A_STEP rows made: a warm-up's making gives way
 * to a request's own load (ReadModels.giveWay). On the large market a pivot's making was ~1 s at once,
 * and a cold start's first DPM request waited behind the next pivot's (CPU profile).
 */
export async function savedToModelInSteps(
  saved: SavedModel,
  between: () => Promise<void>,
  step = ROWS_A_STEP,
): Promise<PivotModel> {
  const steps = makeSaved(saved, step);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await between();
  }
}

/** savedToModel's making, yielding after every `step` rows. */
function* makeSaved(saved: SavedModel, step: number): Generator<void, PivotModel> {
  const shared = newShared();
  const r = saved.rows;
  const t = r.tables;
  const brandNames = t.brandNames.map((v) => sharedString(shared, v));
  const classPaths = t.classPaths.map((v) => sharedPath(shared, v));
  const categoryPaths = t.categoryPaths.map((v) => sharedPath(shared, v));
  const priceTypes = t.priceTypes.map((v) => sharedString(shared, v));
  const currencies = t.currencies.map((v) => sharedString(shared, v));
  const { texts, textEnd, flags } = r;
  const rows: Row[] = new Array(r.n);
  let at = 0;
  for (let i = 0; i < r.n; i++) {
    const e = 4 * i;
    const f = flags[i];
    const brand = r.brandName[i];
    rows[i] = {
      productId: r.productId[i],
      groupId: nul(r.groupId[i]),
      ref: texts.slice(at, textEnd[e]),
      sku: f & FLAG.noSku ? null : texts.slice(textEnd[e], textEnd[e + 1]),
      ean: f & FLAG.noEan ? null : texts.slice(textEnd[e + 1], textEnd[e + 2]),
      name: texts.slice(textEnd[e + 2], textEnd[e + 3]),
      brandId: nul(r.brandId[i]),
      brandName: brand < 0 ? null : brandNames[brand],
      classificationId: nul(r.classificationId[i]),
      classPath: classPaths[r.classPath[i]],
      categoryPath: categoryPaths[r.categoryPath[i]],
      normal: nul(r.normal[i]),
      sale: nul(r.sale[i]),
      exclusive: nul(r.exclusive[i]),
      priceType: priceTypes[r.priceType[i]],
      stockOut: (f & FLAG.stockOut) !== 0,
      currency: currencies[r.currency[i]],
      published: (f & FLAG.published) !== 0,
      firstSeen: r.firstSeen[i],
      lastSeen: r.lastSeen[i],
    };
    at = textEnd[e + 3];
    if ((i + 1) % step === 0) yield;
  }
  // the saved offers' columns are the previous model's: each row keeps its offers (buildColumns)
  const prev = saved.offers as Columns;
  const entries: Entry[] = rows.map((row, pos) => ({ row, pos }));
  return { pivot: saved.pivot, version: saved.version, rows, cols: buildColumns(entries, prev), shared };
}

/**
 * Pivot listings re-read since each pivot's model was last saved, per pool: past a tenth of its rows the
 * model is saved again, so that a start does not re-read a whole day's changes.
 */
const unsavedOf = (pool: pg.Pool) =>
  readModelsOf(pool).state('pricing-unsaved', () => new Map<number, number>());

/** Saves the model behind the request (snapshot.ts): once the event loop is free, never failing it. */
function saveBehind(pool: pg.Pool, m: PivotModel) {
  unsavedOf(pool).set(m.pivot, 0);
  setImmediate(() => void saveModel(pool, m));
}

async function load(
  pool: pg.Pool,
  pivot: number,
  current: PivotModel | null,
  version: number,
  background: boolean,
): Promise<PivotModel> {
  // a process's first load of the pivot starts from its saved model when there is one (a cold start reads
  // one value instead of every row and offer), then reads what changed since, as any refresh; a warm-up's
  // making gives way to a request's own load between its steps
  let base = current;
  if (!base) {
    const saved = await readSavedModel(pool, pivot);
    if (saved)
      base = background
        ? await savedToModelInSteps(saved, () => readModelsOf(pool).giveWay())
        : savedToModel(saved);
    if (base && base.version >= version) return base;
  }
  const changed = base ? await selectChangedIds(pool, pivot, base.version, version) : null;
  const byId = (a: Entry, b: Entry) => a.row.productId - b.row.productId;
  if (!base || !changed) {
    const { rows, offers } = await selectPivotModel(pool, pivot);
    const shared = newShared();
    const entries = freshEntries(rows, offers, shared).sort(byId);
    const m = { pivot, version, rows: entries.map((e) => e.row), cols: buildColumns(entries), shared };
    saveBehind(pool, m);
    return m;
  }
  const { rows, offers } = await selectPivotModel(pool, pivot, changed);
  const gone = new Set(changed);
  const kept: Entry[] = [];
  base.rows.forEach((row, pos) => {
    if (!gone.has(row.productId)) kept.push({ row, pos });
  });
  const entries = [...kept, ...freshEntries(rows, offers, base.shared)].sort(byId);
  const m = {
    pivot,
    version,
    rows: entries.map((e) => e.row),
    cols: buildColumns(entries, base.cols),
    shared: base.shared,
  };
  const since = (unsavedOf(pool).get(pivot) ?? 0) + changed.length;
  if (base !== current || since > m.rows.length / 10) saveBehind(pool, m);
  else unsavedOf(pool).set(pivot, since);
  return m;
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
        ? load(pool, pivot, previous, target, background)
        : holder.forRequest(() => load(pool, pivot, previous, target, false)),
  );
}

/** Every pivot some license names (the models loaded after start-up). */
export async function licensedPivots(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ seller_id: number }>(
    'select distinct seller_id from license_pivots order by seller_id',
  );
  return rows.map((r) => r.seller_id);
}

/**
 * The model of the rows of `model` that `keep` keeps (positions, in model order), with their offers: the
 * same row objects and seller columns, its own columns (buildColumns copies the kept rows' offers). A
 * question about a few brands on a closed day overlays and scores these rows only (issue 30: the brand
 * comparator's own brands are ~15 % of the large market's largest pivot); scoring is per row, so each
 * kept row scores as in the whole model.
 */
export function subsetModel(model: PivotModel, key: string, keep: (i: number) => boolean): PivotModel {
  // the row objects hold the latest state: an overlay's rows would lose its day's
  if (model.stateRow) throw new Error('subsetModel: de un modelo del día, no de un día cerrado');
  const whole = model.subset?.of ?? model;
  const entries: Entry[] = [];
  model.rows.forEach((row, pos) => {
    if (keep(pos)) entries.push({ row, pos });
  });
  return {
    pivot: model.pivot,
    version: model.version,
    rows: entries.map((e) => e.row),
    cols: buildColumns(entries, model.cols),
    shared: model.shared,
    subset: { key: model.subset ? `${model.subset.key}/${key}` : key, of: whole },
  };
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
