import type { Queryable } from '../../db/database.js';
import { likePrefix, Params, wordsMatch } from '../../db/sql.js';
import { type Rates, TZ_SQL } from '../../market/index.js';

// SQL of the dashboard cards (docs/metrics.md "Dashboard"). Counts come from the daily roll-up
// (010_rollups.sql); per-listing figures from the end-of-day state: listing_current (today) or listing_eod
// (a closed day, modules/dashboard/eod.ts). None reads price history.

/** Where a day's end-of-day state comes from. */
export type StateSource = { kind: 'current' } | { kind: 'eod'; day: string };

/** A `state` relation: one row per listing published at the end of the day, at `sellers`. */
function stateSql(p: Params, source: StateSource, sellers: number[]): string {
  if (source.kind === 'current') {
    return `select lc.product_id, lc.seller_id, p.classification_id, lc.normal_price,
                   case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                                      when 'BYQUANTITY' then lc.byquantity_price end as promo_price,
                   lc.effective_price, lc.price_type, lc.stock_out, lc.currency
              from listing_current lc join products p on p.id = lc.product_id
             where lc.seller_id = any(${p.add(sellers, '::int[]')}) and p.published`;
  }
  return `select product_id, seller_id, classification_id, normal_price, promo_price, effective_price, price_type,
                 stock_out, currency
            from listing_eod
           where seller_id = any(${p.add(sellers, '::int[]')}) and day = ${p.add(source.day, '::date')}`;
}

const ratesSql = (p: Params, rates: Rates) =>
  `rates(currency, f) as (select * from unnest(${p.add([...rates.keys()], '::text[]')}, ${p.add([...rates.values()], '::float8[]')}))`;

/** License roots condition on a classification id column (empty roots = whole tree). */
const rootsCond = (p: Params, column: string, roots: number[]) =>
  roots.length
    ? `${column} in (select id from classifications where path && ${p.add(roots, '::int[]')})`
    : 'true';

export interface RollupStateRow {
  published: number;
  in_stock: number;
  promoted: number;
  discounted: number;
  discount_pct_sum: number;
}

/**
 * Assortment and promotion counts of the market (pivot + competitors) at the end of `day`, from the
 * daily roll-up (010_rollups.sql): per seller its latest row on or before the day (a day without a run
 * carries the previous state forward).
 */
export async function selectRollupState(
  db: Queryable,
  q: { day: string; sellers: number[]; roots: number[] },
): Promise<RollupStateRow> {
  const p = new Params();
  const day = p.add(q.day, '::date');
  const sql = `
    with last as (
      select s.id as seller_id,
             (select max(r.day) from rollup_daily_brand r where r.seller_id = s.id and r.day <= ${day}) as day
        from unnest(${p.add(q.sellers, '::int[]')}) as s(id)
    )
    select coalesce(sum(r.published), 0)::int as published,
           coalesce(sum(r.in_stock), 0)::int as in_stock,
           coalesce(sum(r.promoted), 0)::int as promoted,
           coalesce(sum(r.discounted), 0)::int as discounted,
           coalesce(sum(r.discount_pct_sum), 0)::float8 as discount_pct_sum
      from last join rollup_daily_brand r on r.seller_id = last.seller_id and r.day = last.day
     where ${rootsCond(p, 'r.classification_id', q.roots)}`;
  const { rows } = await db.query<RollupStateRow>(sql, p.values);
  return rows[0];
}

export interface EventCounts {
  new_current: number;
  new_previous: number;
  unpublished_current: number;
  unpublished_previous: number;
}

/**
 * Listings first seen / unpublished (and not republished since) within the period and the previous one,
 * at `sellers` under the license roots: index range scans on products (seller, first_seen) and
 * (seller, unpublished_at) that touch only the listings counted.
 */
export async function selectEventCounts(
  db: Queryable,
  q: { sellers: number[]; roots: number[]; from: string; to: string; previousFrom: string },
): Promise<EventCounts> {
  const p = new Params();
  const start = (d: string) => `(${p.add(d, '::date')}::timestamp at time zone ${TZ_SQL})`;
  const ps = start(q.previousFrom);
  const cs = start(q.from);
  const ce = `((${p.add(q.to, '::date')} + 1)::timestamp at time zone ${TZ_SQL})`;
  const sellers = p.add(q.sellers, '::int[]');
  const roots = rootsCond(p, 'p.classification_id', q.roots);
  const sql = `
    with born as (
      select p.first_seen from products p
       where p.seller_id = any(${sellers}) and p.first_seen >= ${ps} and p.first_seen < ${ce} and ${roots}
    ),
    gone as (
      select p.unpublished_at from products p
       where p.seller_id = any(${sellers}) and p.unpublished_at >= ${ps} and p.unpublished_at < ${ce} and ${roots}
    )
    select (select count(*) from born where first_seen >= ${cs})::int as new_current,
           (select count(*) from born where first_seen < ${cs})::int as new_previous,
           (select count(*) from gone where unpublished_at >= ${cs})::int as unpublished_current,
           (select count(*) from gone where unpublished_at < ${cs})::int as unpublished_previous`;
  const { rows } = await db.query<EventCounts>(sql, p.values);
  return rows[0];
}

