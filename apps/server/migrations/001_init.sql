-- Vigía schema, first version: the whole product, not only accounts.
-- Conventions: snake_case; every organisation-owned row carries org_id so the schema can be
-- distributed by organisation (docs/operations.md); prices are numeric(14,2) in the seller's currency.

-- ───────────────────────────── reference data ─────────────────────────────

create table currencies (
  acronym   text primary key check (acronym ~ '^[A-Z]{3}$'),
  name      text not null,
  decimals  smallint not null default 0
);

create table countries (
  code      text primary key check (code ~ '^[A-Z]{2}$'),
  name      text not null,
  flag      text not null,
  currency  text not null references currencies
);

-- 1 unit of `currency` = clp_per_unit CLP on `day`. Conversion between two currencies goes through CLP
-- with the latest rate on or before the day in question (docs/metrics.md, "Currency conversion").
create table fx_rates (
  currency      text not null references currencies,
  day           date not null,
  clp_per_unit  numeric(18,6) not null check (clp_per_unit > 0),
  primary key (currency, day)
);

create table sellers (
  id             integer primary key,
  name           text not null,
  country        text not null references countries,
  currency       text not null references currencies,
  color          text not null check (color ~ '^#[0-9a-fA-F]{6}$'),
  url            text,
  -- time of the last complete observation of the seller's catalogue (a "full" ingest run).
  -- A published listing's last_seen is greatest(products.last_seen, sellers.last_crawl_at).
  last_crawl_at  timestamptz,
  created_at     timestamptz not null default now()
);

create table brands (
  id               serial primary key,
  name             text not null,
  normalized_name  text not null unique
);

-- v2_classification: Vigía's normalised product tree (3 levels). Every listing is classified into a
-- leaf; a license grants subtrees of it. (Decision record in docs/architecture.md.)
create table classifications (
  id         serial primary key,
  parent_id  integer references classifications,
  name       text not null,
  level      smallint not null check (level between 1 and 3),
  path       integer[] not null  -- ids from the root down to this node, inclusive
);
create index classifications_parent_idx on classifications (parent_id);
create index classifications_path_idx on classifications using gin (path);

-- v2_category_tree: each seller's own breadcrumb tree.
create table categories (
  id         serial primary key,
  seller_id  integer not null references sellers,
  parent_id  integer references categories,
  name       text not null,
  url        text,
  level      smallint not null,
  unique nulls not distinct (seller_id, parent_id, name)
);

-- ───────────────────────────── organisations, licenses, users ─────────────────────────────

create table organisations (
  id          serial primary key,
  name        text not null,
  created_at  timestamptz not null default now()
);

create table licenses (
  id         serial primary key,
  org_id     integer not null unique references organisations on delete cascade,
  starts_on  date,
  ends_on    date
);
create table license_sellers (
  license_id  integer not null references licenses on delete cascade,
  seller_id   integer not null references sellers,
  primary key (license_id, seller_id)
);
create table license_pivots (
  license_id  integer not null references licenses on delete cascade,
  seller_id   integer not null references sellers,
  primary key (license_id, seller_id)
);
create table license_currencies (
  license_id  integer not null references licenses on delete cascade,
  currency    text not null references currencies,
  primary key (license_id, currency)
);
create table license_modules (
  license_id   integer not null references licenses on delete cascade,
  module_code  text not null check (module_code in
    ('dpm', 'ecommerce_navigation', 'promotions', 'assortment', 'reports', 'image_verification')),
  primary key (license_id, module_code)
);
-- The customer's own brands ("ownBrands" filter; brand owners' image references).
create table license_brands (
  license_id  integer not null references licenses on delete cascade,
  brand_id    integer not null references brands,
  primary key (license_id, brand_id)
);
-- Granted classification subtrees (roots). No rows = the whole tree.
create table license_classifications (
  license_id         integer not null references licenses on delete cascade,
  classification_id  integer not null references classifications,
  primary key (license_id, classification_id)
);

