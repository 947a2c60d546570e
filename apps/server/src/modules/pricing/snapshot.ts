import type pg from 'pg';
import { queryOwnClient } from '../../db/database.js';
import {
  decodeSaved,
  encodeSaved,
  readSaved,
  type SavedBytes,
  type SavedKind,
  SLICE,
  type Typed,
} from '../../db/saved-arrays.js';
import { coder } from '../../lib/coder.js';
import { readModelsOf } from '../../platform/read-model.js';
import type { Columns, PivotModel, Row } from './model.js';

// A pivot's pricing model saved whole in the database (pricing_model_snapshots, migration 501), so that a
// process that starts reads one value instead of every row and offer of pricing_rows and pricing_offers
// (issue 30, cold start: on the large market the two statements and their 560,000 rows parsed in Node take
// ~2.4 s a pivot; the saved model ~0.3 s). A saved model is the model at its version: the load then reads
// only the pivot listings the change log names since (model.ts load, as any refresh), or everything when
// the log no longer reaches back (pruned: the model is loaded from the tables and saved again).
//
// Layout of `data` (bytea, stored uncompressed; db/saved-arrays.ts): 'VPM2', a 4-byte length, a small JSON
// header (the seller ids, currencies and price types of the offers, the tables of the rows' repeated values,
// the arrays' places), then typed arrays, each at an offset that is a multiple of 8: the offers' columns as
// the model holds them, and the rows as columns — numbers (NaN for null), repeated values as indexes into
// the header's tables, flags, and the texts (reference, SKU, EAN, name of every row) as one UTF-8 run with
// each text's end. Offers' effective prices per mode are not saved: they are made from the listed prices
// when first read, as after any load. Until 2026-11-30 ('VPM1') the rows were JSON tuples in the header:
// on the large market 24 MB of JSON a pivot, whose decoding and parsing were ~0.4–0.9 s of a cold start's
// first DPM answer; a 'VPM1' value is not read (the model is loaded from the tables and saved again).

const MAGIC = 'VPM2';

/** The offers' columns saved as they are, with their kinds (the rows' columns are rebuilt from the rows). */
const OFFER_KINDS = {
  offerStart: 'Int32Array',
  offerSeller: 'Int32Array',
  offerCurrency: 'Uint8Array',
  offerStockOut: 'Uint8Array',
  offerPublished: 'Uint8Array',
  offerFirstSeen: 'Float64Array',
  offerLastSeen: 'Float64Array',
  offerProductId: 'Float64Array',
  offerNormal: 'Float64Array',
  offerSale: 'Float64Array',
  offerExclusive: 'Float64Array',
  offerPriceType: 'Uint8Array',
} as const satisfies Record<string, SavedKind>;
type OfferArray = keyof typeof OFFER_KINDS;
export const OFFER_ARRAYS = Object.keys(OFFER_KINDS) as OfferArray[];

/** The rows' columns (SavedRows), with their kinds. */
const ROW_KINDS = {
  productId: 'Float64Array',
  groupId: 'Float64Array',
  brandId: 'Float64Array',
  classificationId: 'Float64Array',
  normal: 'Float64Array',
  sale: 'Float64Array',
  exclusive: 'Float64Array',
  firstSeen: 'Float64Array',
  lastSeen: 'Float64Array',
  brandName: 'Int32Array',
  classPath: 'Int32Array',
  categoryPath: 'Int32Array',
  priceType: 'Int32Array',
  currency: 'Int32Array',
  flags: 'Uint8Array',
  textEnd: 'Int32Array',
  text: 'Uint8Array',
} as const satisfies Record<string, SavedKind>;
type RowArray = keyof typeof ROW_KINDS;
const ROW_ARRAYS = Object.keys(ROW_KINDS) as RowArray[];

/** Row flags (SavedRows.flags). */
export const FLAG = { stockOut: 1, published: 2, noSku: 4, noEan: 8 } as const;

/** The tables the rows' repeated values index (brand name: −1 for none). */
interface RowTables {
  brandNames: string[];
  classPaths: string[];
  categoryPaths: string[];
  priceTypes: string[];
  currencies: string[];
}

interface Header {
  pivot: number;
  version: number;
  rows: number;
  tables: RowTables;
  sellerIds: number[];
  currencies: string[];
  priceTypes: string[];
}

