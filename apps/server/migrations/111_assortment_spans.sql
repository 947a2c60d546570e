-- Assortment read model (modules/assortment/rollup.ts, registered with registerRollup 'assortment';
-- definitions in docs/metrics.md "Assortment", "Read models"). The assortment drill-downs
-- (/v1/assortment/{brand,ecommerce,stock}/products) read this table, never price_intervals, except for
-- the return / previous in-stock date of the ≤ page-size rows of a stock-event page.
--
-- assortment_spans: one row per maximal run of consecutive Santiago days on which a listing's state at its
-- seller's last succeeded run of the day was published with the same (currency, effective price, price
-- type, stock, out-of-stock day). A day without a run of the seller carries the previous state (so the
-- span covering day X is the listing's state at the seller's last run on or before X). An unpublished
-- listing has no span for those days. A change of state ends a span the day before the run's day and
-- starts another on it; a later run of the same day rewrites (or merges back) the day's span: the day's
-- last run decides, as in rollup_daily_brand.
--
-- State (part of the span's identity):
--   currency, effective_price   the interval's currency and lowest of normal/sale/exclusive > 0
--   price_type, stock_out
--   out_day                     when stock_out: the Santiago day the listing's last in-stock interval
--                               before the state ended (never in stock: the day it was first seen);
--                               null when in stock
-- Transition:
--   prev_stock_out              stock_out of the span that ends the day before first_day (null: none, i.e.
--                               the listing was not published at the seller's previous run). A span with
--                               stock_out and prev_stock_out = false is a "went out of stock" event on
--                               first_day; not stock_out and prev_stock_out = true a "back in stock" one:
--                               exactly the events rollup_daily_brand counts (published at the day's last
--                               run, out/in then, in/out in the interval covering the day's start).
-- Listing attributes (the listing's present ones, rewritten on every span of a listing ingest touches
-- when they change; they are sort and filter keys, as products' columns were for the drill-downs):
--   brand_id, classification_id, name_key = lower(coalesce(products.name, '')),
--   brand_key = lower(coalesce(brands.name, 'Sin marca'))
-- last_day = 'infinity': the span is still the listing's state at the seller's latest run (open).
create table assortment_spans (
  product_id         bigint not null,   -- products.id (no foreign key: written at ingest, like price_intervals)
  seller_id          integer not null,
  first_day          date not null,
  last_day           date not null default 'infinity',
  brand_id           integer,
  classification_id  integer,
  name_key           text not null,
  brand_key          text not null,
  currency           text not null,
  effective_price    numeric(14,2),
  price_type         text not null,
  stock_out          boolean not null,
  out_day            date,
  prev_stock_out     boolean,
  primary key (product_id, first_day),
  check (last_day >= first_day)
);
-- A drill-down page is, per seller, an index range scan in the sort's order, stopped after page × size
-- rows of the list (valid on the day: last_day ≥ X and first_day ≤ X; out of stock; an event of the
-- period) — the list's and the restriction's conditions are checked on the index tuples, without reading
-- the table; the pages of the sellers are merged.
create index assortment_spans_price_idx on assortment_spans
  (seller_id, currency, effective_price, product_id, last_day, first_day, classification_id, brand_id, stock_out,
   prev_stock_out);
create index assortment_spans_name_idx on assortment_spans
  (seller_id, name_key, product_id, last_day, first_day, classification_id, brand_id, stock_out, prev_stock_out);
create index assortment_spans_brand_key_idx on assortment_spans
  (seller_id, brand_key, product_id, last_day, first_day, classification_id, brand_id, stock_out, prev_stock_out);
create index assortment_spans_id_idx on assortment_spans
  (seller_id, product_id, last_day, first_day, classification_id, brand_id, stock_out, prev_stock_out);
-- By date: the listings out of stock on a day by the day they went out, the events of a period by day.
create index assortment_spans_out_idx on assortment_spans
  (seller_id, out_day, product_id, last_day, first_day, classification_id, brand_id) where stock_out;
create index assortment_spans_events_idx on assortment_spans
  (seller_id, stock_out, first_day, product_id, classification_id, brand_id) where stock_out <> prev_stock_out;
-- A brand's listings (drill-down of a brand row, brand filters); the listings of some classifications on a
-- day (a list's total under a classification restriction).
create index assortment_spans_brand_idx on assortment_spans (seller_id, brand_id, last_day, first_day);
create index assortment_spans_class_idx on assortment_spans
  (seller_id, classification_id, last_day, first_day, stock_out);
alter table assortment_spans set (fillfactor = 80);

-- Deleting products deletes their spans too (as for price_intervals, migration 045).
create function products_delete_assortment_spans() returns trigger language plpgsql as $$
begin
  delete from assortment_spans where product_id in (select id from gone);
  return null;
end
$$;
create trigger products_delete_assortment_spans after delete on products
  referencing old table as gone for each statement execute function products_delete_assortment_spans();

-- Backfill from the price history (a database loaded before this migration): the recomputation of
-- modules/assortment/check.ts, for every seller. The seller's last succeeded run of each day, numbered
-- per seller and indexed, so that each interval finds the run days it covers by a range probe.
create temp table assortment_backfill_runs on commit drop as
select seller_id, day, t, row_number() over (partition by seller_id order by day) as rn
  from (select seller_id, (observed_at at time zone 'America/Santiago')::date as day, max(observed_at) as t
          from ingest_runs where status = 'succeeded' group by 1, 2) x;
create index on assortment_backfill_runs (seller_id, t);
create index on assortment_backfill_runs (seller_id, rn);
analyze assortment_backfill_runs;

insert into assortment_spans (product_id, seller_id, first_day, last_day, brand_id, classification_id, name_key,
                              brand_key, currency, effective_price, price_type, stock_out, out_day, prev_stock_out)
-- recompute-spans:begin (modules/assortment/check.ts reads this query, with its own assortment_backfill_runs)
with iv as (
  select pi.product_id, p.seller_id, pi.currency,
         least(case when pi.normal_price > 0 then pi.normal_price end,
               case when pi.sale_price > 0 then pi.sale_price end,
               case when pi.exclusive_price > 0 then pi.exclusive_price end) as effective_price,
         pi.price_type, pi.stock_out,
         case when pi.stock_out then
           (coalesce(max(case when not pi.stock_out then pi.valid_to end)
                       over (partition by pi.product_id order by pi.valid_from rows between unbounded preceding and 1 preceding),
                     p.first_seen) at time zone 'America/Santiago')::date
         end as out_day,
         (select r.rn from assortment_backfill_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to) order by r.t limit 1) as rn0,
         (select r.rn from assortment_backfill_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
             and (pi.valid_to is null or r.t < pi.valid_to) order by r.t desc limit 1) as rn1
    from price_intervals pi join products p on p.id = pi.product_id
),
w as (
  select *,
         (lag(rn1) over o + 1 = rn0
          and lag(currency) over o = currency
          and lag(effective_price) over o is not distinct from effective_price
          and lag(price_type) over o = price_type
          and lag(stock_out) over o = stock_out
          and lag(out_day) over o is not distinct from out_day) as same
    from iv where rn0 is not null window o as (partition by product_id order by rn0)
),
g as (
  select *, sum(case when same then 0 else 1 end) over (partition by product_id order by rn0) as grp from w
),
spans as (
  select product_id, seller_id, grp, min(rn0) as rn0, max(rn1) as rn1, min(currency) as currency,
         min(effective_price) as effective_price, min(price_type) as price_type, bool_and(stock_out) as stock_out,
         min(out_day) as out_day
    from g group by product_id, seller_id, grp
),
linked as (
  select s.*, case when lag(rn1) over o + 1 = rn0 then lag(stock_out) over o end as prev_stock_out
    from spans s window o as (partition by product_id order by rn0)
)
select s.product_id, s.seller_id, r0.day as first_day, coalesce(rn.day - 1, 'infinity'::date) as last_day,
       p.brand_id, p.classification_id, lower(coalesce(p.name, '')) as name_key,
       lower(coalesce(b.name, 'Sin marca')) as brand_key, s.currency, s.effective_price, s.price_type, s.stock_out,
       s.out_day, s.prev_stock_out
  from linked s
  join products p on p.id = s.product_id
  left join brands b on b.id = p.brand_id
  join assortment_backfill_runs r0 on r0.seller_id = s.seller_id and r0.rn = s.rn0
  left join assortment_backfill_runs rn on rn.seller_id = s.seller_id and rn.rn = s.rn1 + 1
-- recompute-spans:end
;
analyze assortment_spans;
