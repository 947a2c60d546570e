import type { Queryable } from '../../db/database.js';
import { lastSeenSql } from '../../market/index.js';
import { dayZone } from '../ingest/index.js';

// SQL of the report builders (builders.ts). Every query reads one batch: keyset on an id (`after`), a
// limit, so that a whole-license report never holds more than a batch of rows. Window: listings seen in
// [start of from_date, end of to_date) in the organisation's market zone (a parameter of every query,
// `zone`) — the pricing screens' rule (docs/metrics.md "Pricing", "Date semantics"). Times shown (the
// price history's Desde/Hasta) are in the user's zone (`timezone`).

/** The report's instants: start of from_date and end of to_date (vigia_day_start of the market zone $z). */
const windowStart = (i: number, z: number) => `vigia_day_start($${i}::date, $${z}::text)`;
const windowEnd = (i: number, z: number) => `vigia_day_start($${i}::date + 1, $${z}::text)`;
/** Seen in the window [from, to] of zone $z: the one membership rule (SQL vigia_seen_in = domain seenInWindow). */
const seen = (p: string, s: string, from: number, to: number, z: number) =>
  `vigia_seen_in(${lastSeenSql(p, s)}, ${p}.first_seen, $${from}::date, $${to}::date, $${z}::text)`;
/** Under the license's classification roots (none = whole tree). `c` = classifications of the listing. */
const inRoots = (i: number) => `(cardinality($${i}::int[]) = 0 or c.path && $${i}::int[])`;

export interface MatchScopeParams {
  pivot: number;
  sellers: number[];
  roots: number[];
  from: string;
  to: string;
  /** the organisation's market zone: what a day of the window is */
  zone: string;
}

// $1 pivot, $2 competitors, $3 roots, $4 from, $5 to, $6 zone
const MATCH_PIVOTS_WHERE = `
  p.seller_id = $1 and lc.group_id is not null and lc.match_status = 'confirmed'
  and ${seen('p', 's', 4, 5, 6)} and ${inRoots(3)}
  and exists (select 1 from listing_current o
                join products op on op.id = o.product_id
                join sellers os on os.id = op.seller_id
               where o.group_id = lc.group_id and o.match_status = 'confirmed' and o.seller_id = any($2::int[])
                 and ${seen('op', 'os', 4, 5, 6)})`;

const MATCH_FROM = `
  from products p
  join sellers s on s.id = p.seller_id
  join listing_current lc on lc.product_id = p.id
  left join classifications c on c.id = p.classification_id`;

const matchArgs = (m: MatchScopeParams) => [m.pivot, m.sellers, m.roots, m.from, m.to, m.zone];

/** Pivot products of the match report: matched with ≥ 1 selected competitor seen in the window. */
export async function countMatchPivots(db: Queryable, m: MatchScopeParams): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n ${MATCH_FROM} where ${MATCH_PIVOTS_WHERE}`,
    matchArgs(m),
  );
  return rows[0].n;
}

export interface MatchPivotRow {
  id: number;
  product_id: string;
  sku: string | null;
  ean: string | null;
  name: string | null;
  brand: string | null;
  class_name: string | null;
  group_id: number;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  price_type: string;
  stock_out: boolean;
  currency: string;
}

export async function selectMatchPivots(
  db: Queryable,
  m: MatchScopeParams,
  after: number,
  limit: number,
): Promise<MatchPivotRow[]> {
  const { rows } = await db.query<MatchPivotRow>(
    `select p.id, p.product_id, p.sku, p.ean, p.name, b.name as brand, c.name as class_name, lc.group_id,
            lc.normal_price, lc.sale_price, lc.exclusive_price, lc.price_type, lc.stock_out, lc.currency
       ${MATCH_FROM}
       left join brands b on b.id = p.brand_id
      where ${MATCH_PIVOTS_WHERE} and p.id > $7
      order by p.id limit $8`,
    [...matchArgs(m), after, limit],
  );
  return rows;
}

export interface MatchOfferRow {
  group_id: number;
  seller_id: number;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  stock_out: boolean;
  currency: string;
}

/** Confirmed listings of the selected competitors in these groups, seen in the window (any stock). */
export async function selectMatchOffers(
  db: Queryable,
  groups: number[],
  m: Pick<MatchScopeParams, 'sellers' | 'from' | 'to' | 'zone'>,
): Promise<MatchOfferRow[]> {
  const { rows } = await db.query<MatchOfferRow>(
    `select o.group_id, o.seller_id, o.normal_price, o.sale_price, o.exclusive_price, o.stock_out, o.currency
       from listing_current o
       join products op on op.id = o.product_id
       join sellers os on os.id = op.seller_id
      where o.group_id = any($1::bigint[]) and o.match_status = 'confirmed' and o.seller_id = any($2::int[])
        and ${seen('op', 'os', 3, 4, 5)}`,
    [groups, m.sellers, m.from, m.to, m.zone],
  );
  return rows;
}

// ───────────────────────────── price history ─────────────────────────────

export interface HistoryScopeParams {
  sellers: number[]; // pivot first, then competitors
  roots: number[];
  from: string;
  to: string;
  /** the organisation's market zone: what a day of the window is */
  zone: string;
  /** the user's zone: how the times shown read */
  timezone: string;
}
// $1 sellers, $2 roots, $3 from, $4 to, $5 zone
const HISTORY_WHERE = `
  p.seller_id = any($1::int[]) and ${inRoots(2)}
  and pi.valid_from < ${windowEnd(4, 5)} and (pi.valid_to is null or pi.valid_to > ${windowStart(3, 5)})`;
const HISTORY_FROM = `
  from products p
  join price_intervals pi on pi.product_id = p.id
  left join classifications c on c.id = p.classification_id`;

/** Price intervals of the sellers' listings that overlap the window. */
export async function countHistory(db: Queryable, h: HistoryScopeParams): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n ${HISTORY_FROM} where ${HISTORY_WHERE}`,
    [h.sellers, h.roots, h.from, h.to, h.zone],
  );
  return rows[0].n;
}

