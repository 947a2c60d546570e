-- rollup_daily_brand is maintained by difference from now on (modules/ingest/rollups.ts): a seller's
-- first run of a day carries the state measures of its previous run's day forward, and every run takes
-- out what the listings it touches contributed before it and adds what they contribute after it.
-- The rows mean what migration 010 says, with two changes:
--  - discount_pct_sum is the sum of each listing's discount rounded to 4 decimals (before: the sum,
--    rounded), so that sums of differences stay exact;
--  - run_id goes: with rows carried forward and changed by difference, no single run "wrote" a row
--    (updated_at says when it last changed).
-- The (day, seller_id) index goes too: every reader and writer filters by seller and day, which the
-- unique key (seller_id, day, classification_id, brand_id) serves, and each index costs every write.
alter table rollup_daily_brand drop column run_id;
drop index rollup_daily_brand_day_idx;
comment on table rollup_daily_brand is
  'Daily listing measures per (seller, day, classification, brand): migrations 010 and 044. Maintained by difference at ingest.';
comment on column rollup_daily_brand.discount_pct_sum is
  'Sum over the discounted listings of round(100 × (normal − promotion price) / normal, 4).';
