-- Issue 25: the promotions' listing-days (promo_daily, promo_weekly: Promociones por día and the type
-- screen's shares) per market zone, as the daily roll-up they sum (migration 431). Kept at ingest for every
-- zone of rollup_zones (modules/promotions/rollup.ts), rebuilt with a zone's daily rows by the
-- 'rollup-zone' job (modules/ingest/zones.ts calls the promotions' rebuild through the ingest registry).
-- The default is the deployment's zone: the rows written before zones were kept (and migration 101's
-- backfill, which tests run again) are its rows.
alter table promo_daily add column zone text not null default 'America/Santiago';
drop index promo_daily_key;
create unique index promo_daily_key on promo_daily (zone, seller_id, classification_id, day)
  include (published, promoted, promoted_sale, promoted_exclusive, promoted_byquantity);

alter table promo_weekly add column zone text not null default 'America/Santiago';
alter table promo_weekly drop constraint promo_weekly_pkey;
alter table promo_weekly add primary key (zone, seller_id, classification_id, week)
  include (published, promoted, promoted_sale, promoted_exclusive, promoted_byquantity);