/**
 * The first day (Santiago, yyyy-MM-dd) any listing of `sellers` was seen: when monitoring began for the
 * scope; null without listings. One index probe per seller on products (seller, first_seen).
 */
export async function selectMonitoringSince(db: Queryable, sellers: number[]): Promise<string | null> {
  const { rows } = await db.query<{ since: string | null }>(
    `select to_char(min(m) at time zone 'America/Santiago', 'YYYY-MM-DD') as since
       from (select (select min(p.first_seen) from products p where p.seller_id = s) as m
               from unnest($1::int[]) as s) x`,
    [sellers],
  );
  return rows[0]?.since ?? null;
}

export interface DiscountRow {
  monetary: number | null;
  buckets: { bucket: number; n: number }[] | null;
}

/**
 * Discounts of the market at the end of a day, over promoted listings (price_type ≠ NORMAL) with a
 * discount % (vigia_discount_pct: 0 < promotion price < normal price): the average (normal − promotion
 * price) in the target currency, and the histogram of their discount buckets (vigia_discount_bucket,
 * the nearest multiple of 5). Both functions: migrations/050_market_formulas.sql.
 */
export async function selectDiscountState(
  db: Queryable,
  q: { source: StateSource; sellers: number[]; roots: number[]; rates: Rates },
): Promise<DiscountRow> {
  const p = new Params();
  const sql = `
    with ${ratesSql(p, q.rates)},
    d as (
      select (s.normal_price - s.promo_price) * r.f as amount,
             vigia_discount_pct(s.normal_price, s.promo_price) as pct
        from (${stateSql(p, q.source, q.sellers)}) s
        left join rates r on r.currency = s.currency
       where s.price_type <> 'NORMAL' and ${rootsCond(p, 's.classification_id', q.roots)}
    )
    select (select avg(amount) from d where pct is not null) as monetary,
           (select json_agg(json_build_object('bucket', bucket, 'n', n))
              from (select vigia_discount_bucket(pct) as bucket, count(*)::int as n from d where pct is not null
                     group by 1) h) as buckets`;
  const { rows } = await db.query<DiscountRow>(sql, p.values);
  return rows[0];
}

export interface IndexRow {
  products: number;
  average_index: number | null;
  deviation: number | null;
}

/**
 * Price index of the pivot's products at the end of a day: per pivot listing (under the license roots)
 * in a confirmed match group, its price index (vigia_price_index = domain priceIndex: 100 × its effective
 * price / the lowest effective price among the competitors' listings of the group, in stock, priced), both
 * in CLP at the day's rates; the average index and the average |index − 100|. The stored effective price
 * is the default price mode's, so this is the DPM index in that mode at the end of the day.
 */
export async function selectIndexState(
  db: Queryable,
  q: { source: StateSource; pivot: number; competitors: number[]; roots: number[]; clpRates: Rates },
): Promise<IndexRow> {
  const p = new Params();
  const pivot = p.add(q.pivot, '::int');
  const all = p.add([q.pivot, ...q.competitors], '::int[]');
  // One pass over the matched listings of the scope, one aggregation per group: the pivot's price and
  // the lowest in-stock competitor price (a pivot with several listings in one group counts once, at
  // its lowest price).
  const matched =
    q.source.kind === 'current'
      ? `select lc.seller_id, lc.group_id, lc.effective_price::float8 * r.f as price, lc.stock_out, p.classification_id
           from listing_current lc
           join products p on p.id = lc.product_id and p.published
           join rates r on r.currency = lc.currency
          where lc.seller_id = any(${all}) and lc.match_status = 'confirmed' and lc.effective_price > 0`
      : `select e.seller_id, lc.group_id, e.effective_price::float8 * r.f as price, e.stock_out, e.classification_id
           from listing_eod e
           join listing_current lc on lc.product_id = e.product_id and lc.match_status = 'confirmed'
           join rates r on r.currency = e.currency
          where e.seller_id = any(${all}) and e.day = ${p.add(q.source.day, '::date')} and e.effective_price > 0`;
  const sql = `
    with ${ratesSql(p, q.clpRates)},
    m as (${matched}),
    g as (
      select min(price) filter (where seller_id = ${pivot} and ${rootsCond(p, 'classification_id', q.roots)}) as mine,
             min(price) filter (where seller_id <> ${pivot} and not stock_out) as best
        from m group by group_id
    ),
    idx as (select vigia_price_index(mine, best) as idx from g where mine is not null and best is not null)
    select count(*)::int as products, avg(idx) as average_index, avg(abs(idx - 100)) as deviation from idx`;
  const { rows } = await db.query<IndexRow>(sql, p.values);
  return rows[0];
}

