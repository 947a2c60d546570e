-- Formulas that SQL must compute, written once (issue 11 part 3; docs/metrics.md names each one's home).
-- Every function is `language sql immutable` (or stable when it reads a table) and not strict, so that
-- PostgreSQL inlines it into the calling statement: a call costs what the expression it replaces cost.
-- apps/server/src/market/formulas.test.ts runs each against its TypeScript twin on the same
-- hand-computed fixtures and requires equal answers.

-- Discount % of a promoted price: 100 × (normal − promo) / normal; null unless 0 < promo < normal.
-- TypeScript: packages/domain discountPercent.
create or replace function vigia_discount_pct(normal numeric, promo numeric) returns numeric
language sql immutable parallel safe as $$
  select case when normal > 0 and promo > 0 and promo < normal then 100 * (normal - promo) / normal end
$$;

-- Bucket of a discount %: the nearest multiple of 5, halves up (22.4 → 20, 22.5 → 25).
-- TypeScript: packages/domain discountBucket (DISCOUNT_BUCKET = 5).
create or replace function vigia_discount_bucket(pct numeric) returns int
language sql immutable parallel safe as $$
  select (round(pct / 5) * 5)::int
$$;

-- Price index (MPI) = 100 × my price / lowest comparable competitor price; null without both.
-- TypeScript: packages/domain priceIndex.
create or replace function vigia_price_index(mine float8, best float8) returns float8
language sql immutable parallel safe as $$
  select case when mine > 0 and best > 0 then 100 * mine / best end
$$;

-- When a listing was last seen: a published one at greatest(its last_seen, its seller's last crawl).
-- TypeScript: packages/domain lastSeenAt.
create or replace function vigia_last_seen(published boolean, last_seen timestamptz, crawl timestamptz)
returns timestamptz
language sql immutable parallel safe as $$
  select case when published then greatest(last_seen, crawl) else last_seen end
$$;

-- Search key of a text: lower case, the accented letters folded — the expression of the stored keys of
-- migration 031 (products.name_key / search_key, brands.name_key). TypeScript: packages/domain foldText
-- (SEARCH_FOLD_FROM / SEARCH_FOLD_TO).
create or replace function vigia_fold(t text) returns text
language sql immutable parallel safe as $$
  select translate(lower(t), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc')
$$;

-- Exchange rates in force on a day: per currency its latest fx_rates row on or before `d` (CLP per unit).
-- Every rate look-up reads it (apps/server/src/market/fx.ts).
create or replace function vigia_fx_rates_on(d date)
returns table (currency text, day date, clp_per_unit numeric)
language sql stable parallel safe as $$
  select distinct on (r.currency) r.currency, r.day, r.clp_per_unit
    from fx_rates r where r.day <= d order by r.currency, r.day desc
$$;
