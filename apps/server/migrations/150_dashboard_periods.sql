-- Dashboard periods (issue 18 item 4; docs/metrics.md "Dashboard"): a snapshot card's figure over a
-- period is now the average of its days' end-of-day figures, and dashboard_day_figures holds one row of
-- per-day figures per (scope, closed day) in a new shape (DayFigures, modules/dashboard/days.ts: with
-- the discount histogram, unrounded). The rows of the old shape (one figure set at a period's end) are
-- a cache: they go, and the next warm-up or request computes the days again from the daily roll-up and
-- the price intervals.
--
-- The per-day figures no longer read listing_eod / listing_eod_days (the end-of-day states the old
-- closed-day figures were built from, migration 030): nothing writes them any more (the 'dashboard-eod'
-- roll-up is gone). They are emptied here; the tables stay for one release (other code may still name
-- them) and can be dropped by a later migration.
delete from dashboard_day_figures;
truncate listing_eod, listing_eod_days;
comment on table dashboard_day_figures is
  'Per-day dashboard figures of a closed day for one scope (modules/dashboard/days.ts DayFigures); a cache, recomputed when deleted. Migrations 030, 150.';
comment on table listing_eod is 'Unused since migration 150 (the dashboard reads price_intervals); to be dropped.';
comment on table listing_eod_days is 'Unused since migration 150; to be dropped.';
