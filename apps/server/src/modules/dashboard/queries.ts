import type { Queryable } from '../../db/database.js';
import { likePrefix, Params, wordsMatch } from '../../db/sql.js';
import type { Rates } from '../../market/index.js';

// SQL of the dashboard cards (docs/metrics.md "Dashboard"). Counts come from the daily roll-up
// (010_rollups.sql); per-listing figures of today from listing_current, of closed days from the price
// intervals that cover the days' ends (modules/dashboard/days.ts folds them into per-day figures). Every
// day is one of the zone `zone` (the organisation's once its roll-up rows are ready: ingest zones.ts
// dayZone): the roll-up's rows of that zone, and the intervals and events cut at that zone's midnights.

/** Today's state: one row per published listing at `sellers`. */
function currentStateSql(p: Params, sellers: number[]): string {
  const ids = p.add(sellers, '::int[]');
  // (the sellers on products too: the same listings — a listing's seller is its product's — but then
  // PostgreSQL reads only those sellers' products instead of the market's; large market, one seller's
  // discounts 0.7 s → 0.16–0.3 s)
  return `select lc.product_id, lc.seller_id, p.classification_id, lc.normal_price,
                 case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                                    when 'BYQUANTITY' then lc.byquantity_price end as promo_price,
                 lc.effective_price, lc.price_type, lc.stock_out, lc.currency
            from listing_current lc join products p on p.id = lc.product_id
           where lc.seller_id = any(${ids}) and p.seller_id = any(${ids}) and p.published`;
}

const ratesSql = (p: Params, rates: Rates) =>
  `rates(currency, f) as (select * from unnest(${p.add([...rates.keys()], '::text[]')}, ${p.add([...rates.values()], '::float8[]')}))`;

/** License roots condition on a classification id column (empty roots = whole tree). */
const rootsCond = (p: Params, column: string, roots: number[]) =>
  roots.length
    ? `${column} in (select id from classifications where path && ${p.add(roots, '::int[]')})`
    : 'true';

export interface RollupDayRow {
  day: string;
  published: number;
  in_stock: number;
  promoted: number;
  discounted: number;
  discount_pct_sum: number;
}

/**
 * The roll-up sums at the end of each day of [from, to] (days of `zone`: the roll-up's rows of that zone),
 * per seller (`bySeller`) or for all `sellers`.
 */
function rollupDaysSql(
  p: Params,
  q: { from: string; to: string; sellers: number[]; roots: number[]; zone: string },
  bySeller: boolean,
) {
  const zone = p.add(q.zone, '::text');
  return `
    with days as (select d::date as d from generate_series(${p.add(q.from, '::date')}, ${p.add(q.to, '::date')}, interval '1 day') d),
    last as (
      select days.d, s.id as seller_id,
             (select max(r.day) from rollup_daily_brand r
               where r.zone = ${zone} and r.seller_id = s.id and r.day <= days.d) as day
        from days cross join unnest(${p.add(q.sellers, '::int[]')}) as s(id)
    ),
    -- each (seller, roll-up day) summed once, by its index range (a day carried forward is read once)
    sums as (
      select n.seller_id, n.day, a.*
        from (select distinct seller_id, day from last where day is not null) n
        cross join lateral (
          select coalesce(sum(r.published), 0)::int as published, coalesce(sum(r.in_stock), 0)::int as in_stock,
                 coalesce(sum(r.promoted), 0)::int as promoted, coalesce(sum(r.discounted), 0)::int as discounted,
                 coalesce(sum(r.discount_pct_sum), 0)::float8 as discount_pct_sum
            from rollup_daily_brand r
           where r.zone = ${zone} and r.seller_id = n.seller_id and r.day = n.day
             and ${rootsCond(p, 'r.classification_id', q.roots)}
        ) a
    )
    select to_char(last.d, 'YYYY-MM-DD') as day${bySeller ? ', last.seller_id' : ''},
           sum(s.published)::int as published, sum(s.in_stock)::int as in_stock,
           sum(s.promoted)::int as promoted, sum(s.discounted)::int as discounted,
           sum(s.discount_pct_sum)::float8 as discount_pct_sum
      from last join sums s on s.seller_id = last.seller_id and s.day = last.day
     group by last.d${bySeller ? ', last.seller_id' : ''} order by last.d`;
}

