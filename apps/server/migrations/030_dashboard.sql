-- Dashboard end-of-day states (docs/metrics.md "Dashboard", modules/dashboard/eod.ts).
-- Most dashboard cards read the daily roll-up (010_rollups.sql). Two groups of figures need the state
-- of each listing at the end of a day and cannot come from per-seller sums: the price index / deviation
-- (pivot listing vs the lowest competitor of its match group) and the monetary / mode discount (an
-- amount in the requested currency, a histogram of discount %). The end of today is listing_current;
-- the end of a CLOSED day (before today in America/Santiago) never changes again (ingestion refuses
-- observations older than a seller's last), so it is derived from price_intervals once per
-- (seller, day), on the first request that needs it, and kept here.

-- (seller, day) pairs whose end-of-day state is materialised in listing_eod.
create table listing_eod_days (
  seller_id  integer not null references sellers on delete cascade,
  day        date not null,
  listings   integer not null,
  built_at   timestamptz not null default now(),
  primary key (seller_id, day)
);

-- State of every listing published at the end of `day` (the interval open at the next day's first
-- instant in America/Santiago). Prices in the listing's currency.
create table listing_eod (
  seller_id          integer not null,
  day                date not null,
  product_id         bigint not null references products on delete cascade,
  classification_id  integer,
  normal_price       numeric(14,2),
  -- the promotion's price: the sale, exclusive or by-quantity price after price_type (as the roll-up)
  promo_price        numeric(14,2),
  -- lowest of normal, sale and exclusive present (NORMAL_SALE_EXCLUSIVE_PRICE)
  effective_price    numeric(14,2),
  price_type         text not null,
  stock_out          boolean not null,
  currency           text not null,
  primary key (seller_id, day, product_id),
  foreign key (seller_id, day) references listing_eod_days on delete cascade
);

-- "Unpublished" card: listings unpublished in a period, per seller (products_seller_first_seen_idx of
-- 011 serves the "new" card).
create index products_seller_unpublished_idx on products (seller_id, unpublished_at) where unpublished_at is not null;

-- Card figures of a CLOSED day for one scope, computed once (from listing_eod and the daily roll-up)
-- and read by every later request that compares against that day. A scope is the pivot, the sorted
-- competitors, the license's classification roots and the currency. Delete rows to recompute them
-- (e.g. after correcting matches or exchange rates of past days).
create table dashboard_day_figures (
  pivot_id     integer not null,
  competitors  integer[] not null,
  roots        integer[] not null,
  currency     text not null,
  day          date not null,
  figures      jsonb not null,
  computed_at  timestamptz not null default now(),
  primary key (pivot_id, competitors, roots, currency, day)
);
