import type { AssortmentProductSort, AssortmentStockEvent } from '@vigia/domain';
import type { Queryable } from '../../db/database.js';
import { Params } from '../../db/sql.js';

// SQL of the assortment screens (docs/metrics.md "Assortment"). The figures come from the daily roll-up
// rollup_daily_brand (migrations/010_rollups.sql, kept at ingest by modules/ingest/rollups.ts): per seller
// its latest row on or before a day (a day without a run carries the previous state forward) and the
// stock events of the days of a period. The drill-downs list the listings behind a row: from
// listing_current when the period ends at the seller's latest run, else from the price history at the
// seller's last run of that day (the instant the roll-up row describes).

/** Which listings a question is about: sellers, and the classification/brand restrictions. */
export interface AssortmentSelection {
  sellers: number[];
  /** license's granted classification roots; empty = whole tree */
  roots: number[];
  classificationsIds?: number[];
  /** brand ids (filter) */
  brands?: number[];
  /** the license's own brands when ownBrands is set */
  ownBrands?: number[];
}

/** Conditions of a selection on a (classification_id, brand_id) pair of columns. */
function selectionCond(p: Params, s: AssortmentSelection, cls: string, brand: string): string {
  const out: string[] = [];
  if (s.roots.length)
    out.push(`${cls} in (select id from classifications where path && ${p.add(s.roots, '::int[]')})`);
  if (s.classificationsIds?.length)
    out.push(
      `${cls} in (select id from classifications where path && ${p.add(s.classificationsIds, '::int[]')})`,
    );
  if (s.brands?.length) out.push(`${brand} = any(${p.add(s.brands, '::int[]')})`);
  if (s.ownBrands) out.push(`${brand} = any(${p.add(s.ownBrands, '::int[]')})`);
  return out.length ? out.join(' and ') : 'true';
}

/** Per (seller, brand): the state at the end of both periods and the stock events within them. */
export interface AssortmentFigureRow {
  seller_id: number;
  brand_id: number | null;
  cur_published: number;
  cur_in_stock: number;
  cur_priced: number;
  /** in the seller's currency */
  cur_value: number;
  prev_published: number;
  prev_in_stock: number;
  prev_priced: number;
  prev_value: number;
  went_out: number;
  back_in: number;
  prev_went_out: number;
  prev_back_in: number;
}

export interface Periods {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
}

/**
 * The roll-up figures of a selection per (seller, brand): state at the end of the period (each seller's
 * latest roll-up day ≤ `to`) and of the previous period (≤ `previousTo`), events summed over the days of
 * each period. Reads only rollup_daily_brand (index (seller_id, day, classification_id, brand_id)).
 */
export async function selectAssortmentFigures(
  db: Queryable,
  s: AssortmentSelection,
  q: Periods,
): Promise<AssortmentFigureRow[]> {
  const p = new Params();
  const sellers = p.add(s.sellers, '::int[]');
  const to = p.add(q.to, '::date');
  const prevTo = p.add(q.previousTo, '::date');
  const from = p.add(q.from, '::date');
  const prevFrom = p.add(q.previousFrom, '::date');
  const cond = selectionCond(p, s, 'r.classification_id', 'r.brand_id');
  const sql = `
    with last as (
      select x.id as seller_id,
             (select max(r.day) from rollup_daily_brand r where r.seller_id = x.id and r.day <= ${to}) as cur_day,
             (select max(r.day) from rollup_daily_brand r where r.seller_id = x.id and r.day <= ${prevTo}) as prev_day
        from unnest(${sellers}) as x(id)
    ),
    parts as (
      select r.seller_id, r.brand_id, r.published as cp, r.in_stock as ci, r.priced as cpr,
             r.effective_price_sum as cv, 0 as pp, 0 as pi, 0 as ppr, 0::numeric as pv, 0 as wo, 0 as bk, 0 as pwo, 0 as pbk
        from last join rollup_daily_brand r on r.seller_id = last.seller_id and r.day = last.cur_day
       where ${cond}
      union all
      select r.seller_id, r.brand_id, 0, 0, 0, 0, r.published, r.in_stock, r.priced, r.effective_price_sum, 0, 0, 0, 0
        from last join rollup_daily_brand r on r.seller_id = last.seller_id and r.day = last.prev_day
       where ${cond}
      union all
      select r.seller_id, r.brand_id, 0, 0, 0, 0, 0, 0, 0, 0,
             case when r.day >= ${from} then r.went_out_of_stock else 0 end,
             case when r.day >= ${from} then r.back_in_stock else 0 end,
             case when r.day < ${from} then r.went_out_of_stock else 0 end,
             case when r.day < ${from} then r.back_in_stock else 0 end
        from rollup_daily_brand r
       where r.seller_id = any(${sellers}) and r.day >= ${prevFrom} and r.day <= ${to}
         and (r.went_out_of_stock > 0 or r.back_in_stock > 0) and ${cond}
    )
    select seller_id, brand_id,
           sum(cp)::int as cur_published, sum(ci)::int as cur_in_stock, sum(cpr)::int as cur_priced,
           sum(cv)::float8 as cur_value,
           sum(pp)::int as prev_published, sum(pi)::int as prev_in_stock, sum(ppr)::int as prev_priced,
           sum(pv)::float8 as prev_value,
           sum(wo)::int as went_out, sum(bk)::int as back_in, sum(pwo)::int as prev_went_out,
           sum(pbk)::int as prev_back_in
      from parts
     group by seller_id, brand_id`;
  const { rows } = await db.query<AssortmentFigureRow>(sql, p.values);
  return rows;
}