/**
 * Assortment and promotion counts of the market (pivot + competitors) at the end of each day of
 * [from, to], from the daily roll-up (010_rollups.sql): per seller and day its latest row on or before
 * the day (a day without a run carries the previous state forward). Days before any row: absent.
 */
export async function selectRollupDays(
  db: Queryable,
  q: { from: string; to: string; sellers: number[]; roots: number[]; zone: string },
): Promise<RollupDayRow[]> {
  const p = new Params();
  const { rows } = await db.query<RollupDayRow>(rollupDaysSql(p, q, false), p.values);
  return rows;
}

/** The same counts per seller: one row per (seller, day) the seller has a roll-up row on or before. */
export async function selectRollupSellerDays(
  db: Queryable,
  q: { from: string; to: string; sellers: number[]; roots: number[]; zone: string },
): Promise<(RollupDayRow & { seller_id: number })[]> {
  const p = new Params();
  const { rows } = await db.query<RollupDayRow & { seller_id: number }>(rollupDaysSql(p, q, true), p.values);
  return rows;
}

/**
 * The days of [from, to] a price interval covers, as offsets from `from`: it covers day d when it is
 * the listing's state at the end of d (valid_from before the next day's first instant, valid_to — if
 * any — not before it), i.e. d in [date(valid_from), date(valid_to) − 1] (dates in `zone`), clipped.
 */
function coveredDaysSql(p: Params, from: string, to: string, zone: string): { join: string; cols: string } {
  const lo = p.add(from, '::date');
  const hi = p.add(to, '::date');
  const z = p.add(zone, '::text');
  const join = `x.valid_from < vigia_day_start(${hi} + 1, ${z})
            and (x.valid_to is null or x.valid_to >= vigia_day_start(${lo} + 1, ${z}))`;
  const cols = `greatest(vigia_day(x.valid_from, ${z}), ${lo}) - ${lo} as a,
                least(coalesce(vigia_day(x.valid_to, ${z}) - 1, ${hi}), ${hi}) - ${lo} as b`;
  return { join, cols };
}

export interface IndexIntervalRow {
  group_id: string;
  seller_id: number;
  /** a pivot listing under the license roots (counts as "mine") */
  in_roots: boolean;
  currency: string;
  /** lowest of the positive normal, sale and exclusive prices (the default price mode's) */
  effective: number | null;
  stock_out: boolean;
  a: number;
  b: number;
}

/**
 * Price intervals of the confirmed-matched listings of the pivot and competitors that are the state at
 * the end of some day of [from, to], with the days they cover (a..b, offsets), ordered by match group.
 */
export async function selectIndexIntervals(
  db: Queryable,
  q: { from: string; to: string; pivot: number; competitors: number[]; roots: number[]; zone: string },
): Promise<IndexIntervalRow[]> {
  const p = new Params();
  const pivot = p.add(q.pivot, '::int');
  const { join, cols } = coveredDaysSql(p, q.from, q.to, q.zone);
  const sql = `
    select lc.group_id::text as group_id, lc.seller_id,
           (lc.seller_id = ${pivot} and ${rootsCond(p, 'p.classification_id', q.roots)}) as in_roots,
           x.currency,
           least(case when x.normal_price > 0 then x.normal_price end,
                 case when x.sale_price > 0 then x.sale_price end,
                 case when x.exclusive_price > 0 then x.exclusive_price end)::float8 as effective,
           x.stock_out, ${cols}
      from listing_current lc
      join products p on p.id = lc.product_id
      join price_intervals x on x.product_id = lc.product_id and ${join}
     where lc.seller_id = any(${p.add([q.pivot, ...q.competitors], '::int[]')}) and lc.match_status = 'confirmed'
       -- only groups where the pivot has a listing under the roots: no other group has an index
       and lc.group_id in (select m.group_id from listing_current m join products mp on mp.id = m.product_id
                            where m.seller_id = ${pivot} and m.match_status = 'confirmed'
                              and ${rootsCond(p, 'mp.classification_id', q.roots)})
     order by lc.group_id`;
  const { rows } = await db.query<IndexIntervalRow>(sql, p.values);
  return rows;
}