export interface HistoryRow {
  id: number;
  seller_id: number;
  product_id: string;
  sku: string | null;
  ean: string | null;
  name: string | null;
  brand: string | null;
  /** wall-clock 'yyyy-MM-dd HH:mm' of the user's zone */
  valid_from: string;
  valid_to: string | null;
  normal_price: number | null;
  sale_price: number | null;
  exclusive_price: number | null;
  byquantity_price: number | null;
  price_type: string;
  stock_out: boolean;
  currency: string;
}

/** The next `limit` listings (by id) after `after`: one batch of the history report. */
export async function selectHistoryListings(
  db: Queryable,
  h: HistoryScopeParams,
  after: number,
  limit: number,
): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `select p.id from products p left join classifications c on c.id = p.classification_id
      where p.seller_id = any($1::int[]) and ${inRoots(2)} and p.id > $3
      order by p.id limit $4`,
    [h.sellers, h.roots, after, limit],
  );
  return rows.map((r) => Number(r.id));
}

/** The intervals of these listings that overlap the window, in listing and time order. */
export async function selectHistory(
  db: Queryable,
  ids: number[],
  h: HistoryScopeParams,
): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `select p.id, p.seller_id, p.product_id, p.sku, p.ean, p.name, b.name as brand,
            to_char(pi.valid_from at time zone $5::text, 'YYYY-MM-DD HH24:MI') as valid_from,
            to_char(pi.valid_to at time zone $5::text, 'YYYY-MM-DD HH24:MI') as valid_to,
            pi.normal_price, pi.sale_price, pi.exclusive_price, pi.byquantity_price, pi.price_type,
            pi.stock_out, pi.currency
       from products p
       join price_intervals pi on pi.product_id = p.id
       left join brands b on b.id = p.brand_id
      where p.id = any($1::bigint[])
        and pi.valid_from < ${windowEnd(3, 4)} and (pi.valid_to is null or pi.valid_to > ${windowStart(2, 4)})
      order by p.id, pi.valid_from`,
    [ids, h.from, h.to, h.zone, h.timezone],
  );
  return rows;
}

// ───────────────────────────── promotions ─────────────────────────────

// $1 sellers, $2 roots, $3 from, $4 to, $5 the zone of the promotions' days (promo_spans is kept per
// market zone, migration 470: the organisation's once ready, ingest zones.ts dayZone)
const PROMO_WHERE = `
  ps.zone = $5 and ps.seller_id = any($1::int[]) and ${inRoots(2)}
  and ps.first_day <= $4::date and (ps.last_day is null or ps.last_day >= $3::date)`;
const PROMO_FROM = `
  from promo_spans ps
  left join classifications c on c.id = ps.classification_id`;

