import type { AssortmentProductSort, AssortmentStockEvent } from '@vigia/domain';
import type { Queryable } from '../db/database.js';
import { Params } from '../db/sql.js';
import {
  brandCond,
  LISTING_COLUMNS,
  type ProductQuery,
  type ProductRow,
  ratesCte,
  selectionCond,
} from '../modules/assortment/queries.js';

// The assortment drill-downs as they were before the read model (migration 111): straight from the price
// history (price_intervals at each seller's last run of its day X) and listing_current. The tests compare
// the read model's answers (modules/assortment/queries.ts) with these on every sort, page, period and
// stock list: the speed work must not change an answer.

const ORDER: Record<AssortmentProductSort, string> = {
  name: "lower(coalesce(name, ''))",
  price: 'price',
  seller: 'lower(seller_name)',
  brand: 'lower(brand)',
  date: 'event_date',
};

function pageSql(q: ProductQuery, p: Params): string {
  const dir = q.dir === 'desc' ? 'desc' : 'asc';
  // (event_date last: a listing with two events in the period had them in any order; now by day)
  return `order by ${ORDER[q.sort]} ${dir} nulls last, id::bigint ${dir}, event_date ${dir}
          limit ${p.add(q.limit, '::int')} offset ${p.add(q.offset, '::int')}`;
}

/**
 * Per seller, the instant whose state its latest roll-up day ≤ `$to` describes (its last succeeded run
 * of that day) and whether that is its latest run at all (then listing_current holds that state).
 */
const END_STATE = (sellers: string, to: string, zone: string) => `
  ends as (
    select x.id as seller_id, d.day,
           (select max(ir.observed_at) from ingest_runs ir
             where ir.seller_id = x.id and ir.status = 'succeeded'
               and ir.observed_at >= vigia_day_start(d.day, ${zone})
               and ir.observed_at < vigia_day_start(d.day + 1, ${zone})) as t,
           d.day = (select max(r.day) from rollup_daily_brand r where r.zone = ${zone} and r.seller_id = x.id) as latest
      from unnest(${sellers}) as x(id)
      cross join lateral (select max(r.day) as day from rollup_daily_brand r
                           where r.zone = ${zone} and r.seller_id = x.id and r.day <= ${to}) d
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

/**
 * Listings published at the end of the period at the selection's sellers (by brand / by e-commerce
 * drill-down; also the stock variant's 'out': `outOnly`), with their effective price then.
 */
export async function referenceStateProducts(
  db: Queryable,
  q: ProductQuery & { outOnly?: boolean },
): Promise<ProductRow[]> {
  const p = new Params();
  const sellers = p.add(q.selection.sellers, '::int[]');
  const zone = p.add(q.selection.zone, '::text');
  const to = p.add(q.to, '::date');
  const cond = selectionCond(p, q.selection, 'st.classification_id', 'st.brand_id');
  const brands = brandCond(p, q.brandIds, 'st.brand_id');
  const toDay = p.add(q.to, '::date');
  // 'out': out of stock since the end of its last in-stock interval before the instant (else first seen)
  const outSince = `(select max(e.valid_to) from price_intervals e
                      where e.product_id = st.id and not e.stock_out and e.valid_to <= st.t)`;
  const sql = `
    with ${END_STATE(sellers, to, zone)}, ${ratesCte(p, q.rates)},
    rows as (
      select ${LISTING_COLUMNS},
             round((st.effective_price * r.f)::numeric, 2)::float8 as price, st.price_type, st.stock_out,
             ${q.outOnly ? `vigia_day(coalesce(${outSince}, p.first_seen), ${zone})` : 'null::date'} as out_day
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
export async function referenceStockEvents(
  db: Queryable,
  q: ProductQuery & { event: Exclude<AssortmentStockEvent, 'out'> },
): Promise<ProductRow[]> {
  const p = new Params();
  const sellers = p.add(q.selection.sellers, '::int[]');
  const zone = p.add(q.selection.zone, '::text');
  const from = p.add(q.from, '::date');
  const to = p.add(q.to, '::date');
  const cond = selectionCond(p, q.selection, 'p.classification_id', 'p.brand_id');
  const brands = brandCond(p, q.brandIds, 'p.brand_id');
  const wentOut = q.event === 'went_out';
  const sql = `
    with runs as (
      select ir.seller_id, vigia_day(ir.observed_at, ${zone}) as day, max(ir.observed_at) as t
        from ingest_runs ir
       where ir.seller_id = any(${sellers}) and ir.status = 'succeeded'
         and ir.observed_at >= vigia_day_start(${from}, ${zone})
         and ir.observed_at < vigia_day_start(${to} + 1, ${zone})
       group by 1, 2
    ),
    b as (select seller_id, day, t, vigia_day_start(day, ${zone}) as d0 from runs),
    -- every listing of the selection with an interval starting on a run day of the period. (The code
    -- before migration 111 looked only at the listings whose present classification and brand are those
    -- of a roll-up group with such an event that day: it missed the events of a listing re-classified or
    -- re-branded since. The definition, and the row's count, include them.)
    cand as (
      select distinct b.seller_id, b.day, b.t, b.d0, p.id
        from b join products p on p.seller_id = b.seller_id
       where ${cond} and ${brands}
         and exists (select 1 from price_intervals pi where pi.product_id = p.id
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
                 ? `(select vigia_day(min(x.valid_from), ${zone}) from price_intervals x
                      where x.product_id = ev.id and x.valid_from > ev.t and not x.stock_out)`
                 : `(select vigia_day(max(x.valid_to), ${zone}) from price_intervals x
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
