-- Daily listing roll-ups (modules/ingest/rollups.ts, registered with registerRollup 'daily').
-- Rewritten for (seller, day) inside every ingest transaction, so the promotion and assortment screens
-- (dashboard cards Surtido/Promociones, promotions, assortment) never scan price history.
--
-- Day and snapshot: `day` is the calendar day in America/Santiago of the run's observed_at. A row
-- describes the seller's catalogue as of its LAST ingest run of that day (the state a daily crawl sees),
-- plus the events of that day. A day without any run of the seller has no rows (carry the previous
-- day forward if a screen needs a value). Rows are recomputed from products + listing_current (+ one
-- price_intervals probe per listing changed that day), never incremented, so re-running a day is safe.
--
-- Prices: sums and averages are in the seller's currency (`currency`); a listing observed in another
-- currency is counted in every count but left out of the price sums (its `priced`/`normal_priced`).
-- Promotion: price_type SALE, EXCLUSIVE or BYQUANTITY (PRODUCT.md). Out-of-stock listings are still
-- published listings and count as promoted when their price is a promotion.

create table rollup_daily_brand (
  day                 date not null,      -- calendar day in America/Santiago
  seller_id           integer not null,   -- sellers.id (no foreign key: written on every ingest)
  classification_id   integer,            -- leaf of v2_classification (products.classification_id); null = unclassified
  brand_id            integer,            -- products.brand_id; null = no brand
  currency            text not null,      -- the seller's currency: every price sum/average below is in it
  published           integer not null,   -- listings published at the day's last run
  in_stock            integer not null,   -- of those, not out of stock
  promoted            integer not null,   -- of the published, price_type SALE, EXCLUSIVE or BYQUANTITY
  promoted_sale       integer not null,   -- … price_type SALE
  promoted_exclusive  integer not null,   -- … price_type EXCLUSIVE (card-holder price)
  promoted_byquantity integer not null,   -- … price_type BYQUANTITY
  priced              integer not null,   -- published listings with an effective price in `currency`
  effective_price_sum numeric(16,2) not null, -- sum of their effective prices (lowest of normal/sale/exclusive)
  effective_price_avg numeric(14,2),      -- effective_price_sum / priced (null when priced = 0)
  normal_priced       integer not null,   -- published listings with a normal price in `currency`
  normal_price_sum    numeric(16,2) not null, -- sum of their normal prices
  normal_price_avg    numeric(14,2),      -- normal_price_sum / normal_priced
  discounted          integer not null,   -- promoted listings whose discount is known: normal > 0 and the
                                          -- promotion's price (sale, exclusive or by-quantity unit price,
                                          -- after price_type) present and below it
  discount_pct_sum    numeric(14,4) not null, -- sum over those of 100 × (normal − promotion price) / normal;
                                          -- average discount = discount_pct_sum / discounted
  new_listings        integer not null,   -- listings first seen that day (products.first_seen)
  unpublished         integer not null,   -- listings unpublished that day and still unpublished at its last run
  went_out_of_stock   integer not null,   -- published, out of stock at the day's last run, in stock before
                                          -- the day (interval covering the day's start)
  back_in_stock       integer not null,   -- published, in stock at the day's last run, out of stock before
                                          -- the day
  run_id              bigint not null,    -- ingest run that last rewrote the row
  updated_at          timestamptz not null default now()
);
create unique index rollup_daily_brand_key on rollup_daily_brand (seller_id, day, classification_id, brand_id)
  nulls not distinct;
create index rollup_daily_brand_day_idx on rollup_daily_brand (day, seller_id);

-- The same measures per (seller, classification leaf, day): what the Surtido/Promociones cards read.
-- Filter by day and seller_id (both are grouping keys, so the predicates reach the table's index).
create view rollup_daily as
select day, seller_id, classification_id, currency,
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
 group by day, seller_id, classification_id, currency;