create table users (
  id             serial primary key,
  org_id         integer not null references organisations on delete cascade,
  email          text not null,
  name           text not null default '',
  password_hash  text not null,
  timezone       text not null default 'America/Santiago',
  currency       text references currencies,
  pivot_id       integer references sellers,
  -- bumped on password change: tokens carry it, so older tokens stop working.
  token_version  integer not null default 0,
  is_active      boolean not null default true,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

create table password_reset_tokens (
  id          serial primary key,
  user_id     integer not null references users on delete cascade,
  token_hash  text not null unique,           -- sha256 of the token; the token itself is only e-mailed
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);

-- ───────────────────────────── catalogue and prices ─────────────────────────────

-- A listing: one item at one seller.
create table products (
  id                 bigserial primary key,
  seller_id          integer not null references sellers,
  product_id         text not null,            -- the seller's own id
  sku                text,
  ean                text,
  name               text,
  brand_id           integer references brands,
  url                text,
  image_url          text,
  category_id        integer references categories,      -- leaf of the seller's breadcrumb
  classification_id  integer references classifications, -- leaf of v2_classification
  first_seen         timestamptz not null,
  -- last time this listing was observed by a partial run, or when it disappeared from a full run;
  -- see sellers.last_crawl_at for published listings.
  last_seen          timestamptz not null,
  published          boolean not null default true,
  unpublished_at     timestamptz,
  unique (seller_id, product_id)
);
create index products_seller_idx on products (seller_id, published);
create index products_ean_idx on products (ean) where ean is not null;
create index products_brand_idx on products (brand_id);
create index products_classification_idx on products (classification_id);
create index products_sku_idx on products (seller_id, sku);

-- Price history as intervals: a new row only when something observed changes.
-- valid_to is null while the interval is current.
create table price_intervals (
  product_id        bigint not null references products on delete cascade,
  valid_from        timestamptz not null,
  valid_to          timestamptz,
  normal_price      numeric(14,2),
  sale_price        numeric(14,2),
  exclusive_price   numeric(14,2),   -- card-holder offer
  byquantity_price  numeric(14,2),   -- unit price when buying byquantity_qty units
  byquantity_qty    smallint,
  price_type        text not null check (price_type in ('NORMAL', 'SALE', 'EXCLUSIVE', 'BYQUANTITY')),
  stock_out         boolean not null default false,
  currency          text not null references currencies,
  primary key (product_id, valid_from),
  check (valid_to is null or valid_to > valid_from)
);
create index price_intervals_open_idx on price_intervals (product_id) where valid_to is null;

-- Match groups: listings (of any sellers, pivots included) that are the same item.
create table match_groups (
  id          bigserial primary key,
  ean         text,
  created_at  timestamptz not null default now()
);
create unique index match_groups_ean_key on match_groups (ean) where ean is not null;
create table match_members (
  group_id    bigint not null references match_groups on delete cascade,
  product_id  bigint not null references products on delete cascade,
  method      text not null check (method in ('ean', 'title', 'manual')),
  confidence  real not null default 1 check (confidence between 0 and 1),
  -- confirmed: EAN equality or a person's confirmation; suggested: title/brand similarity awaiting review.
  status      text not null check (status in ('confirmed', 'suggested', 'rejected')),
  decided_by  integer references users,
  decided_at  timestamptz,
  primary key (group_id, product_id)
);
-- a listing belongs to at most one live group
create unique index match_members_live_idx on match_members (product_id) where status <> 'rejected';

-- Current state of every listing, maintained by ingestion in the same transaction as the intervals.
-- This is what request-time queries read instead of scanning history.
create table listing_current (
  product_id                bigint primary key references products on delete cascade,
  seller_id                 integer not null,
  group_id                  bigint,            -- live match group, denormalised from match_members
  match_status              text,              -- confirmed | suggested | null
  brand_id                  integer,
  classification_id         integer,
  normal_price              numeric(14,2),
  sale_price                numeric(14,2),
  exclusive_price           numeric(14,2),
  byquantity_price          numeric(14,2),
  price_type                text not null,
  stock_out                 boolean not null,
  currency                  text not null,
  -- lowest of normal, sale and exclusive present (price mode NORMAL_SALE_EXCLUSIVE_PRICE)
  effective_price           numeric(14,2),
  previous_effective_price  numeric(14,2),     -- effective price of the interval before the current one
  price_changed_at          timestamptz,       -- when effective_price last changed
  since                     timestamptz not null  -- valid_from of the current interval
);
create index listing_current_seller_idx on listing_current (seller_id);
create index listing_current_group_idx on listing_current (group_id) where group_id is not null;

-- Record of every ingest run (demo generator, feed import, crawler): failures are kept, never lost.
create table ingest_runs (
  id            bigserial primary key,
  seller_id     integer references sellers,
  source        text not null,           -- demo | feed | crawler
  mode          text not null check (mode in ('full', 'partial')),
  observed_at   timestamptz not null,
  status        text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  observations  integer not null default 0,
  changes       integer not null default 0,
  error         text,
  started_at    timestamptz not null default now(),
  finished_at   timestamptz
);

-- ───────────────────────────── images ─────────────────────────────

-- The brand's reference image of an item (by EAN).
create table reference_images (
  ean        text primary key,
  brand_id   integer references brands,
  image_url  text not null
);
create table image_checks (
  id               bigserial primary key,
  product_id       bigint not null references products on delete cascade,
  comparison_date  date not null,
  reference_url    text not null,
  image_url        text not null,
  similarity       real not null check (similarity between 0 and 1),
  unique (product_id, comparison_date)
);
create index image_checks_date_idx on image_checks (comparison_date);

-- ───────────────────────────── exports, reports, notifications, jobs ─────────────────────────────

create table export_tasks (
  id           uuid primary key default gen_random_uuid(),
  user_id      integer not null references users on delete cascade,
  kind         text not null,                 -- report type, history download, …
  params       jsonb not null default '{}',
  status       text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  progress     real not null default 0 check (progress between 0 and 1),
  file_path    text,
  file_name    text,
  size_bytes   bigint,
  error        text,
  created_at   timestamptz not null default now(),
  finished_at  timestamptz
);
create index export_tasks_user_idx on export_tasks (user_id, created_at desc);

create table report_subscriptions (
  id           serial primary key,
  user_id      integer not null references users on delete cascade,
  report_type  text not null,
  email        text not null,
  created_at   timestamptz not null default now(),
  unique (user_id, report_type, email)
);

create table notifications (
  id          bigserial primary key,
  user_id     integer not null references users on delete cascade,
  namespace   text not null,
  title       text not null,
  body        text not null,
  link        text,
  payload     jsonb not null default '{}',
  created_at  timestamptz not null default now(),
  read_at     timestamptz
);
create index notifications_user_idx on notifications (user_id, created_at desc);

create table notification_subscriptions (
  user_id    integer not null references users on delete cascade,
  namespace  text not null,
  enabled    boolean not null default true,
  channel    text not null default 'app' check (channel in ('app', 'email_digest')),
  threshold  jsonb not null default '{}',
  primary key (user_id, namespace)
);

-- The job queue (reports, e-mail, ingestion, roll-up refresh). Workers take jobs with
-- FOR UPDATE SKIP LOCKED, so several processes can share it; failures are recorded and retried.
create table jobs (
  id            bigserial primary key,
  queue         text not null,
  payload       jsonb not null default '{}',
  status        text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  attempts      integer not null default 0,
  max_attempts  integer not null default 5,
  run_at        timestamptz not null default now(),
  locked_at     timestamptz,
  locked_by     text,
  last_error    text,
  created_at    timestamptz not null default now(),
  finished_at   timestamptz
);
create index jobs_ready_idx on jobs (queue, run_at) where status = 'queued';