export interface SellerRow {
  id: number;
  name: string;
  color: string;
  currency: string;
}

export async function selectSellers(db: Queryable, ids: number[]): Promise<SellerRow[]> {
  const { rows } = await db.query<SellerRow>(
    'select id, name, color, currency from sellers where id = any($1::int[])',
    [ids],
  );
  return rows;
}

export async function selectBrandNames(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const { rows } = await db.query<{ id: number; name: string }>(
    'select id, name from brands where id = any($1::int[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Brand ids with this name (names are not unique; normalized_name is). */
export async function selectBrandIdsByName(db: Queryable, name: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('select id from brands where name = $1', [name]);
  return rows.map((r) => r.id);
}

// ───────────────────────────── drill-downs ─────────────────────────────

export interface ProductQuery {
  selection: AssortmentSelection;
  /** restrict to these brand ids; `null` inside = listings without brand; undefined = every brand */
  brandIds?: (number | null)[];
  to: string;
  from: string;
  /** currency → factor to the requested currency */
  rates: Map<string, number>;
  sort: AssortmentProductSort;
  dir: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ProductRow {
  id: string;
  product_id: string;
  sku: string | null;
  name: string | null;
  brand: string | null;
  seller_id: number;
  seller_name: string;
  color: string | null;
  url: string | null;
  image_url: string | null;
  price: number | null;
  price_type: string | null;
  stock_out: boolean | null;
  event_date: string | null;
  back_date: string | null;
  days_out: number | null;
  total: number;
}

function brandCond(p: Params, brandIds: (number | null)[] | undefined, col: string): string {
  if (!brandIds) return 'true';
  const ids = brandIds.filter((b): b is number => b !== null);
  const parts: string[] = [];
  if (ids.length) parts.push(`${col} = any(${p.add(ids, '::int[]')})`);
  if (brandIds.includes(null)) parts.push(`${col} is null`);
  return parts.length ? `(${parts.join(' or ')})` : 'false';
}

const ratesCte = (p: Params, rates: Map<string, number>) =>
  `rates(currency, f) as (select * from unnest(${p.add([...rates.keys()], '::text[]')}, ${p.add([...rates.values()], '::float8[]')}))`;

const ORDER: Record<AssortmentProductSort, string> = {
  name: "lower(coalesce(name, ''))",
  price: 'price',
  seller: 'lower(seller_name)',
  brand: 'lower(brand)',
  date: 'event_date',
};

function pageSql(q: ProductQuery, p: Params): string {
  const dir = q.dir === 'desc' ? 'desc' : 'asc';
  return `order by ${ORDER[q.sort]} ${dir} nulls last, id::bigint ${dir}
          limit ${p.add(q.limit, '::int')} offset ${p.add(q.offset, '::int')}`;
}

/**
 * Per seller, the instant whose state its latest roll-up day ≤ `$to` describes (its last succeeded run
 * of that day) and whether that is its latest run at all (then listing_current holds that state).
 */
const END_STATE = (sellers: string, to: string) => `
  ends as (
    select x.id as seller_id, d.day,
           (select max(ir.observed_at) from ingest_runs ir
             where ir.seller_id = x.id and ir.status = 'succeeded'
               and ir.observed_at >= (d.day::timestamp at time zone 'America/Santiago')
               and ir.observed_at < ((d.day + 1)::timestamp at time zone 'America/Santiago')) as t,
           d.day = (select max(r.day) from rollup_daily_brand r where r.seller_id = x.id) as latest
      from unnest(${sellers}) as x(id)
      cross join lateral (select max(r.day) as day from rollup_daily_brand r
                           where r.seller_id = x.id and r.day <= ${to}) d
     where d.day is not null
  ),
  state as (
    select p.id, p.seller_id, p.classification_id, p.brand_id, lc.effective_price, lc.price_type,
           lc.stock_out, lc.currency, e.t
      from ends e join listing_current lc on lc.seller_id = e.seller_id
      join products p on p.id = lc.product_id
     where e.latest and p.published
    union all
    select p.id, p.seller_id, p.classification_id, p.brand_id,
           least(case when pi.normal_price > 0 then pi.normal_price end,
                 case when pi.sale_price > 0 then pi.sale_price end,
                 case when pi.exclusive_price > 0 then pi.exclusive_price end),
           pi.price_type, pi.stock_out, pi.currency, e.t
      from ends e join products p on p.seller_id = e.seller_id
      join lateral (select * from price_intervals pi where pi.product_id = p.id and pi.valid_from <= e.t
                     order by pi.valid_from desc limit 1) pi on pi.valid_to is null or pi.valid_to > e.t
     where not e.latest
  )`;

const LISTING_COLUMNS = `p.id::text as id, p.product_id, p.sku, p.name, coalesce(b.name, 'Sin marca') as brand,
       p.seller_id, s.name as seller_name, s.color, p.url, p.image_url`;

/**
 * Listings published at the end of the period at the selection's sellers (by brand / by e-commerce
 * drill-down; also the stock variant's 'out': `outOnly`), with their effective price then.
 */
export async function selectStateProducts(
  db: Queryable,
  q: ProductQuery & { outOnly?: boolean },
): Promise<ProductRow[]> {
  const p = new Params();
  const sellers = p.add(q.selection.sellers, '::int[]');
  const to = p.add(q.to, '::date');
  const cond = selectionCond(p, q.selection, 'st.classification_id', 'st.brand_id');
  const brands = brandCond(p, q.brandIds, 'st.brand_id');
  const toDay = p.add(q.to, '::date');
  // 'out': out of stock since the end of its last in-stock interval before the instant (else first seen)
  const outSince = `(select max(e.valid_to) from price_intervals e
                      where e.product_id = st.id and not e.stock_out and e.valid_to <= st.t)`;
  const sql = `
    with ${END_STATE(sellers, to)}, ${ratesCte(p, q.rates)},
    rows as (
      select ${LISTING_COLUMNS},
             round((st.effective_price * r.f)::numeric, 2)::float8 as price, st.price_type, st.stock_out,
             ${q.outOnly ? `(coalesce(${outSince}, p.first_seen) at time zone 'America/Santiago')::date` : 'null::date'} as out_day
        from state st
        join products p on p.id = st.id
        join sellers s on s.id = st.seller_id
        left join brands b on b.id = st.brand_id
        left join rates r on r.currency = st.currency
       where ${cond} and ${brands} ${q.outOnly ? 'and st.stock_out' : ''}
    )
    select id, product_id, sku, name, brand, seller_id, seller_name, color, url, image_url, price, price_type,
           stock_out, out_day::text as event_date, null::text as back_date,
           case when out_day is not null then (${toDay} - out_day) end as days_out,
           count(*) over ()::int as total
      from rows
     ${pageSql(q, p)}`;
  const { rows } = await db.query<ProductRow>(sql, p.values);
  return rows;
}

/**
 * Availability-change events of the period (stock drill-down 'went_out' / 'back_in'), with the daily
 * roll-up's definition: on a day with a succeeded run of the seller, a listing published at the day's last
 * run, out of (in) stock then, and in (out of) stock in the interval covering the day's start. A listing
 * whose stock changed during a day has an interval starting within it, and its roll-up group (seller, day,
 * classification, brand) counts the event: the candidates are the listings of those groups with an
 * interval starting that day (primary key of price_intervals).
 */
export async function selectStockEvents(
  db: Queryable,
  q: ProductQuery & { event: Exclude<AssortmentStockEvent, 'out'> },
): Promise<ProductRow[]> {
  const p = new Params();
  const sellers = p.add(q.selection.sellers, '::int[]');
  const from = p.add(q.from, '::date');
  const to = p.add(q.to, '::date');
  const cond = selectionCond(p, q.selection, 'p.classification_id', 'p.brand_id');
  const brands = brandCond(p, q.brandIds, 'p.brand_id');
  const wentOut = q.event === 'went_out';
  const sql = `
    with runs as (
      select ir.seller_id, (ir.observed_at at time zone 'America/Santiago')::date as day, max(ir.observed_at) as t
        from ingest_runs ir
       where ir.seller_id = any(${sellers}) and ir.status = 'succeeded'
         and ir.observed_at >= (${from}::timestamp at time zone 'America/Santiago')
         and ir.observed_at < ((${to} + 1)::timestamp at time zone 'America/Santiago')
       group by 1, 2
    ),
    b as (select seller_id, day, t, (day::timestamp at time zone 'America/Santiago') as d0 from runs),
    -- the roll-up's groups (seller, day, classification, brand) with such an event (partial index of
    -- migration 110): only their listings are looked at, and only on those days
    groups as (
      select g.seller_id, g.day, coalesce(g.classification_id, 0) as cls, coalesce(g.brand_id, 0) as brand
        from rollup_daily_brand g
       where g.seller_id = any(${sellers}) and g.day >= ${from} and g.day <= ${to}
         and (g.went_out_of_stock > 0 or g.back_in_stock > 0)
         and g.${wentOut ? 'went_out_of_stock' : 'back_in_stock'} > 0
    ),
    -- the sellers' listings in the selection, read once (materialised: joined to the groups by hash, not
    -- re-read per group)
    prods as materialized (
      select p.id, p.seller_id, coalesce(p.classification_id, 0) as cls, coalesce(p.brand_id, 0) as brand
        from products p
       where p.seller_id = any(${sellers}) and ${cond} and ${brands}
    ),
    cand as (
      select distinct b.seller_id, b.day, b.t, b.d0, pr.id
        from groups g
        join b on b.seller_id = g.seller_id and b.day = g.day
        join prods pr on pr.seller_id = g.seller_id and pr.cls = g.cls and pr.brand = g.brand
       where exists (select 1 from price_intervals pi where pi.product_id = pr.id
                        and pi.valid_from >= b.d0 and pi.valid_from <= b.t)
    ),
    ev as (
      select c.*, now_.stock_out as now_out, now_.currency,
             least(case when now_.normal_price > 0 then now_.normal_price end,
                   case when now_.sale_price > 0 then now_.sale_price end,
                   case when now_.exclusive_price > 0 then now_.exclusive_price end) as effective,
             now_.price_type
        from cand c
        join lateral (select * from price_intervals x where x.product_id = c.id and x.valid_from <= c.t
                       order by x.valid_from desc limit 1) now_ on now_.valid_to is null or now_.valid_to > c.t
        join lateral (select * from price_intervals x where x.product_id = c.id and x.valid_from < c.d0
                       order by x.valid_from desc limit 1) before on before.valid_to is null or before.valid_to >= c.d0
       where ${wentOut ? 'now_.stock_out and not before.stock_out' : 'not now_.stock_out and before.stock_out'}
    ),
    ${ratesCte(p, q.rates)},
    rows as (
      select ${LISTING_COLUMNS},
             round((ev.effective * r.f)::numeric, 2)::float8 as price, ev.price_type, ev.now_out as stock_out,
             ev.day as event_day,
             ${
               wentOut
                 ? `(select (min(x.valid_from) at time zone 'America/Santiago')::date from price_intervals x
                      where x.product_id = ev.id and x.valid_from > ev.t and not x.stock_out)`
                 : `(select (max(x.valid_to) at time zone 'America/Santiago')::date from price_intervals x
                      where x.product_id = ev.id and x.valid_to <= ev.d0 and not x.stock_out)`
             } as other_day
        from ev
        join products p on p.id = ev.id
        join sellers s on s.id = p.seller_id
        left join brands b on b.id = p.brand_id
        left join rates r on r.currency = ev.currency
    )
    select id, product_id, sku, name, brand, seller_id, seller_name, color, url, image_url, price, price_type,
           stock_out, event_day::text as event_date,
           ${wentOut ? `case when other_day <= ${to} then other_day::text end` : 'null::text'} as back_date,
           ${
             wentOut
               ? `(case when other_day <= ${to} then other_day else ${to} end) - event_day`
               : 'case when other_day is not null then event_day - other_day end'
           } as days_out,
           count(*) over ()::int as total
      from rows
     ${pageSql({ ...q, sort: q.sort }, p).replace('event_date', 'event_day')}`;
  const { rows } = await db.query<ProductRow>(sql, p.values);
  return rows;
}

/** Changes whenever any seller's data changes (sellers.ingest_seq is bumped by every ingest run). */
export async function selectDataVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ v: string | null }>('select sum(ingest_seq) as v from sellers');
  return Number(rows[0].v ?? 0);
}
