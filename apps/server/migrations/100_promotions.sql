-- Promotions read model (modules/promotions/rollup.ts, registered with registerRollup 'promotions';
-- definitions in docs/metrics.md "Promotions"). The promotion screens read these two tables only,
-- never price_intervals.
--
-- promo_daily: per (seller, classification leaf, Santiago day) the day's listing counts, the sum over
-- brands of rollup_daily_brand (rewritten for the run's (seller, day) right after the daily roll-up).
-- Without the brand dimension a 180-day question reads ~70 times fewer rows.
create table promo_daily (
  seller_id           integer not null,
  day                 date not null,
  classification_id   integer,          -- leaf of v2_classification; null = unclassified
  published           integer not null, -- listings published at the day's last run
  promoted            integer not null, -- of those, price_type SALE, EXCLUSIVE or BYQUANTITY
  promoted_sale       integer not null,
  promoted_exclusive  integer not null,
  promoted_byquantity integer not null
);
create unique index promo_daily_key on promo_daily (seller_id, day, classification_id) nulls not distinct;

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
