import type pg from 'pg';

// An independent recomputation of the promotions read model (promo_spans, promo_daily) from the price
// history (price_intervals and ingest_runs), for the tests and as an operations check. Definitions:
// migrations/100_promotions.sql and docs/metrics.md "Promotions".
//
// A day's state of a listing is the interval covering its seller's last succeeded run of that day
// (none: unpublished). Each promotion interval covers a contiguous set of the seller's run days; runs of
// covered run days of the same type that follow each other (no run day between) form one promotion,
// which ends the day before the next run day, or is still open when it reaches the seller's last run day.

const RUNS = `
runs as (
  select seller_id, day, t, row_number() over (partition by seller_id order by day) as rn
    from (select seller_id, (observed_at at time zone 'America/Santiago')::date as day, max(observed_at) as t
            from ingest_runs where status = 'succeeded' and ($1::int is null or seller_id = $1)
           group by 1, 2) x
)`;

export const RECOMPUTE_SPANS = `
with ${RUNS},
iv as (
  select pi.product_id, p.seller_id, p.classification_id, pi.price_type, pi.valid_from, pi.normal_price,
         case pi.price_type when 'SALE' then pi.sale_price when 'EXCLUSIVE' then pi.exclusive_price
                            when 'BYQUANTITY' then pi.byquantity_price end as promo_price, pi.currency,
         (select min(rn) from runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to)) as rn0,
         (select max(rn) from runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to)) as rn1
    from price_intervals pi join products p on p.id = pi.product_id
   where pi.price_type <> 'NORMAL' and ($1::int is null or p.seller_id = $1)
),
w as (
  select *, lag(price_type) over o as prev_type, lag(rn1) over o as prev_rn1
    from iv where rn0 is not null window o as (partition by product_id order by rn0)
),
g as (
  select *, sum(case when prev_type = price_type and prev_rn1 + 1 = rn0 then 0 else 1 end)
              over (partition by product_id order by rn0) as grp
    from w
),
spans as (
  select product_id, seller_id, price_type, min(rn0) as rn0, max(rn1) as rn1,
         (array_agg(classification_id order by rn0))[1] as classification_id,
         (array_agg(normal_price order by rn0))[1] as normal_price,
         (array_agg(promo_price order by rn0))[1] as promo_price,
         (array_agg(currency order by rn0))[1] as currency
    from g group by product_id, seller_id, price_type, grp
)
select s.product_id::int as product_id, s.seller_id, s.classification_id, s.price_type,
       r0.day::text as first_day, (rn.day - 1)::text as last_day,
       s.normal_price::float8 as normal_price, s.promo_price::float8 as promo_price, s.currency
  from spans s
  join runs r0 on r0.seller_id = s.seller_id and r0.rn = s.rn0
  left join runs rn on rn.seller_id = s.seller_id and rn.rn = s.rn1 + 1`;

const STORED_SPANS = `
select product_id::int as product_id, seller_id, classification_id, price_type, first_day::text as first_day,
       last_day::text as last_day, normal_price::float8 as normal_price, promo_price::float8 as promo_price, currency
  from promo_spans where ($1::int is null or seller_id = $1)`;

const RECOMPUTE_DAILY = `
select r.seller_id, r.day::text as day, node as classification_id, sum(r.published)::int as published,
       sum(r.promoted)::int as promoted, sum(r.promoted_sale)::int as promoted_sale,
       sum(r.promoted_exclusive)::int as promoted_exclusive, sum(r.promoted_byquantity)::int as promoted_byquantity
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 where ($1::int is null or r.seller_id = $1)
 group by 1, 2, 3 having sum(r.published) > 0`;

const STORED_DAILY = `
select seller_id, day::text as day, classification_id, published, promoted, promoted_sale, promoted_exclusive,
       promoted_byquantity
  from promo_daily where ($1::int is null or seller_id = $1)`;

export interface PromotionMismatch {
  table: 'promo_spans' | 'promo_daily';
  side: 'stored' | 'recomputed';
  row: Record<string, unknown>;
}

async function diff(
  db: pg.Pool | pg.PoolClient,
  table: PromotionMismatch['table'],
  stored: string,
  recomputed: string,
  sellerId: number | null,
): Promise<PromotionMismatch[]> {
  const { rows } = await db.query<{ side: 'stored' | 'recomputed'; row: Record<string, unknown> }>(
    `with stored as (${stored}), recomputed as (select * from (${recomputed}) x)
     select 'stored' as side, to_jsonb(a) as row from (select * from stored except all select * from recomputed) a
     union all
     select 'recomputed', to_jsonb(b) from (select * from recomputed except all select * from stored) b
     order by 2`,
    [sellerId],
  );
  return rows.map((r) => ({ table, ...r }));
}

/**
 * Rows of promo_spans and promo_daily that differ from their recomputation (empty = consistent). The
 * daily table is checked against rollup_daily_brand, itself checked against the history by
 * ingest/rollups-check.ts.
 */
export async function checkPromotions(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
): Promise<PromotionMismatch[]> {
  return [
    ...(await diff(db, 'promo_spans', STORED_SPANS, RECOMPUTE_SPANS, sellerId ?? null)),
    ...(await diff(db, 'promo_daily', STORED_DAILY, RECOMPUTE_DAILY, sellerId ?? null)),
  ];
}
