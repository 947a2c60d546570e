import type { PriceType } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { lastSeenSql } from '../../market/index.js';
import type { DayBounds, IntervalRow } from './history.js';

// SQL of the product detail screens. Every question reads listing_current (the snapshot) or the
// price intervals of a handful of listings by primary key; none scans history.

/** A listing with its seller, brand, current state and last-seen instant. */
export interface ListingRow {
  id: number;
  product_id: string;
  seller_id: number;
  seller_name: string;
  seller_color: string;
  name: string | null;
  sku: string | null;
  ean: string | null;
  url: string | null;
  image_url: string | null;
  brand: string | null;
  category_id: number | null;
  classification_id: number | null;
  classification_path: number[] | null;
  published: boolean;
  first_seen: Date;
  last_seen: Date;
  group_id: number | null;
  match_status: 'confirmed' | 'suggested' | null;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  price_type: PriceType;
  stock_out: boolean;
  currency: string;
  effective_price: number | null;
  previous_effective_price: number | null;
}

// Last seen: the market core's rule (lastSeenSql → vigia_last_seen, domain lastSeenAt).
const LISTING_COLUMNS = `
  p.id, p.product_id, p.seller_id, s.name as seller_name, s.color as seller_color, p.name, p.sku, p.ean,
  p.url, p.image_url, b.name as brand, p.category_id, p.classification_id, c.path as classification_path,
  p.published, p.first_seen,
  ${lastSeenSql('p', 's')} as last_seen,
  lc.group_id, lc.match_status, lc.normal_price, lc.sale_price, lc.exclusive_price,
  coalesce(lc.price_type, 'NORMAL') as price_type, coalesce(lc.stock_out, false) as stock_out,
  coalesce(lc.currency, s.currency) as currency, lc.effective_price, lc.previous_effective_price`;

const LISTING_FROM = `
  from products p
  join sellers s on s.id = p.seller_id
  left join listing_current lc on lc.product_id = p.id
  left join brands b on b.id = p.brand_id
  left join classifications c on c.id = p.classification_id`;

/** One listing by Vigía id. */
export async function listingById(db: Queryable, id: number): Promise<ListingRow | null> {
  const { rows } = await db.query<ListingRow>(`select ${LISTING_COLUMNS} ${LISTING_FROM} where p.id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

/** One listing by the seller's own id (qmi-detail). */
export async function listingBySellerProduct(
  db: Queryable,
  sellerId: number,
  productId: string,
): Promise<ListingRow | null> {
  const { rows } = await db.query<ListingRow>(
    `select ${LISTING_COLUMNS} ${LISTING_FROM} where p.seller_id = $1 and p.product_id = $2`,
    [sellerId, productId],
  );
  return rows[0] ?? null;
}

/** The other listings of a live match group at the given sellers (listing_current_group_idx). */
export async function groupListings(
  db: Queryable,
  groupId: number,
  sellers: number[],
  excludeId: number,
): Promise<ListingRow[]> {
  const { rows } = await db.query<ListingRow>(
    `select ${LISTING_COLUMNS} ${LISTING_FROM}
      where p.id in (select product_id from listing_current where group_id = $1 and seller_id = any($2))
        and p.id <> $3
      order by s.name, p.id`,
    [groupId, sellers, excludeId],
  );
  return rows;
}

/** Number of listings (any seller) in a live match group. */
export async function groupSize(db: Queryable, groupId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from listing_current where group_id = $1',
    [groupId],
  );
  return rows[0].n;
}

/** Names of v2_classification nodes, in the order of `path`. */
export async function classificationNames(db: Queryable, path: number[]): Promise<string[]> {
  if (!path.length) return [];
  const { rows } = await db.query<{ name: string }>(
    'select name from classifications where id = any($1) order by array_position($1::int[], id)',
    [path],
  );
  return rows.map((r) => r.name);
}

/**
 * Day boundaries of [fromDay, toDay] in `timeZone`, computed by PostgreSQL (DST-correct), with the
 * end of today capped at now.
 */
export async function dayBounds(
  db: Queryable,
  fromDay: string,
  toDay: string,
  timeZone: string,
): Promise<DayBounds[]> {
  const { rows } = await db.query<{ day: string; start: Date; end: Date }>(
    `select to_char(d, 'YYYY-MM-DD') as day,
            vigia_day_start(d::date, $3) as start,
            least(vigia_day_start(d::date + 1, $3), now()) as end
       from generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') d`,
    [fromDay, toDay, timeZone],
  );
  return rows.map((r) => ({ day: r.day, start: r.start.getTime(), end: r.end.getTime() }));
}

/** The price intervals of some listings that overlap [from, to) (primary-key range scan). */
export async function intervalsOf(
  db: Queryable,
  listingIds: number[],
  from: Date,
  to: Date,
): Promise<Map<number, IntervalRow[]>> {
  const out = new Map<number, IntervalRow[]>(listingIds.map((id) => [id, []]));
  if (!listingIds.length) return out;
  const { rows } = await db.query<IntervalRow>(
    `select product_id, valid_from, valid_to, normal_price, sale_price, exclusive_price, price_type, stock_out, currency
       from price_intervals
      where product_id = any($1) and valid_from < $3 and (valid_to is null or valid_to > $2)
      order by product_id, valid_from`,
    [listingIds, from, to],
  );
  for (const r of rows) out.get(r.product_id)?.push(r);
  return out;
}
