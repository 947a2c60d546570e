-- The last days of the saved index history as a value of their own (modules/dashboard/history-snapshot.ts,
-- issue 30 cold start): the dashboard's landing period (the default 7 days and the 7 before) needs only
-- the intervals that cover its last 13 closed days — on the large market ~10 MB of the ~74 MB the whole
-- window holds (each listing has ~10 intervals over 180 days) — so that a starting process answers the
-- first cards from it while the whole history is still being read.
--   recent  the history of the window's last days (from_day of its own in its header, to_day the row's),
--           the same layout as `data`; null: not saved yet (a row written before this migration, or by a
--           load whose window was too short to cut)
alter table dashboard_index_history_snapshots add column recent bytea;
alter table dashboard_index_history_snapshots alter column recent set storage external;
