import type pg from 'pg';
import { queryOwnClient } from '../../db/database.js';
import { clpMap } from '../../market/index.js';

// SQL of the pricing screens. Requests never read price history: they read the pivot's read model
// (migrations/020_pricing.sql) through the in-memory copy of model.ts, which these functions load and
// refresh, plus a few small lookups per request (sellers, fx rates, window bounds, tree nodes).

type Queryable = pg.Pool | pg.PoolClient;

/**
 * A pricing_rows row as the model loads it (rowMode 'array': no object per row), in this column order.
 * The paths come as PostgreSQL's text ('{1,2,3}'): every row of a leaf has the same one, parsed once
 * (model.ts). URLs and image URLs are not loaded: a page reads them (selectListingTexts).
 */
export type RowRecord = [
  productId: number,
  groupId: number | null,
  listingRef: string,
  sku: string | null,
  ean: string | null,
  name: string,
  brandId: number | null,
  brandName: string | null,
  classificationId: number | null,
  classPath: string,
  categoryPath: string,
  normal: number | null,
  sale: number | null,
  exclusive: number | null,
  priceType: string,
  stockOut: boolean,
  currency: string,
  published: boolean,
  firstSeen: number, // epoch ms
  lastSeen: number,
];

/** A pricing_offers row as the model loads it (rowMode 'array'); its reference and URL are not loaded. */
export type OfferRecord = [
  pivotProductId: number,
  productId: number,
  sellerId: number,
  normal: number | null,
  sale: number | null,
  exclusive: number | null,
  priceType: string,
  stockOut: boolean,
  currency: string,
  published: boolean,
  firstSeen: number,
  lastSeen: number,
];

const ms = (col: string) => `(extract(epoch from ${col}) * 1000)::float8`;

/** Rows and offers of a pivot's read model: all of them, or only the given pivot listings. */
export async function selectPivotModel(
  db: Queryable,
  pivot: number,
  onlyIds?: number[],
): Promise<{ rows: RowRecord[]; offers: OfferRecord[] }> {
  const filter = onlyIds ? 'and r.product_id = any($2::bigint[])' : '';
  const values = onlyIds ? [pivot, onlyIds] : [pivot];
  const [rows, offers] = await Promise.all([
    queryOwnClient<RowRecord>(db, {
      text: `select r.product_id, r.group_id, r.listing_ref, r.sku, r.ean, r.name, r.brand_id, r.brand_name,
                    r.classification_id, r.class_path::text, r.category_path::text, r.normal_price,
                    r.sale_price, r.exclusive_price, r.price_type, r.stock_out, r.currency, r.published,
                    ${ms('r.first_seen')}, ${ms('r.last_seen')}
               from pricing_rows r where r.pivot_id = $1 ${filter}`,
      values,
      rowMode: 'array',
    }),
    queryOwnClient<OfferRecord>(db, {
      text: `select o.pivot_product_id, o.product_id, o.seller_id, o.normal_price, o.sale_price,
                    o.exclusive_price, o.price_type, o.stock_out, o.currency, o.published,
                    ${ms('o.first_seen')}, ${ms('o.last_seen')}
               from pricing_offers o
              where o.pivot_id = $1 ${onlyIds ? 'and o.pivot_product_id = any($2::bigint[])' : ''}`,
      values,
      rowMode: 'array',
    }),
  ]);
  return { rows: rows.rows, offers: offers.rows };
}

/** What a page shows of a listing and the model does not hold: the seller's own id, URL and image. */
export interface ListingText {
  ref: string;
  url: string | null;
  imageUrl: string | null;
}

/**
 * The texts of the given listings (a page's pivot listings and their competitor listings), from
 * products — the columns pricing_rows and pricing_offers copy (maintain.ts: listing_ref, url, image_url).
 */
