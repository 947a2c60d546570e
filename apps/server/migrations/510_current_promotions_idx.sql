-- The dashboard's discounts now, per seller (modules/dashboard/queries.ts selectCurrentSellerDiscounts):
-- a seller's published listings on promotion with what the histogram and the amounts read, in one
-- index (issue 30, large market). Before, each seller's statement read its whole listing_current and
-- products (~100,000 listings; ~200 ms cold, 5,700 pages), and a cold process's first dashboard
-- answer ran twelve of them (3.2–3.7 s). This index holds only the promoted published listings (~40 %)
-- with their columns: an index-only scan, ~30 ms cold, 180 pages; 25 MB on large.
create index listing_current_promoted_idx on listing_current (seller_id)
  include (classification_id, currency, price_type, normal_price, sale_price, exclusive_price, byquantity_price)
  where published and price_type <> 'NORMAL';