export interface IndexListingRow {
  seller_id: number;
  classification_id: number | null;
  /** per interval, in order: its currency, effective price (> 0) and the days it covers (a..b, offsets) */
  currencies: string[];
  prices: number[];
  a: number[];
  b: number[];
}

/**
 * The whole index history of a pivot over [from, to] for any competitor selection and roots: every
 * confirmed-matched listing (of any seller) of the match groups where the pivot has a confirmed listing,
 * with its price intervals that are the state at the end of some day of the range — the intervals
 * selectIndexIntervals reads for one selection, less those that never count (a competitor's out of
 * stock, no positive effective price). One row per listing, ordered by match group.
 */
export async function selectIndexHistory(
  db: Queryable,
  q: { from: string; to: string; pivot: number; zone: string },
): Promise<(IndexListingRow & { group_id: string })[]> {
  const p = new Params();
  const pivot = p.add(q.pivot, '::int');
  const { join, cols } = coveredDaysSql(p, q.from, q.to, q.zone);
  const sql = `
    select lc.group_id::text as group_id, lc.seller_id, p.classification_id,
           array_agg(y.currency order by y.valid_from) as currencies,
           array_agg(y.effective order by y.valid_from) as prices,
           array_agg(y.a order by y.valid_from) as a, array_agg(y.b order by y.valid_from) as b
      from listing_current lc
      join products p on p.id = lc.product_id
      cross join lateral (
        select x.currency, x.valid_from,
               least(case when x.normal_price > 0 then x.normal_price end,
                     case when x.sale_price > 0 then x.sale_price end,
                     case when x.exclusive_price > 0 then x.exclusive_price end)::float8 as effective,
               ${cols}
          from price_intervals x
         where x.product_id = lc.product_id and ${join} and (lc.seller_id = ${pivot} or not x.stock_out)
      ) y
     where lc.match_status = 'confirmed' and y.effective > 0
       and lc.group_id in (select m.group_id from listing_current m
                            where m.seller_id = ${pivot} and m.match_status = 'confirmed')
     group by lc.group_id, lc.product_id, lc.seller_id, p.classification_id
     order by lc.group_id`;
  const { rows } = await db.query<IndexListingRow & { group_id: string }>(sql, p.values);
  return rows;
}

/** The classification ids under the license roots (empty roots: null, the whole tree). */
export async function selectRootClasses(db: Queryable, roots: number[]): Promise<Set<number> | null> {
  if (!roots.length) return null;
  const { rows } = await db.query<{ id: number }>('select id from classifications where path && $1::int[]', [
    roots,
  ]);
  return new Set(rows.map((r) => r.id));
}

export interface PromoIntervalRow {
  seller_id: number;
  currency: string;
  normal_price: number | null;
  promo_price: number | null;
  a: number;
  b: number;
}

/**
 * Promotion intervals (price_type ≠ NORMAL) of the market's listings under the license roots that are
 * the state at the end of some day of [from, to], with the days they cover (a..b, offsets) and the
 * promotion's price after price_type (as the roll-up).
 */
