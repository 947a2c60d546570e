-- Dashboard per seller and day (issue 30 part 2; docs/metrics.md "Dashboard", modules/dashboard/seller-days.ts).
-- The figures of a closed day that add up over sellers, kept once per (seller, license roots, zone, day), so that
-- any competitor selection's counts, discount histogram and money discount are sums of its sellers' rows
-- instead of a scan of the roll-up and the price intervals per selection (dashboard_day_figures, 030/150,
-- stays the cache of the older path: days before the window the server holds in memory). A closed day
-- never changes again (ingestion refuses older observations); delete rows to recompute them. Its days
-- are those of a market zone (431_rollup_zones.sql: the organisation's once its roll-up rows are ready,
-- ingest zones.ts dayZone), read from the roll-up's rows of that zone; dropping a zone deletes its rows.
create table dashboard_seller_days (
  seller_id         integer not null references sellers on delete cascade,
  -- the license's classification roots, sorted ('{}' = the whole tree)
  roots             integer[] not null,
  -- the zone of the day (an IANA name of rollup_zones)
  zone              text not null,
  day               date not null,
  -- the seller had a roll-up row on or before the day (else its counts are not data)
  has_rollup        boolean not null,
  published         integer not null,
  in_stock          integer not null,
  promoted          integer not null,
  discounted        integer not null,
  discount_pct_sum  float8 not null,
  -- promoted listings with a discount % at the day's end, per discount bucket (0, 5, …, 100 %)
  buckets           integer[] not null,
  -- per currency of the listings: [sum of (normal − promotion price) in that currency, listings]
  money             jsonb not null,
  computed_at       timestamptz not null default now(),
  primary key (seller_id, roots, zone, day)
);
comment on table dashboard_seller_days is
  'Closed-day dashboard figures per seller that add up over any competitor selection (modules/dashboard/seller-days.ts). Migration 460.';
