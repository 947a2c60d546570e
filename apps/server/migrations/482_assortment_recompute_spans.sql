-- Issue 25: a zone's assortment spans recomputed from the price history (migration 480 keeps them per
-- zone), in a file of its own: the function can be replaced without touching 480's keys and indexes.

-- The spans of zone p_zone recomputed from the price history, for seller p_seller (null: every seller):
-- migration 111's backfill query with the zone's days (its run days, the out-of-stock day). The zone's
-- rebuild (modules/assortment/rollup.ts) and the check (modules/assortment/check.ts) call it. The last
-- succeeded run of each seller's day is numbered per seller in an indexed temporary table, as in the
-- backfill, so that each interval finds the run days it covers by a range probe.
create or replace function assortment_recompute_spans(p_seller integer, p_zone text)
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
  -- (EXECUTE: planned for this seller, not a generic plan for any)
  return query execute $q$
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
                                p.first_seen), $2)
           end as out_day,
           (select r.rn from assortment_zone_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
               and (pi.valid_to is null or r.t < pi.valid_to) order by r.t limit 1) as rn0,
           (select r.rn from assortment_zone_runs r where r.seller_id = p.seller_id and r.t >= pi.valid_from
               and (pi.valid_to is null or r.t < pi.valid_to) order by r.t desc limit 1) as rn1
      from price_intervals pi join products p on p.id = pi.product_id
     where $1::int is null or p.seller_id = $1
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
    left join assortment_zone_runs rn on rn.seller_id = s.seller_id and rn.rn = s.rn1 + 1
  $q$ using p_seller, p_zone;
end
$$;
