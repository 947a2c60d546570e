-- Issue 25: the assortment read model's days in every market zone in use, as the daily roll-up it reads
-- (migration 431). assortment_spans (migration 111) and assortment_events_cum (112) were kept once per
-- listing / seller, their days the deployment's; an organisation in another zone read Santiago's days on
-- the Surtido screens. Now both are keyed by `zone` and kept at ingest for every zone of rollup_zones
-- (modules/assortment/rollup.ts, once per zone: the run's day in that zone); a zone chosen for the first
-- time is rebuilt seller by seller by the 'rollup-zone' job (modules/ingest/zones.ts calls the
-- assortment's rebuild through the ingest registry: the spans from the price history with
-- assortment_recompute_spans below, the running totals from the zone's daily rows). The screens read the
-- zone dayZone answers (the organisation's once ready, else the deployment's), as the dashboard does.
-- The default is the deployment's zone: the rows written before zones were kept (and migrations 111 and
-- 112's backfills, which tests run again) are its rows.

alter table assortment_spans add column zone text not null default 'America/Santiago';
alter table assortment_events_cum add column zone text not null default 'America/Santiago';

alter table assortment_spans drop constraint assortment_spans_pkey;
alter table assortment_spans add primary key (product_id, zone, first_day);

-- the same indexes as migrations 111 and 113, with the zone after the seller (every list reads one
-- seller's spans of one zone)
drop index assortment_spans_price_idx;
create index assortment_spans_price_idx on assortment_spans
  (seller_id, zone, currency, effective_price, product_id, last_day, first_day, classification_id, brand_id,
   stock_out, prev_stock_out);
drop index assortment_spans_name_idx;
create index assortment_spans_name_idx on assortment_spans
  (seller_id, zone, name_key, product_id, last_day, first_day, classification_id, brand_id, stock_out,
   prev_stock_out);
drop index assortment_spans_brand_key_idx;
create index assortment_spans_brand_key_idx on assortment_spans
  (seller_id, zone, brand_key, product_id, last_day, first_day, classification_id, brand_id, stock_out,
   prev_stock_out);
drop index assortment_spans_id_idx;
create index assortment_spans_id_idx on assortment_spans
  (seller_id, zone, product_id, last_day, first_day, classification_id, brand_id, stock_out, prev_stock_out);
drop index assortment_spans_out_idx;
create index assortment_spans_out_idx on assortment_spans
  (seller_id, zone, out_day, product_id, last_day, first_day, classification_id, brand_id) where stock_out;
drop index assortment_spans_events_idx;
create index assortment_spans_events_idx on assortment_spans
  (seller_id, zone, stock_out, first_day, product_id, classification_id, brand_id) where stock_out <> prev_stock_out;
drop index assortment_spans_brand_idx;
create index assortment_spans_brand_idx on assortment_spans (seller_id, zone, brand_id, last_day, first_day);
drop index assortment_spans_class_idx;
create index assortment_spans_class_idx on assortment_spans
  (seller_id, zone, classification_id, last_day, first_day, stock_out);
drop index assortment_spans_out_price_idx;
create index assortment_spans_out_price_idx on assortment_spans
  (seller_id, zone, currency, effective_price, product_id, last_day, first_day, classification_id, brand_id,
   prev_stock_out) where stock_out;
drop index assortment_spans_out_name_idx;
create index assortment_spans_out_name_idx on assortment_spans
  (seller_id, zone, name_key, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;
drop index assortment_spans_out_brand_key_idx;
create index assortment_spans_out_brand_key_idx on assortment_spans
  (seller_id, zone, brand_key, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;
drop index assortment_spans_out_id_idx;
create index assortment_spans_out_id_idx on assortment_spans
  (seller_id, zone, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;

drop index assortment_events_cum_key;
create unique index assortment_events_cum_key on assortment_events_cum
  (zone, seller_id, day, classification_id, brand_id) nulls not distinct;
drop index assortment_events_cum_counts_idx;
create index assortment_events_cum_counts_idx on assortment_events_cum (zone, seller_id, day)
  include (classification_id, brand_id, went_out_cum, back_in_cum);

-- The spans of zone p_zone recomputed from the price history, for seller p_seller (null: every seller):
-- migration 111's backfill query with the zone's days (its run days, the out-of-stock day). The zone's
-- rebuild (modules/assortment/rollup.ts) and the check (modules/assortment/check.ts) call it. The last
-- succeeded run of each seller's day is numbered per seller in an indexed temporary table, as in the
-- backfill, so that each interval finds the run days it covers by a range probe.
create function assortment_recompute_spans(p_seller integer, p_zone text)
returns table (product_id bigint, seller_id integer, first_day date, last_day date, brand_id integer,
               classification_id integer, name_key text, brand_key text, currency text,
               effective_price numeric, price_type text, stock_out boolean, out_day date, prev_stock_out boolean)
language plpgsql as $$
#variable_conflict use_column
begin
  drop table if exists assortment_zone_runs;
  create temp table assortment_zone_runs on commit drop as
  select x.seller_id, x.day, x.t, row_number() over (partition by x.seller_id order by x.day) as rn
    from (select ir.seller_id, vigia_day(ir.observed_at, p_zone) as day, max(ir.observed_at) as t
            from ingest_runs ir where ir.status = 'succeeded' and (p_seller is null or ir.seller_id = p_seller)
           group by 1, 2) x;
  create index on assortment_zone_runs (seller_id, t);
  create index on assortment_zone_runs (seller_id, rn);
  analyze assortment_zone_runs;
  return query
  with iv as (
    select pi.product_id, p.seller_id, pi.currency,
           least(case when pi.normal_price > 0 then pi.normal_price end,
                 case when pi.sale_price > 0 then pi.sale_price end,
                 case when pi.exclusive_price > 0 then pi.exclusive_price end) as effective_price,
           pi.price_type, pi.stock_out,
           case when pi.stock_out then
             vigia_day(coalesce(max(case when not pi.stock_out then pi.valid_to end)
                                  over (partition by pi.product_id order by pi.valid_from
                                        rows between unbounded preceding and 1 preceding),
                                p.first_seen), p_zone)
           end as out_day,
           (select r.rn from assortment_zone_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
               and (pi.valid_to is null or r.t < pi.valid_to) order by r.t limit 1) as rn0,
           (select r.rn from assortment_zone_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
               and (pi.valid_to is null or r.t < pi.valid_to) order by r.t desc limit 1) as rn1
      from price_intervals pi join products p on p.id = pi.product_id
     where p_seller is null or p.seller_id = p_seller
  ),
  w as (
    select iv.*,
           (lag(iv.rn1) over o + 1 = iv.rn0
            and lag(iv.currency) over o = iv.currency
            and lag(iv.effective_price) over o is not distinct from iv.effective_price
            and lag(iv.price_type) over o = iv.price_type
            and lag(iv.stock_out) over o = iv.stock_out
            and lag(iv.out_day) over o is not distinct from iv.out_day) as same
      from iv where iv.rn0 is not null window o as (partition by iv.product_id order by iv.rn0)
  ),
  g as (
    select w.*, sum(case when w.same then 0 else 1 end) over (partition by w.product_id order by w.rn0) as grp
      from w
  ),
  spans as (
    select g.product_id, g.seller_id, g.grp, min(g.rn0) as rn0, max(g.rn1) as rn1, min(g.currency) as currency,
           min(g.effective_price) as effective_price, min(g.price_type) as price_type,
           bool_and(g.stock_out) as stock_out, min(g.out_day) as out_day
      from g group by g.product_id, g.seller_id, g.grp
  ),
  linked as (
    select s.*, case when lag(s.rn1) over o + 1 = s.rn0 then lag(s.stock_out) over o end as prev_stock_out
      from spans s window o as (partition by s.product_id order by s.rn0)
  )
  select s.product_id::bigint, s.seller_id, r0.day, coalesce(rn.day - 1, 'infinity'::date),
         p.brand_id, p.classification_id, lower(coalesce(p.name, '')),
         lower(coalesce(b.name, 'Sin marca')), s.currency, s.effective_price::numeric, s.price_type, s.stock_out,
         s.out_day, s.prev_stock_out
    from linked s
    join products p on p.id = s.product_id
    left join brands b on b.id = p.brand_id
    join assortment_zone_runs r0 on r0.seller_id = s.seller_id and r0.rn = s.rn0
    left join assortment_zone_runs rn on rn.seller_id = s.seller_id and rn.rn = s.rn1 + 1;
end
$$;

analyze assortment_spans;
analyze assortment_events_cum;
