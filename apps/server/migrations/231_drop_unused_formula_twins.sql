-- Issue 25: SQL twins no production statement calls. The price index is computed in TypeScript only
-- (domain priceIndex, pricing/compute.ts); search keys are the stored expression of migration 031 (its
-- letter lists are held equal to the domain's SEARCH_FOLD_FROM / SEARCH_FOLD_TO by market/formulas.test.ts).
drop function if exists vigia_price_index(float8, float8);
drop function if exists vigia_fold(text);
