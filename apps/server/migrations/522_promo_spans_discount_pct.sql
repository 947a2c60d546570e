-- Promociones por duración: the running promotions' sums per (seller, first day, currency) under a root
-- (modules/promotions/queries.ts selectRunningGroups), the first answer of a scope after each change of the
-- data (issue 30: 135 ms for one root of the large market, 165,000 running promotions). A third of it was
-- each promotion's discount — vigia_discount_pct's numeric division (migration 050, the one definition) —
-- now stored when the promotion is written, as that function of its prices (a later migration that
-- redefines the function must recompute the column: drop and add it again), and kept in the index of the
-- running promotions so that the statement stays index-only once the rewritten table is vacuumed
-- (db/migrate.ts vacuumsOf). With the grouping by the day itself rather than its text: ~60 ms.
-- vacuum: promo_spans
alter table promo_spans add column discount_pct numeric
  generated always as (vigia_discount_pct(normal_price, promo_price)) stored;

drop index if exists promo_spans_running_idx;
create index promo_spans_running_idx on promo_spans (zone, seller_id, classification_id)
  include (first_day, normal_price, promo_price, currency, discount_pct) where last_day is null;
