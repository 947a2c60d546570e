import type pg from 'pg';
import { queryOwnClient } from '../../db/database.js';
import { readModelsOf } from '../../platform/read-model.js';
import type { Columns, PivotModel, Row } from './model.js';
import type { RowRecord } from './queries.js';

// A pivot's pricing model saved whole in the database (pricing_model_snapshots, migration 501), so that a
// process that starts reads one value instead of every row and offer of pricing_rows and pricing_offers
// (issue 30, cold start: on the large market the two statements and their 560,000 rows parsed in Node take
// ~2.4 s a pivot; the saved model ~0.3 s). A saved model is the model at its version: the load then reads
// only the pivot listings the change log names since (model.ts load, as any refresh), or everything when
// the log no longer reaches back (pruned: the model is loaded from the tables and saved again).
//
// Layout of `data` (bytea, stored uncompressed): 'VPM1', a 4-byte length, a JSON header (the rows as the
// database gives them — RowRecord tuples —, the seller ids, currencies and price types, the arrays' places),
// then the offers' typed arrays, each at an offset that is a multiple of 8. Offers' effective prices per
// mode are not saved: they are made from the listed prices when first read, as after any load.

const MAGIC = 'VPM1';
const SLICE = 1 << 20;

/** The offers' columns saved as they are (the rows' columns are rebuilt from the rows). */
const OFFER_ARRAYS = [
  'offerStart',
  'offerSeller',
  'offerCurrency',
  'offerStockOut',
  'offerPublished',
  'offerFirstSeen',
  'offerLastSeen',
  'offerProductId',
  'offerNormal',
  'offerSale',
  'offerExclusive',
  'offerPriceType',
] as const;
type OfferArray = (typeof OFFER_ARRAYS)[number];
type Typed = Int32Array | Uint8Array | Float64Array;
const KINDS = { Int32Array, Uint8Array, Float64Array } as const;
type Kind = keyof typeof KINDS;

interface Header {
  pivot: number;
  version: number;
  rows: RowRecord[];
  sellerIds: number[];
  currencies: string[];
  priceTypes: string[];
  arrays: { name: OfferArray; kind: Kind; offset: number; length: number }[];
}

/** What a saved model gives back: the rows as the database gives them and the offers' columns. */
export interface SavedModel {
  pivot: number;
  version: number;
  rows: RowRecord[];
  /** the offers' columns of `rows` in their order, with the seller, currency and price type tables */
  offers: Pick<Columns, OfferArray | 'sellerIds' | 'currencies' | 'priceTypes'>;
}

const pathText = (path: readonly number[]) => `{${path.join(',')}}`;

/** Row → the tuple the database gives for it (queries.ts selectPivotModel). */
function recordOf(r: Row): RowRecord {
  return [
    r.productId,
    r.groupId,
    r.ref,
    r.sku,
    r.ean,
    r.name,
    r.brandId,
    r.brandName,
    r.classificationId,
    pathText(r.classPath),
    pathText(r.categoryPath),
    r.normal,
    r.sale,
    r.exclusive,
    r.priceType,
    r.stockOut,
    r.currency,
    r.published,
    r.firstSeen,
    r.lastSeen,
  ];
}

/** The model as saved bytes. */
export function encodeModel(m: PivotModel): Buffer {
  const c = m.cols;
  const arrays: Header['arrays'] = [];
  let offset = 0;
  for (const name of OFFER_ARRAYS) {
    const a = c[name] as Typed;
    arrays.push({ name, kind: a.constructor.name as Kind, offset, length: a.length });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const header: Header = {
    pivot: m.pivot,
    version: m.version,
    rows: m.rows.map(recordOf),
    sellerIds: c.sellerIds,
    currencies: c.currencies,
    priceTypes: c.priceTypes,
    arrays,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = Math.ceil((8 + json.length) / 8) * 8;
  const out = Buffer.alloc(start + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  for (const a of arrays) {
    const src = c[a.name] as Typed;
    Buffer.from(src.buffer, src.byteOffset, src.byteLength).copy(out, start + a.offset);
  }
  return out;
}

/** Saved bytes → the rows and offers' columns; null when they are not a saved model of `pivot`. */
export function decodeModel(buf: Buffer, pivot: number): SavedModel | null {
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) return null;
  const len = buf.readUInt32LE(4);
  if (8 + len > buf.length) return null;
  const header = JSON.parse(buf.toString('utf8', 8, 8 + len)) as Header;
  if (header.pivot !== pivot) return null;
  const start = Math.ceil((8 + len) / 8) * 8;
  const offers = {
    sellerIds: header.sellerIds,
    currencies: header.currencies,
    priceTypes: header.priceTypes,
  } as SavedModel['offers'];
  for (const a of header.arrays) {
    const Kind = KINDS[a.kind];
    if (!Kind || !OFFER_ARRAYS.includes(a.name)) return null;
    const from = start + a.offset;
    const bytes = a.length * Kind.BYTES_PER_ELEMENT;
    if (from + bytes > buf.length) return null;
    // a copy into an ArrayBuffer of its own: the bytes of a database answer need not be aligned
    const own = new Uint8Array(bytes);
    own.set(buf.subarray(from, from + bytes));
    (offers as Record<OfferArray, Typed>)[a.name] = new Kind(own.buffer);
  }
  if (offers.offerStart?.length !== header.rows.length + 1) return null;
  return { pivot, version: header.version, rows: header.rows, offers };
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
  try {
    // in slices of 1 MiB (stored uncompressed, PostgreSQL reads only each slice's part): one 48 MB value
    // takes ~0.6 s through the driver's one message, the slices ~0.2 s (large market, 2026-11-29)
    const { rows } = await queryOwnClient<[Buffer]>(pool, {
      text: `select substring(s.data from k * $2::int + 1 for $2::int)
               from pricing_model_snapshots s
               join pricing_pivots p on p.seller_id = s.pivot_id and p.built_at = s.built_at
              cross join generate_series(0, (length(s.data) - 1) / $2::int) k
              where s.pivot_id = $1
              order by k`,
      values: [pivot, slice],
      rowMode: 'array',
    });
    return rows.length ? decodeModel(Buffer.concat(rows.map((r) => r[0])), pivot) : null;
  } catch (err) {
    readModelsOf(pool).warn({ err, pivot }, 'pricing: saved model unreadable; loading from the tables');
    return null;
  }
}

/** Saves `m` unless a model of the same or a later version is saved already. Never throws. */
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
                 or pricing_model_snapshots.built_at <> excluded.built_at`,
      values: [m.pivot, m.version, data],
    });
    return (rowCount ?? 0) > 0;
  } catch (err) {
    readModelsOf(pool).warn({ err, pivot: m.pivot }, 'pricing: the model could not be saved');
    return false;
  }
}
