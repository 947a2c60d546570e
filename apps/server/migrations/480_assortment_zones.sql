-- Issue 25: the assortment read model's days in every market zone in use, as the daily roll-up it reads
-- (migration 431). assortment_spans (migration 111) and assortment_events_cum (112) were kept once per
-- listing / seller, their days the deployment's; an organisation in another zone read Santiago's days on
-- the Surtido screens. Now both are keyed by `zone` and kept at ingest for every zone of rollup_zones
-- (modules/assortment/rollup.ts, once per zone: the run's day in that zone); a zone chosen for the first
-- time is rebuilt seller by seller by the 'rollup-zone' job (modules/ingest/zones.ts calls the
-- assortment's rebuild through the ingest registry: the spans from the price history with
-- assortment_recompute_spans of migration 482, the running totals from the zone's daily rows). The screens read the
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

analyze assortment_spans;
analyze assortment_events_cum;
