import type pg from 'pg';
import { TZ_SQL } from '../market/index.js';

// An independent recomputation of rollup_daily_brand from the price history alone (price_intervals,
// ingest_runs and products.first_seen), used by the tests and usable as an operations check after a
// bulk repair: every (seller, day with a succeeded run) row must equal what the history says.
//
// Definitions (migrations/010_rollups.sql): t = the seller's last succeeded run of the day; a listing is
// published at t when an interval covers t; "before the day" = the interval covering the day's start.

const RECOMPUTE = `
with runs as (
  select seller_id, vigia_day(observed_at, ${TZ_SQL}) as day, max(observed_at) as t
    from ingest_runs where status = 'succeeded' and ($1::int is null or seller_id = $1)
     and ($2::date is null or vigia_day(observed_at, ${TZ_SQL}) = $2::date)
   group by 1, 2
),
b as (
  select r.seller_id, r.day, r.t, s.currency,
         vigia_day_start(r.day, ${TZ_SQL}) as d0,
         vigia_day_start(r.day + 1, ${TZ_SQL}) as d1
    from runs r join sellers s on s.id = r.seller_id
),
listing as (
  select b.seller_id, b.day, b.currency, p.id, p.classification_id, p.brand_id,
         now_.price_type, now_.stock_out, now_.normal_price, now_.currency as cur,
         least(case when now_.normal_price > 0 then now_.normal_price end,
               case when now_.sale_price > 0 then now_.sale_price end,
               case when now_.exclusive_price > 0 then now_.exclusive_price end) as effective,
         case now_.price_type when 'SALE' then now_.sale_price when 'EXCLUSIVE' then now_.exclusive_price
                              when 'BYQUANTITY' then now_.byquantity_price end as promo,
         (now_.product_id is not null) as published,
         before.stock_out as before_stock_out,
         (first.valid_from >= b.d0 and first.valid_from < b.d1) as is_new,
         (now_.product_id is null and exists (
            select 1 from price_intervals e where e.product_id = p.id and e.valid_to >= b.d0 and e.valid_to <= b.t
         )) as gone
    from b
    join products p on p.seller_id = b.seller_id
    left join price_intervals now_ on now_.product_id = p.id and now_.valid_from <= b.t
                                  and (now_.valid_to is null or now_.valid_to > b.t)
    left join price_intervals before on before.product_id = p.id and before.valid_from < b.d0
                                    and (before.valid_to is null or before.valid_to >= b.d0)
    left join lateral (select min(valid_from) as valid_from from price_intervals f where f.product_id = p.id) first on true
)
select day::text as day, seller_id, classification_id, brand_id, currency,
       count(*) filter (where published)::int as published,
       count(*) filter (where published and not stock_out)::int as in_stock,
       count(*) filter (where published and price_type <> 'NORMAL')::int as promoted,
       count(*) filter (where published and price_type = 'SALE')::int as promoted_sale,
       count(*) filter (where published and price_type = 'EXCLUSIVE')::int as promoted_exclusive,
       count(*) filter (where published and price_type = 'BYQUANTITY')::int as promoted_byquantity,
       count(effective) filter (where published and cur = currency)::int as priced,
       coalesce(sum(effective) filter (where published and cur = currency), 0)::numeric(16,2) as effective_price_sum,
       count(normal_price) filter (where published and cur = currency)::int as normal_priced,
       coalesce(sum(normal_price) filter (where published and cur = currency), 0)::numeric(16,2) as normal_price_sum,
       count(vigia_discount_pct(normal_price, promo))
             filter (where published and price_type <> 'NORMAL' and cur = currency)::int as discounted,
       coalesce(sum(round(vigia_discount_pct(normal_price, promo), 4))
               filter (where published and price_type <> 'NORMAL' and cur = currency), 0)::numeric(14,4) as discount_pct_sum,
       count(*) filter (where is_new)::int as new_listings,
       count(*) filter (where gone)::int as unpublished,
       count(*) filter (where published and stock_out and before_stock_out = false)::int as went_out_of_stock,
       count(*) filter (where published and not stock_out and before_stock_out)::int as back_in_stock
  from listing
 where published or is_new or gone
 group by day, seller_id, classification_id, brand_id, currency`;

const COLUMNS = `day::text as day, seller_id, classification_id, brand_id, currency, published, in_stock, promoted,
  promoted_sale, promoted_exclusive, promoted_byquantity, priced, effective_price_sum, normal_priced,
  normal_price_sum, discounted, round(discount_pct_sum, 4)::numeric(14,4) as discount_pct_sum, new_listings,
  unpublished, went_out_of_stock, back_in_stock`;

export interface RollupMismatch {
  side: 'stored' | 'recomputed';
  row: Record<string, unknown>;
}

/**
 * Rows that differ between rollup_daily_brand and its recomputation from history (empty = consistent),
 * for one seller and one day (yyyy-MM-dd) when given. The recomputation groups every day by the
 * listings' present classification and brand: after a listing changed either, only the days since agree.
 */
export async function checkDailyRollups(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
  day?: string,
): Promise<RollupMismatch[]> {
  const { rows } = await db.query(
    `with recomputed as (${RECOMPUTE}),
     stored as (select ${COLUMNS} from rollup_daily_brand
                 where ($1::int is null or seller_id = $1) and ($2::date is null or day = $2::date)),
     only_stored as (select * from stored except select * from recomputed),
     only_recomputed as (select * from recomputed except select * from stored)
     select 'stored' as side, to_jsonb(s) as row from only_stored s
     union all
     select 'recomputed', to_jsonb(r) from only_recomputed r
     order by 2`,
    [sellerId ?? null, day ?? null],
  );
  return rows;
}

/** The recomputation itself (rows in the shape of rollup_daily_brand, without averages). */
export async function recomputeDailyRollups(db: pg.Pool | pg.PoolClient, sellerId?: number) {
  const { rows } = await db.query(`${RECOMPUTE} order by 1, 2, 3, 4`, [sellerId ?? null, null]);
  return rows;
}
