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
// Layout of `data` (bytea, stored uncompressed; db/saved-arrays.ts): 'VPM1', a 4-byte length, a JSON header
// (the rows as the database gives them — RowRecord tuples —, the seller ids, currencies and price types, the
// arrays' places), then the offers' typed arrays, each at an offset that is a multiple of 8. Offers'
// effective prices per mode are not saved: they are made from the listed prices when first read, as after
// any load.

const MAGIC = 'VPM1';

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
const OFFER_ARRAYS = Object.keys(OFFER_KINDS) as OfferArray[];

interface Header {
  pivot: number;
  version: number;
  rows: RowRecord[];
  sellerIds: number[];
  currencies: string[];
  priceTypes: string[];
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
  const header: Header = {
    pivot: m.pivot,
    version: m.version,
    rows: m.rows.map(recordOf),
    sellerIds: c.sellerIds,
    currencies: c.currencies,
    priceTypes: c.priceTypes,
  };
  return encodeSaved(
    MAGIC,
    header,
    OFFER_ARRAYS.map((name) => [name, c[name] as Typed]),
  );
}

/** Saved bytes → the rows and offers' columns; null when they are not a saved model of `pivot`. */
export function decodeModel(buf: SavedBytes, pivot: number): SavedModel | null {
  const saved = decodeSaved<Header, OfferArray>(buf, MAGIC, OFFER_KINDS);
  if (!saved || saved.header.pivot !== pivot) return null;
  const { header } = saved;
  const offers = {
    ...saved.arrays,
    sellerIds: header.sellerIds,
    currencies: header.currencies,
    priceTypes: header.priceTypes,
  } as SavedModel['offers'];
  if (offers.offerStart.length !== header.rows.length + 1) return null;
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
