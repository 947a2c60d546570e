-- Issue 25: the daily roll-up's days in every market zone in use. rollup_daily_brand was kept once per
-- seller, its days those of the deployment's zone; an organisation in another zone (organisations.
-- market_zone) read Santiago's days on its dashboard. Now its rows are keyed by `zone` and kept at ingest
-- for every zone of rollup_zones: the deployment's zone (always there, the only one by default: nothing
-- more is written or read) and each zone an organisation chose. A zone chosen for the first time is added
-- not ready; the 'rollup-zone' job (modules/ingest/zones.ts) recomputes its rows from the price history
-- seller by seller, then marks it ready; until then the screens of that organisation read the
-- deployment's zone (docs/architecture.md "Roll-ups per market zone").
--
-- The other read models built on the daily roll-up (promo_daily and the promotions' tables, the
-- assortment's spans and events) read the deployment zone's rows only (their own days are that zone's).

create table rollup_zones (
  zone         text primary key,
  ready        boolean not null default false,
  requested_at timestamptz not null default now()
);
insert into rollup_zones (zone, ready) values ('America/Santiago', true);
-- zones the organisations already chose (none but the default in a market that never changed it)
insert into rollup_zones (zone) select distinct market_zone from organisations on conflict do nothing;

alter table rollup_daily_brand add column zone text not null default 'America/Santiago';
alter table rollup_daily_brand alter column zone drop default;

drop index rollup_daily_brand_key;
create unique index rollup_daily_brand_key on rollup_daily_brand (zone, seller_id, day, classification_id, brand_id)
  nulls not distinct;
drop index rollup_daily_brand_stock_events_idx;
create index rollup_daily_brand_stock_events_idx
  on rollup_daily_brand (zone, seller_id, day)
  include (classification_id, brand_id, went_out_of_stock, back_in_stock)
  where went_out_of_stock > 0 or back_in_stock > 0;
drop index rollup_daily_brand_counts_idx;
create index rollup_daily_brand_counts_idx on rollup_daily_brand (zone, seller_id, day)
  include (classification_id, brand_id, published, in_stock, priced, effective_price_sum);

drop view rollup_daily;
create view rollup_daily as
select zone, day, seller_id, classification_id, currency,
       sum(published)::int as published,
       sum(in_stock)::int as in_stock,
       sum(promoted)::int as promoted,
       sum(promoted_sale)::int as promoted_sale,
       sum(promoted_exclusive)::int as promoted_exclusive,
       sum(promoted_byquantity)::int as promoted_byquantity,
       sum(priced)::int as priced,
       sum(effective_price_sum)::numeric(16,2) as effective_price_sum,
       round(sum(effective_price_sum) / nullif(sum(priced), 0), 2)::numeric(14,2) as effective_price_avg,
       sum(normal_priced)::int as normal_priced,
       sum(normal_price_sum)::numeric(16,2) as normal_price_sum,
       round(sum(normal_price_sum) / nullif(sum(normal_priced), 0), 2)::numeric(14,2) as normal_price_avg,
       sum(discounted)::int as discounted,
       sum(discount_pct_sum)::numeric(14,4) as discount_pct_sum,
       sum(new_listings)::int as new_listings,
       sum(unpublished)::int as unpublished,
       sum(went_out_of_stock)::int as went_out_of_stock,
       sum(back_in_stock)::int as back_in_stock
  from rollup_daily_brand
 group by zone, day, seller_id, classification_id, currency;

-- The dashboard's closed-day figures are days of a zone: the cache is keyed by it (its rows of the
-- default zone stay valid).
alter table dashboard_day_figures add column zone text not null default 'America/Santiago';
alter table dashboard_day_figures alter column zone drop default;
alter table dashboard_day_figures drop constraint dashboard_day_figures_pkey;
alter table dashboard_day_figures add primary key (pivot_id, competitors, roots, currency, zone, day);
analyze rollup_daily_brand;