/** Latest succeeded observation run of any of the sellers. */
export async function selectLastUpdate(db: Queryable, sellers: number[]): Promise<Date | null> {
  const { rows } = await db.query<{ t: Date | null }>(
    `select max(observed_at) as t from ingest_runs where seller_id = any($1) and status = 'succeeded'`,
    [sellers],
  );
  return rows[0].t;
}

export interface QuickFindRow {
  id: number;
  product_id: string;
  seller_id: number;
  name: string | null;
  sku: string | null;
  ean: string | null;
  brand: string | null;
  image: string | null;
  effective_price: number | null;
  currency: string;
}

/**
 * Quick find: the pivot's published listings (under the license roots) whose name, brand, sku, seller
 * id or EAN contain every word; exact sku / EAN / seller id first, then names starting with the query,
 * then by name.
 */
export async function selectQuickFind(
  db: Queryable,
  q: { pivot: number; roots: number[]; text: string; words: string[]; limit: number },
): Promise<QuickFindRow[]> {
  const p = new Params();
  const exact = p.add(q.text.trim());
  const prefix = p.add(likePrefix(q.words.join(' ')));
  const sql = `
    select p.id, p.product_id, p.seller_id, p.name, p.sku, p.ean, b.name as brand, p.image_url as image,
           lc.effective_price, coalesce(lc.currency, s.currency) as currency
      from products p
      join sellers s on s.id = p.seller_id
      left join brands b on b.id = p.brand_id
      left join listing_current lc on lc.product_id = p.id
     where p.seller_id = ${p.add(q.pivot, '::int')} and p.published
       and ${rootsCond(p, 'p.classification_id', q.roots)}
       and ${wordsMatch(p, q.words)}
     order by (lower(p.sku) = lower(${exact}) or p.ean = ${exact} or lower(p.product_id) = lower(${exact})) desc,
              (p.name_key like ${prefix}) desc,
              p.name nulls last, p.id
     limit ${p.add(q.limit, '::int')}`;
  const { rows } = await db.query<QuickFindRow>(sql, p.values);
  return rows;
}

/** Figures of a closed day already computed for a scope (dashboard_day_figures). */
export async function selectDayFigures<T>(
  db: Queryable,
  k: { pivot: number; competitors: number[]; roots: number[]; currency: string; day: string },
): Promise<T | null> {
  const { rows } = await db.query<{ figures: T }>(
    `select figures from dashboard_day_figures
      where pivot_id = $1 and competitors = $2::int[] and roots = $3::int[] and currency = $4 and day = $5::date`,
    [k.pivot, k.competitors, k.roots, k.currency, k.day],
  );
  return rows[0]?.figures ?? null;
}

export async function insertDayFigures(
  db: Queryable,
  k: { pivot: number; competitors: number[]; roots: number[]; currency: string; day: string },
  figures: object,
): Promise<void> {
  await db.query(
    `insert into dashboard_day_figures (pivot_id, competitors, roots, currency, day, figures)
     values ($1, $2::int[], $3::int[], $4, $5::date, $6) on conflict do nothing`,
    [k.pivot, k.competitors, k.roots, k.currency, k.day, JSON.stringify(figures)],
  );
}

/**
 * Changes whenever data enters: part of the response memo's key. Every committed ingest run bumps its
 * seller's `ingest_seq` in its own transaction, so the sum grows with each commit, in whatever order
 * runs of different sellers commit (the highest run id would not: a run started earlier can commit later).
 */
export async function selectDataVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ v: string | null }>('select sum(ingest_seq) as v from sellers');
  return Number(rows[0].v ?? 0);
}
