-- Pricing read model (docs/metrics.md "Pricing", modules/pricing/maintain.ts and model.ts).
-- The DPM and navigation screens read these tables only, never price history: one row per listing of a
-- pivot seller and one row per (pivot listing, confirmed-matched competitor listing), each carrying the
-- current state (prices, stock, currency, publication, first/last seen). Kept up to date in the ingest
-- transaction (registerRollup 'pricing') and at match changes (refreshPricingForListings); a pivot is
-- built on first use. Each API process keeps an in-memory copy per pivot, refreshed incrementally from
-- pricing_changes when pricing_pivots.version moves (model.ts).

-- Pivot sellers whose read model is built; version moves (in commit order: the row lock serialises
-- writers) with every change of the pivot's rows.
create table pricing_pivots (
  seller_id  integer primary key references sellers,
  version    bigint not null default 0,
  built_at   timestamptz not null default now()
);

-- Which pivot listings each version rewrote (pruned after a day; an older reader reloads in full).
create table pricing_changes (
  pivot_id     integer not null references pricing_pivots on delete cascade,
  version      bigint not null,
  product_ids  bigint[] not null,
  changed_at   timestamptz not null default now(),
  primary key (pivot_id, version)
);

create table pricing_rows (
  product_id         bigint primary key references products on delete cascade,  -- the pivot listing
  pivot_id           integer not null,                 -- products.seller_id
  group_id           bigint,                           -- confirmed live match group, else null
  listing_ref        text not null,                    -- products.product_id (the seller's own id)
  sku                text,
  ean                text,
  name               text not null,
  brand_id           integer,
  brand_name         text,
  classification_id  integer,
  class_path         integer[] not null default '{}',  -- v2_classification ids root→leaf
  category_path      integer[] not null default '{}',  -- seller category ids root→leaf
  url                text,
  image_url          text,
  normal_price       double precision,
  sale_price         double precision,
  exclusive_price    double precision,
  price_type         text not null,
  stock_out          boolean not null,
  currency           text not null,
  published          boolean not null,
  first_seen         timestamptz not null,
  last_seen          timestamptz not null              -- products.last_seen (see sellers.last_crawl_at)
);
create index pricing_rows_pivot_idx on pricing_rows (pivot_id);
create index pricing_rows_group_idx on pricing_rows (group_id) where group_id is not null;

create table pricing_offers (
  pivot_product_id  bigint not null references pricing_rows on delete cascade,
  product_id        bigint not null references products on delete cascade,  -- the competitor listing
  pivot_id          integer not null,
  seller_id         integer not null,
  listing_ref       text not null,
  url               text,
  normal_price      double precision,
  sale_price        double precision,
  exclusive_price   double precision,
  price_type        text not null,
  stock_out         boolean not null,
  currency          text not null,
  published         boolean not null,
  first_seen        timestamptz not null,
  last_seen         timestamptz not null,
  primary key (pivot_product_id, product_id)
);
create index pricing_offers_pivot_idx on pricing_offers (pivot_id);
create index pricing_offers_seller_idx on pricing_offers (seller_id);
create index pricing_offers_product_idx on pricing_offers (product_id);
