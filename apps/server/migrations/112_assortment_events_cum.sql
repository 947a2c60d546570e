-- Assortment: cumulative availability-change events (modules/assortment/rollup.ts, roll-up 'assortment';
-- docs/metrics.md "Assortment"). The tables' went_out_of_stock / back_in_stock of a period were the sum of
-- rollup_daily_brand's events over every day of the period (medium market, 12 sellers × 60 days: 92,000
-- rows read per question); with running totals, a period's events of a group are the total at the
-- period's last run day minus the total at the last run day before it: three rows per group and seller.
--
-- assortment_events_cum: per seller and roll-up group (classification, brand) that has had an event, on
-- every day with a roll-up of the seller from the group's first event on: the sums of
-- rollup_daily_brand.went_out_of_stock / back_in_stock of the group over the seller's days up to that day.
-- Rewritten for the run's (seller, day) after the daily roll-up: the previous day's totals plus the day's
-- events (ingest is forward-only: the run's day is the seller's latest).
create table assortment_events_cum (
  seller_id          integer not null,
  day                date not null,
  classification_id  integer,
  brand_id           integer,
  went_out_cum       integer not null,
  back_in_cum        integer not null
);
create unique index assortment_events_cum_key on assortment_events_cum (seller_id, day, classification_id, brand_id)
  nulls not distinct;

-- Backfill from rollup_daily_brand (the recomputation of modules/assortment/check.ts).
insert into assortment_events_cum (seller_id, day, classification_id, brand_id, went_out_cum, back_in_cum)
-- recompute-cum:begin (modules/assortment/check.ts reads this query)
with days as (select distinct seller_id, day from rollup_daily_brand),
ev as (
  select seller_id, day, classification_id, brand_id, went_out_of_stock as wo, back_in_stock as bk
    from rollup_daily_brand where went_out_of_stock > 0 or back_in_stock > 0
),
keys as (
  select seller_id, classification_id, brand_id, min(day) as first_day from ev group by 1, 2, 3
)
select k.seller_id, d.day, k.classification_id, k.brand_id,
       sum(coalesce(ev.wo, 0)) over w as went_out_cum, sum(coalesce(ev.bk, 0)) over w as back_in_cum
  from keys k
  join days d on d.seller_id = k.seller_id and d.day >= k.first_day
  left join ev on ev.seller_id = k.seller_id and ev.day = d.day
              and coalesce(ev.classification_id, -1) = coalesce(k.classification_id, -1)
              and coalesce(ev.brand_id, -1) = coalesce(k.brand_id, -1)
window w as (partition by k.seller_id, k.classification_id, k.brand_id order by d.day)
-- recompute-cum:end
;
analyze assortment_events_cum;