/**
 * A saved model's rows as columns: row i's numbers at [i] (NaN for null), its repeated values as indexes
 * into `tables`, its flags (FLAG), and its reference, SKU, EAN and name as `texts` from the previous
 * text's end to `textEnd[4i]`, `[4i + 1]`, `[4i + 2]`, `[4i + 3]` (UTF-16 positions, increasing).
 */
export type SavedRows = { n: number; texts: string; tables: RowTables } & Record<
  Exclude<RowArray, 'text'>,
  Float64Array | Int32Array | Uint8Array
> & {
    productId: Float64Array;
    brandName: Int32Array;
    flags: Uint8Array;
    textEnd: Int32Array;
  };

/** What a saved model gives back: its rows as columns and the offers' columns. */
export interface SavedModel {
  pivot: number;
  version: number;
  rows: SavedRows;
  /** the offers' columns of `rows` in their order, with the seller, currency and price type tables */
  offers: Pick<Columns, OfferArray | 'sellerIds' | 'currencies' | 'priceTypes'>;
}

const pathText = (path: readonly number[]) => `{${path.join(',')}}`;
const nan = (v: number | null) => (v === null ? Number.NaN : v);

/** The rows as saved columns (and the texts' bytes). */
function rowColumns(rows: Row[]): { tables: RowTables; arrays: [RowArray, Typed][] } {
  const n = rows.length;
  const num = (f: (r: Row) => number | null) => Float64Array.from(rows, (r) => nan(f(r)));
  /** a text column as indexes into a table of its distinct values (in order of first appearance) */
  const tabled = (f: (r: Row) => string) => {
    const table: string[] = [];
    const code = coder(table);
    return { table, index: Int32Array.from(rows, (r) => code(f(r))) };
  };
  const classPath = tabled((r) => pathText(r.classPath));
  const categoryPath = tabled((r) => pathText(r.categoryPath));
  const priceType = tabled((r) => r.priceType);
  const currency = tabled((r) => r.currency);
  // brand names: no brand is −1 (null is not a table entry)
  const brandNames: string[] = [];
  const brand = coder(brandNames);
  const brandName = Int32Array.from(rows, (r) => (r.brandName === null ? -1 : brand(r.brandName)));
  const flags = new Uint8Array(n);
  const textEnd = new Int32Array(4 * n);
  const parts: string[] = [];
  let end = 0;
  rows.forEach((r, i) => {
    flags[i] =
      (r.stockOut ? FLAG.stockOut : 0) |
      (r.published ? FLAG.published : 0) |
      (r.sku === null ? FLAG.noSku : 0) |
      (r.ean === null ? FLAG.noEan : 0);
    [r.ref, r.sku ?? '', r.ean ?? '', r.name].forEach((t, j) => {
      parts.push(t);
      end += t.length;
      textEnd[4 * i + j] = end;
    });
  });
  const text = Buffer.from(parts.join(''), 'utf8');
  const columns: Record<RowArray, Typed> = {
    productId: num((r) => r.productId),
    groupId: num((r) => r.groupId),
    brandId: num((r) => r.brandId),
    classificationId: num((r) => r.classificationId),
    normal: num((r) => r.normal),
    sale: num((r) => r.sale),
    exclusive: num((r) => r.exclusive),
    firstSeen: num((r) => r.firstSeen),
    lastSeen: num((r) => r.lastSeen),
    brandName,
    classPath: classPath.index,
    categoryPath: categoryPath.index,
    priceType: priceType.index,
    currency: currency.index,
    flags,
    textEnd,
    text: new Uint8Array(text.buffer, text.byteOffset, text.length),
  };
  return {
    tables: {
      brandNames,
      classPaths: classPath.table,
      categoryPaths: categoryPath.table,
      priceTypes: priceType.table,
      currencies: currency.table,
    },
    arrays: ROW_ARRAYS.map((name) => [name, columns[name]]),
  };
}

/** The model as saved bytes. */
export function encodeModel(m: PivotModel): Buffer {
  const c = m.cols;
  const rows = rowColumns(m.rows);
  const header: Header = {
    pivot: m.pivot,
    version: m.version,
    rows: m.rows.length,
    tables: rows.tables,
    sellerIds: c.sellerIds,
    currencies: c.currencies,
    priceTypes: c.priceTypes,
  };
  return encodeSaved(MAGIC, header, [
    ...OFFER_ARRAYS.map((name): [string, Typed] => [name, c[name] as Typed]),
    ...rows.arrays,
  ]);
}

