-- Promotions read model (modules/promotions/rollup.ts, registered with registerRollup 'promotions';
-- definitions in docs/metrics.md "Promotions"). The promotion screens read these two tables only,
-- never price_intervals.
--
-- promo_daily: per (seller, classification node, Santiago day) the day's listing counts of the node's
-- subtree: rollup_daily_brand summed over brands and over the leaves under the node (every level of the
-- tree has its rows), rewritten for the run's (seller, day) right after the daily roll-up. A question
-- about a few nodes over 180 days reads sellers × nodes × 180 rows, whatever the catalogue's size.
create table promo_daily (
  seller_id           integer not null,
  day                 date not null,
  classification_id   integer not null, -- a v2_classification node (its whole subtree); unclassified listings have no rows
  published           integer not null, -- listings published at the day's last run
  promoted            integer not null, -- of those, price_type SALE, EXCLUSIVE or BYQUANTITY
  promoted_sale       integer not null,
  promoted_exclusive  integer not null,
  promoted_byquantity integer not null
);
create unique index promo_daily_key on promo_daily (seller_id, classification_id, day);

-- promo_spans: one row per promotion = a maximal run of consecutive Santiago days on which a listing's
-- state at its seller's last run of the day was published with the same promotion price type.
-- A day without a run of the seller carries the previous state. A type change ends a promotion and
-- starts another; unpublishing ends it.
create table promo_spans (
  id                 bigserial primary key,
  product_id         bigint not null,   -- products.id (no foreign key: written at ingest, like price_intervals)
  seller_id          integer not null,
  classification_id  integer,           -- the listing's leaf when the promotion started
  price_type         text not null check (price_type in ('SALE', 'EXCLUSIVE', 'BYQUANTITY')),
  first_day          date not null,
  last_day           date,              -- null: still on promotion at the seller's latest run
  normal_price       numeric(14,2),     -- prices when the promotion started, in `currency`
  promo_price        numeric(14,2),     -- the price after price_type (sale, exclusive or by-quantity unit price)
  currency           text not null
);
create index promo_spans_open_idx on promo_spans (product_id) where last_day is null;
create index promo_spans_product_idx on promo_spans (product_id, last_day);
create index promo_spans_scope_idx on promo_spans (seller_id, classification_id, first_day);

-- Deleting products deletes their promotions too (as for price_intervals, migration 045).
create function products_delete_promo_spans() returns trigger language plpgsql as $$
begin
  delete from promo_spans where product_id in (select id from gone);
  return null;
end
$$;
create trigger products_delete_promo_spans after delete on products
  referencing old table as gone for each statement execute function products_delete_promo_spans();

-- Backfill from what is already stored (a database loaded before this migration): the daily counts from
-- rollup_daily_brand, the promotions from the price history (the recomputation of
-- modules/promotions/check.ts, RECOMPUTE_SPANS, for every seller, with the run days indexed).
insert into promo_daily (seller_id, day, classification_id, published, promoted, promoted_sale, promoted_exclusive,
                         promoted_byquantity)
select r.seller_id, r.day, node, sum(r.published), sum(r.promoted), sum(r.promoted_sale), sum(r.promoted_exclusive),
       sum(r.promoted_byquantity)
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 group by r.seller_id, r.day, node having sum(r.published) > 0;

-- The seller's last succeeded run of each day, numbered per seller (an index, so that each interval
-- finds the run days it covers by a range probe).
create temp table promo_backfill_runs on commit drop as
select seller_id, day, t, row_number() over (partition by seller_id order by day) as rn
  from (select seller_id, (observed_at at time zone 'America/Santiago')::date as day, max(observed_at) as t
          from ingest_runs where status = 'succeeded' group by 1, 2) x;
create index on promo_backfill_runs (seller_id, t);
create index on promo_backfill_runs (seller_id, rn);
analyze promo_backfill_runs;

insert into promo_spans (product_id, seller_id, classification_id, price_type, first_day, last_day, normal_price,
                         promo_price, currency)
-- recompute-spans:begin (modules/promotions/check.ts reads this query, with its own promo_backfill_runs)
with iv as (
  select pi.product_id, p.seller_id, p.classification_id, pi.price_type, pi.normal_price,
         case pi.price_type when 'SALE' then pi.sale_price when 'EXCLUSIVE' then pi.exclusive_price
                            when 'BYQUANTITY' then pi.byquantity_price end as promo_price, pi.currency,
         (select r.rn from promo_backfill_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to) order by r.t limit 1) as rn0,
         (select r.rn from promo_backfill_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to) order by r.t desc limit 1) as rn1
    from price_intervals pi join products p on p.id = pi.product_id
   where pi.price_type <> 'NORMAL'
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
select s.product_id, s.seller_id, s.classification_id, s.price_type, r0.day as first_day, rn.day - 1 as last_day,
       s.normal_price, s.promo_price, s.currency
  from spans s
  join promo_backfill_runs r0 on r0.seller_id = s.seller_id and r0.rn = s.rn0
  left join promo_backfill_runs rn on rn.seller_id = s.seller_id and rn.rn = s.rn1 + 1
-- recompute-spans:end
;