export async function selectListingTexts(db: Queryable, ids: number[]): Promise<Map<number, ListingText>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<[number, string, string | null, string | null]>({
    text: 'select id, product_id, url, image_url from products where id = any($1::bigint[])',
    values: [ids],
    rowMode: 'array',
  });
  return new Map(rows.map(([id, ref, url, imageUrl]) => [id, { ref, url, imageUrl }]));
}

/** Current version of a pivot's read model (null when it is not built). */
export async function selectModelVersion(db: Queryable, pivot: number): Promise<number | null> {
  const { rows } = await db.query<{ version: number }>(
    'select version from pricing_pivots where seller_id = $1',
    [pivot],
  );
  return rows[0]?.version ?? null;
}

/** Pivot listings rewritten by versions (after, upTo]; null when part of that log was pruned. */
export async function selectChangedIds(
  db: Queryable,
  pivot: number,
  after: number,
  upTo: number,
): Promise<number[] | null> {
  const { rows } = await db.query<{ version: number; product_ids: number[] }>(
    `select version, product_ids from pricing_changes
      where pivot_id = $1 and version > $2 and version <= $3 order by version`,
    [pivot, after, upTo],
  );
  if (rows.length !== upTo - after) return null;
  return [...new Set(rows.flatMap((r) => r.product_ids.map(Number)))];
}

export interface SellerInfo {
  id: number;
  name: string;
  color: string;
  /** sellers.last_crawl_at in epoch ms */
  crawl: number | null;
}

export interface RequestLookups {
  version: number | null;
  sellers: SellerInfo[];
  /** currency → clp_per_unit: the rates in force on the as-of day (vigia_fx_rates_on); CLP = 1 */
  clpPerUnit: Map<string, number>;
  /** window bounds in epoch ms: start of from_date, end of to_date (days of the market zone) */
  fromTs: number | null;
  toEndTs: number | null;
  /** start of today in the market zone, epoch ms (listings seen before are 'historical') */
  todayTs: number;
}

/**
 * One round trip for what a request needs besides the model: model version, the sellers involved,
 * fx rates in force on the period's last day (default today in the market zone `zone`) and the window bounds.
 */
export async function selectRequestLookups(
  db: Queryable,
  q: { pivot: number; sellers: number[]; from?: string; to?: string; zone: string },
): Promise<RequestLookups> {
  const { rows } = await db.query(
    `select (select version from pricing_pivots where seller_id = $1) as version,
            coalesce((select json_agg(json_build_object('id', id, 'name', name, 'color', color,
                                                        'crawl', extract(epoch from last_crawl_at) * 1000))
                        from sellers where id = any($2::int[])), '[]') as sellers,
            coalesce((select json_object_agg(currency, clp_per_unit)
                        from vigia_fx_rates_on(coalesce($4::date, vigia_day(now(), $5)))), '{}')
              as rates,
            (extract(epoch from vigia_day_start($3::date, $5)) * 1000)::float8 as from_ts,
            (extract(epoch from vigia_day_start($4::date + 1, $5)) * 1000)::float8 as to_end_ts,
            (extract(epoch from vigia_day_start(vigia_day(now(), $5), $5)) * 1000)::float8 as today_ts`,
    [q.pivot, q.sellers, q.from ?? null, q.to ?? null, q.zone],
  );
  const r = rows[0];
  return {
    version: r.version,
    sellers: r.sellers,
    clpPerUnit: clpMap(Object.entries(r.rates as Record<string, number>)),
    fromTs: r.from_ts,
    toEndTs: r.to_end_ts,
    todayTs: r.today_ts,
  };
}

export interface ClassificationNode {
  id: number;
  name: string;
  parent_id: number | null;
  level: number;
  path: number[];
}

/** Name, parent, level and path of classification nodes (DPM by classification). */
export async function selectClassificationNodes(db: Queryable, ids: number[]): Promise<ClassificationNode[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<ClassificationNode>(
    'select id, name, parent_id, level, path from classifications where id = any($1::int[])',
    [ids],
  );
  return rows;
}