const isTable = (t: unknown): t is string[] => Array.isArray(t) && t.every((v) => typeof v === 'string');

/** Whether every index is in [lo, size) (−1 allowed when lo is −1). */
const within = (index: Int32Array, lo: number, size: number) => index.every((k) => k >= lo && k < size);

/**
 * Saved bytes → the rows' and offers' columns; null when they are not a saved model of `pivot` as this
 * version saves them, or do not hold together (lengths, indexes, text ends).
 */
export function decodeModel(buf: SavedBytes, pivot: number): SavedModel | null {
  const saved = decodeSaved<Header, OfferArray | RowArray>(buf, MAGIC, { ...OFFER_KINDS, ...ROW_KINDS });
  if (!saved || saved.header.pivot !== pivot) return null;
  const { header, arrays } = saved;
  const n = header.rows;
  const t = header.tables;
  if (!Number.isInteger(n) || n < 0 || !t) return null;
  if (![t.classPaths, t.categoryPaths, t.priceTypes, t.currencies, t.brandNames].every(isTable)) return null;
  const offers = {
    ...Object.fromEntries(OFFER_ARRAYS.map((name) => [name, arrays[name]])),
    sellerIds: header.sellerIds,
    currencies: header.currencies,
    priceTypes: header.priceTypes,
  } as SavedModel['offers'];
  if (offers.offerStart.length !== n + 1) return null;
  const a = arrays as Record<RowArray, Typed>;
  if (ROW_ARRAYS.some((name) => name !== 'text' && name !== 'textEnd' && a[name].length !== n)) return null;
  const textEnd = a.textEnd as Int32Array;
  const bytes = a.text as Uint8Array;
  if (textEnd.length !== 4 * n) return null;
  const texts = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  let prev = 0;
  for (const end of textEnd) {
    if (end < prev) return null;
    prev = end;
  }
  if (prev > texts.length) return null;
  if (
    !within(a.brandName as Int32Array, -1, t.brandNames.length) ||
    !within(a.classPath as Int32Array, 0, t.classPaths.length) ||
    !within(a.categoryPath as Int32Array, 0, t.categoryPaths.length) ||
    !within(a.priceType as Int32Array, 0, t.priceTypes.length) ||
    !within(a.currency as Int32Array, 0, t.currencies.length)
  )
    return null;
  const rows = { ...a, n, texts, tables: t } as unknown as SavedRows;
  return { pivot, version: header.version, rows, offers };
}

/**
 * The pivot's saved model, if one was saved for its read model as built now (pricing_pivots.built_at: a
 * rebuilt read model starts its versions again); null when none or unreadable.
 */
export async function readSavedModel(
  pool: pg.Pool,
  pivot: number,
  slice = SLICE,
): Promise<SavedModel | null> {
  return readSaved(
    pool,
    {
      source: `select s.data from pricing_model_snapshots s
                 join pricing_pivots p on p.seller_id = s.pivot_id and p.built_at = s.built_at
                where s.pivot_id = $1`,
      values: [pivot],
      slice,
      magic: MAGIC,
    },
    (data) => decodeModel(data, pivot),
    (err) =>
      readModelsOf(pool).warn({ err, pivot }, 'pricing: saved model unreadable; loading from the tables'),
  );
}

/**
 * Saves `m` unless a model of the same or a later version is saved already in this layout (one saved by
 * another version of the layout, which this one does not read, is replaced). Never throws.
 */
export async function saveModel(pool: pg.Pool, m: PivotModel): Promise<boolean> {
  try {
    const data = encodeModel(m);
    const { rowCount } = await queryOwnClient(pool, {
      text: `insert into pricing_model_snapshots (pivot_id, version, built_at, data)
             select p.seller_id, $2, p.built_at, $3 from pricing_pivots p where p.seller_id = $1
             on conflict (pivot_id) do update
                set version = excluded.version, built_at = excluded.built_at, data = excluded.data,
                    saved_at = now()
              where pricing_model_snapshots.version < excluded.version
                 or pricing_model_snapshots.built_at <> excluded.built_at
                 or substring(pricing_model_snapshots.data from 1 for 4) <> $4::bytea`,
      values: [m.pivot, m.version, data, Buffer.from(MAGIC, 'latin1')],
    });
    return (rowCount ?? 0) > 0;
  } catch (err) {
    readModelsOf(pool).warn({ err, pivot: m.pivot }, 'pricing: the model could not be saved');
    return false;
  }
}