/** Promotions (promo_spans: a listing's consecutive days on one promotion type) overlapping the range. */
export async function countPromotions(db: Queryable, h: HistoryScopeParams): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n ${PROMO_FROM} where ${PROMO_WHERE}`,
    [h.sellers, h.roots, h.from, h.to, await dayZone(db, h.zone)],
  );
  return rows[0].n;
}

export interface PromotionRow {
  id: number;
  seller_id: number;
  product_id: string;
  sku: string | null;
  name: string | null;
  brand: string | null;
  class_name: string | null;
  price_type: string;
  first_day: string;
  last_day: string | null;
  normal_price: number | null;
  promo_price: number | null;
  currency: string;
}

export async function selectPromotions(
  db: Queryable,
  h: HistoryScopeParams,
  after: number,
  limit: number,
): Promise<PromotionRow[]> {
  const { rows } = await db.query<PromotionRow>(
    `select ps.id, ps.seller_id, p.product_id, p.sku, p.name, b.name as brand, c.name as class_name,
            ps.price_type, ps.first_day, ps.last_day, ps.normal_price, ps.promo_price, ps.currency
       ${PROMO_FROM}
       join products p on p.id = ps.product_id
       left join brands b on b.id = p.brand_id
      where ${PROMO_WHERE} and ps.id > $6
      order by ps.id limit $7`,
    [h.sellers, h.roots, h.from, h.to, await dayZone(db, h.zone), after, limit],
  );
  return rows;
}

// ───────────────────────────── assortment ─────────────────────────────

export interface AssortmentRow {
  seller_id: number;
  brand: string | null;
  day: string;
  currency: string;
  published: number;
  in_stock: number;
  priced: number;
  /** the exact numeric sum as text (domain ConvertedSum converts it) */
  effective_price_sum: string;
  new_listings: number;
  unpublished: number;
  went_out_of_stock: number;
  back_in_stock: number;
}

/**
 * Per seller and brand (rollup_daily_brand): the state at each seller's latest day ≤ to_date, and the
 * events summed over the range's days — the assortment screens' rule (docs/metrics.md "Assortment"). The
 * days are those of `dayZone` (the roll-up's rows of the organisation's zone once ready: ingest zones.ts).
 */
export async function selectAssortment(
  db: Queryable,
  h: HistoryScopeParams,
  dayZone: string,
): Promise<AssortmentRow[]> {
  const { rows } = await db.query<AssortmentRow>(
    `with last_day as (
       select r.seller_id, max(r.day) as day from rollup_daily_brand r
        where r.zone = $5 and r.seller_id = any($1::int[]) and r.day <= $4::date group by r.seller_id),
     state as (
       select r.seller_id, r.brand_id, l.day, r.currency, sum(r.published)::int as published,
              sum(r.in_stock)::int as in_stock, sum(r.priced)::int as priced,
              sum(r.effective_price_sum)::text as effective_price_sum
         from rollup_daily_brand r join last_day l on r.zone = $5 and l.seller_id = r.seller_id and l.day = r.day
         left join classifications c on c.id = r.classification_id
        where ${inRoots(2)}
        group by r.seller_id, r.brand_id, l.day, r.currency),
     events as (
       select r.seller_id, r.brand_id, sum(r.new_listings)::int as new_listings,
              sum(r.unpublished)::int as unpublished, sum(r.went_out_of_stock)::int as went_out_of_stock,
              sum(r.back_in_stock)::int as back_in_stock
         from rollup_daily_brand r left join classifications c on c.id = r.classification_id
        where r.zone = $5 and r.seller_id = any($1::int[]) and r.day between $3::date and $4::date and ${inRoots(2)}
        group by r.seller_id, r.brand_id)
     select st.seller_id, b.name as brand, st.day::text as day, st.currency, st.published, st.in_stock,
            st.priced, st.effective_price_sum, coalesce(e.new_listings, 0) as new_listings,
            coalesce(e.unpublished, 0) as unpublished, coalesce(e.went_out_of_stock, 0) as went_out_of_stock,
            coalesce(e.back_in_stock, 0) as back_in_stock
       from state st
       left join events e on e.seller_id = st.seller_id and e.brand_id is not distinct from st.brand_id
       left join brands b on b.id = st.brand_id
      where st.published > 0
      order by st.seller_id, st.published desc, b.name nulls last`,
    [h.sellers, h.roots, h.from, h.to, dayZone],
  );
  return rows;
}

export async function sellerNames(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ id: number; name: string }>(
    'select id, name from sellers where id = any($1::int[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}
