-- The dashboard's index history saved whole (modules/dashboard/history-snapshot.ts, issue 30 cold start
-- and a second API process): a process that needs a pivot's history over the warm window of closed days
-- reads this value instead of every confirmed-matched listing's price intervals (one statement over
-- price_intervals of tens of seconds on the large market). Closed days never change (ingestion refuses
-- older observations), so a history saved for a window is the history of that window; one row per pivot
-- and zone: the next day's window replaces it.
--   pivot_id  the pivot seller whose match groups the history holds (the seller's rows go with it)
--   zone      the IANA zone whose day ends cut the intervals into days (ingest zones.ts dayZone)
--   from_day  the window's first closed day
--   to_day    the window's last closed day (the day before the load's today in `zone`); a process reads
--             the value only for exactly (pivot_id, zone, from_day, to_day)
--   saved_at  when it was written (for operators: which process's load it is)
--   data      the history: 'VIH1', the header's length, a JSON header (pivot, zone, window, currencies, the
--             arrays' places) and the typed arrays 8-byte aligned, in the saving machine's byte order
--             (little-endian) — db/saved-arrays.ts
create table dashboard_index_history_snapshots (
  pivot_id  integer not null references sellers on delete cascade,
  zone      text not null,
  from_day  date not null,
  to_day    date not null,
  saved_at  timestamptz not null default now(),
  data      bytea not null,
  primary key (pivot_id, zone)
);
-- read whole (in slices) on every start: not compressed (pglz would cost more time than the bytes it saves,
-- and a compressed value cannot be read a slice at a time)
alter table dashboard_index_history_snapshots alter column data set storage external;