export async function selectPromoIntervals(
  db: Queryable,
  q: { from: string; to: string; sellers: number[]; roots: number[]; zone: string },
): Promise<PromoIntervalRow[]> {
  const p = new Params();
  const { join, cols } = coveredDaysSql(p, q.from, q.to, q.zone);
  const sql = `
    select p.seller_id, x.currency, x.normal_price::float8 as normal_price,
           (case x.price_type when 'SALE' then x.sale_price when 'EXCLUSIVE' then x.exclusive_price
                              when 'BYQUANTITY' then x.byquantity_price end)::float8 as promo_price,
           ${cols}
      from products p
      join price_intervals x on x.product_id = p.id and ${join}
     where p.seller_id = any(${p.add(q.sellers, '::int[]')}) and x.price_type <> 'NORMAL'
       and ${rootsCond(p, 'p.classification_id', q.roots)}`;
  const { rows } = await db.query<PromoIntervalRow>(sql, p.values);
  return rows;
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
  q: { sellers: number[]; roots: number[]; from: string; to: string; previousFrom: string; zone: string },
): Promise<EventCounts> {
  const p = new Params();
  const z = p.add(q.zone, '::text');
  const start = (d: string) => `vigia_day_start(${p.add(d, '::date')}, ${z})`;
  const ps = start(q.previousFrom);
  const cs = start(q.from);
  const ce = `vigia_day_start(${p.add(q.to, '::date')} + 1, ${z})`;
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
 * The first day (in `zone`, yyyy-MM-dd) any listing of `sellers` was seen: when monitoring began for the
 * scope; null without listings. One index probe per seller on products (seller, first_seen).
 */
export async function selectMonitoringSince(
  db: Queryable,
  sellers: number[],
  zone: string,
): Promise<string | null> {
  const { rows } = await db.query<{ since: string | null }>(
    `select vigia_day(min(m), $2::text)::text as since
       from (select (select min(p.first_seen) from products p where p.seller_id = s) as m
               from unnest($1::int[]) as s) x`,
    [sellers, zone],
  );
  return rows[0]?.since ?? null;
}

export interface DiscountRow {
  monetary: number | null;
  buckets: { bucket: number; n: number }[] | null;
}

/**
 * Discounts of the market now (the per-scope form; the dashboard sums per-seller answers of
 * selectCurrentSellerDiscounts instead, dashboard-state.test.ts compares both), over promoted listings (price_type ≠ NORMAL) with a discount %
 * (vigia_discount_pct: 0 < promotion price < normal price): the average (normal − promotion price) in
 * the target currency, and the histogram of their discount buckets (vigia_discount_bucket, the nearest
 * multiple of 5). Both functions: migrations/050_market_formulas.sql.
 */
export async function selectCurrentDiscounts(
  db: Queryable,
  q: { sellers: number[]; roots: number[]; rates: Rates },
): Promise<DiscountRow> {
  const p = new Params();
  const sql = `
    with ${ratesSql(p, q.rates)},
    d as (
      select (s.normal_price - s.promo_price) * r.f as amount,
             vigia_discount_pct(s.normal_price, s.promo_price) as pct
        from (${currentStateSql(p, q.sellers)}) s
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

export interface SellerDiscountRow {
  currency: string;
  bucket: number;
  n: number;
  /** sum of (normal − promotion price) in `currency` */
  amount: number;
}

/**
 * One seller's discounts now (the listings selectCurrentDiscounts counts), per listing currency and
 * discount bucket: how many and the sum of their amounts — a selection's figures are sums over its
 * sellers (service.ts currentDay), each seller's kept until its data changes. From listing_current
 * alone (its published flag and classification are the listing's: ingest keeps them with products),
 * an index-only scan of the seller's promoted listings (migration 510) with each one's discount bucket
 * stored when it was written (migration 520: vigia_discount_bucket of vigia_discount_pct; null without a
 * discount).
 */
export async function selectCurrentSellerDiscounts(
  db: Queryable,
  q: { seller: number; roots: number[] },
): Promise<SellerDiscountRow[]> {
  const p = new Params();
  const sql = `
    select lc.currency, lc.discount_bucket as bucket, count(*)::int as n,
           sum((lc.normal_price - case lc.price_type when 'SALE' then lc.sale_price
                                                     when 'EXCLUSIVE' then lc.exclusive_price
                                                     when 'BYQUANTITY' then lc.byquantity_price end)::float8)::float8 as amount
      from listing_current lc
     where lc.seller_id = ${p.add(q.seller, '::int')} and lc.published and lc.price_type <> 'NORMAL'
       and lc.discount_bucket is not null
       and ${rootsCond(p, 'lc.classification_id', q.roots)}
     group by 1, 2`;
  const { rows } = await db.query<SellerDiscountRow>(sql, p.values);
  return rows.map((r) => ({ ...r, bucket: Number(r.bucket) }));
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
  // The page is chosen on products alone, then only its rows are joined: with the joins inside, a common
  // word (thousands of matches) made PostgreSQL hash-join the matches with the whole listing_current
  // (1.15 M rows on the large market, ~0.3–0.6 s) rather than probe it per row (issue 30, twelfth session).
  const sql = `
    select p.id, p.product_id, p.seller_id, p.name, p.sku, p.ean, b.name as brand, p.image_url as image,
           lc.effective_price, coalesce(lc.currency, s.currency) as currency
      from (select p.id, p.product_id, p.seller_id, p.name, p.sku, p.ean, p.brand_id, p.image_url,
                   (lower(p.sku) = lower(${exact}) or p.ean = ${exact} or lower(p.product_id) = lower(${exact})) as code,
                   (p.name_key like ${prefix}) as starts
              from products p
             where p.seller_id = ${p.add(q.pivot, '::int')} and p.published
               and ${rootsCond(p, 'p.classification_id', q.roots)}
               and ${wordsMatch(p, q.words)}
             order by code desc, starts desc, p.name nulls last, p.id
             limit ${p.add(q.limit, '::int')}) p
      join sellers s on s.id = p.seller_id
      left join brands b on b.id = p.brand_id
      left join listing_current lc on lc.product_id = p.id
     order by p.code desc, p.starts desc, p.name nulls last, p.id`;
  const { rows } = await db.query<QuickFindRow>(sql, p.values);
  return rows;
}

export interface FiguresScope {
  pivot: number;
  competitors: number[];
  roots: number[];
  currency: string;
  /** the zone of the days (ingest zones.ts dayZone of the organisation's market zone) */
  zone: string;
}

/** Figures of closed days of [from, to] already computed for a scope (dashboard_day_figures). */
export async function selectStoredDays<T>(
  db: Queryable,
  k: FiguresScope & { from: string; to: string },
): Promise<Map<string, T>> {
  const { rows } = await db.query<{ day: string; figures: T }>(
    `select to_char(day, 'YYYY-MM-DD') as day, figures from dashboard_day_figures
      where pivot_id = $1 and competitors = $2::int[] and roots = $3::int[] and currency = $4
        and day between $5::date and $6::date and zone = $7`,
    [k.pivot, k.competitors, k.roots, k.currency, k.from, k.to, k.zone],
  );
  return new Map(rows.map((r) => [r.day, r.figures]));
}

export async function insertStoredDays(
  db: Queryable,
  k: FiguresScope,
  days: { day: string; figures: object }[],
): Promise<void> {
  if (!days.length) return;
  await db.query(
    `insert into dashboard_day_figures (pivot_id, competitors, roots, currency, zone, day, figures)
     select $1, $2::int[], $3::int[], $4, $7, d.day, d.figures
       from unnest($5::date[], $6::jsonb[]) as d(day, figures)
     on conflict do nothing`,
    [
      k.pivot,
      k.competitors,
      k.roots,
      k.currency,
      days.map((d) => d.day),
      days.map((d) => JSON.stringify(d.figures)),
      k.zone,
    ],
  );
}
