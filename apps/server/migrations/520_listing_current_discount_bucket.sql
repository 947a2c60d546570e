-- The dashboard's discounts now per seller (modules/dashboard/queries.ts selectCurrentSellerDiscounts):
-- each promoted listing's discount bucket, stored when the listing is written (issue 30, cold start).
-- Computing it at read time — vigia_discount_pct's numeric division and vigia_discount_bucket's rounding
-- (migration 050, the one definition) for every promoted listing — was ~55 of the ~73 ms of each seller's
-- statement on the large market (58,000 promoted listings of one seller), and a cold process's first
-- dashboard answer runs twelve of them at once. The column is the same two functions over the listing's
-- prices (its promotion price by its price type), so it cannot disagree with them; a later migration that
-- redefines either function must recompute it (drop and add the column again). Migration 510's index of
-- the promoted listings holds it too: the statement stays an index-only scan once the rewritten table is
-- vacuumed (db/migrate.ts vacuumsOf: a rewritten table has no visibility map; ~3 s on large).
-- vacuum: listing_current
alter table listing_current add column discount_bucket integer generated always as (
  vigia_discount_bucket(vigia_discount_pct(normal_price,
    case price_type when 'SALE' then sale_price when 'EXCLUSIVE' then exclusive_price
                    when 'BYQUANTITY' then byquantity_price end))) stored;

drop index if exists listing_current_promoted_idx;
create index listing_current_promoted_idx on listing_current (seller_id)
  include (classification_id, currency, price_type, normal_price, sale_price, exclusive_price, byquantity_price,
           discount_bucket)
  where published and price_type <> 'NORMAL';
