-- Notifications (issue 17; modules/notifications, docs/metrics.md "Notifications").
--
-- notif_listing_state: the last TRUSTED state of every matched listing, kept by the notifications roll-up
--   in the ingest transaction. Events are the difference between it and what a run stored; a suspicious
--   observation (a price ×5 or ÷5 away from the trusted one, or zero) leaves it as it was, so the demo's
--   one-day ×100 extraction errors neither alert on the way in nor on the way back.
create table notif_listing_state (
  product_id          bigint primary key references products on delete cascade,
  seller_id           integer not null,
  group_id            bigint,            -- live match group (listing_current.group_id when last seen)
  currency            text not null,
  price               numeric(14,2),     -- effective price (lowest of normal, sale, exclusive)
  normal              numeric(14,2),     -- normal price
  promo               boolean not null,  -- price_type <> 'NORMAL'
  stock_out           boolean not null,
  published           boolean not null,
  pending_from        numeric(14,2),     -- normal price before a change not yet confirmed as permanent
  pending_since       timestamptz,       -- when that change was observed (null: nothing pending)
  stock_event_at      timestamptz,       -- last stock event of the listing (flapping window)
  suspect_since       timestamptz        -- a suspicious value is current since (null: none)
);
create index notif_listing_state_group_idx on notif_listing_state (group_id);
create index notif_listing_state_pending_idx on notif_listing_state (seller_id)
  where pending_since is not null or suspect_since is not null;

-- Backfill: an already-seeded database starts from its current state (no events for the past).
insert into notif_listing_state (product_id, seller_id, group_id, currency, price, normal, promo, stock_out, published)
select lc.product_id, lc.seller_id, lc.group_id, lc.currency, lc.effective_price, lc.normal_price, lc.price_type <> 'NORMAL',
       lc.stock_out, lc.published
  from listing_current lc
 where lc.group_id is not null
on conflict do nothing;

-- Market-level change events, written by the roll-up (per listing for prices, per seller run and kind for
-- promotions and assortment); the dispatch job (queue 'notifications:dispatch') turns them into each
-- user's notifications — by license, subscription and the match groups of the user's pivot (resolved then,
-- so a pivot licensed later is served too) — and marks them dispatched.
create table change_events (
  id             bigserial primary key,
  namespace      text not null,
  kind           text not null,
  seller_id      integer not null,        -- the seller whose listings changed
  occurred_at    timestamptz not null,    -- the run's observed_at
  size           real not null,           -- prices: |% change|; promotions: average discount %; assortment: count
  facts          jsonb not null,          -- the numbers of the explanation (notifications/explain.ts)
  items          jsonb not null,          -- [[listing id, brand id, classification id, match group id, discount %, cheapest 0/1], …]
  dispatched_at  timestamptz
);
create index change_events_undispatched_idx on change_events (id) where dispatched_at is null;
create index change_events_time_idx on change_events (occurred_at);

-- Candidate events the rules held back, per day, seller and reason (docs/metrics.md: share suppressed).
create table change_event_suppressed (
  day        date not null,
  seller_id  integer not null,
  reason     text not null,   -- suspicious | temporary | flapping | below_floor | mass_stock_out
  n          integer not null,
  primary key (day, seller_id, reason)
);

-- Per-user notifications (table of 001_init.sql) gain the event, the channel they were delivered by,
-- when they were delivered / put in a digest, and what the license scoping and filters need.
alter table notifications
  add column kind          text not null default 'info',
  add column event_id      bigint,
  add column seller_id     integer,
  add column occurred_at   timestamptz,
  add column channel       text not null default 'app',
  add column delivered_at  timestamptz,
  add column digested_at   timestamptz;
update notifications set occurred_at = created_at where occurred_at is null;
alter table notifications alter column occurred_at set not null, alter column occurred_at set default now();
create unique index notifications_user_event_key on notifications (user_id, event_id) where event_id is not null;
create index notifications_unread_idx on notifications (user_id, namespace) where read_at is null;
create index notifications_undelivered_idx on notifications (id) where delivered_at is null;
drop index if exists notifications_user_idx;
create index notifications_user_idx on notifications (user_id, occurred_at desc, id desc);

-- Subscriptions: the channel 'email' (immediate) joins 'app' and 'email_digest'; conditions as columns.
alter table notification_subscriptions drop constraint if exists notification_subscriptions_channel_check;
alter table notification_subscriptions
  add constraint notification_subscriptions_channel_check check (channel in ('app', 'email', 'email_digest')),
  add column digest_hour        smallint not null default 8 check (digest_hour between 0 and 23),
  add column min_size           real not null default 0,
  add column seller_ids         integer[] not null default '{}',
  add column brand_ids          integer[] not null default '{}',
  add column classification_ids integer[] not null default '{}',
  add column updated_at         timestamptz not null default now();

-- Every e-mail sent for notifications (immediate or digest): which notifications, which 'email' job
-- (its status, attempts and last error are the job's). One digest per user and local day.
create table notification_sends (
  id                bigserial primary key,
  user_id           integer not null references users on delete cascade,
  kind              text not null check (kind in ('email', 'digest')),
  notification_ids  bigint[] not null,
  job_id            bigint,
  local_day         date,
  created_at        timestamptz not null default now()
);
