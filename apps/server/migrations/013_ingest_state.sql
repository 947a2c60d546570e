-- Ingest, second step (modules/ingest/ingest.ts, rollups.ts). Idempotent: databases migrated with an
-- earlier 011 (with or without ingest_seq, fillfactor and the dropped index) end in the same state.
--   sellers.ingest_seq        bumped by every ingest run of the seller (in its transaction): a process that
--                             remembers the hashes of the seller's last run knows they are still current
--                             when the number did not move, and then reads nothing back (also in 011).
--   listing_current.published products.published, denormalised and kept by ingest, so that what the
--                             screens and roll-ups read about a seller's current listings is one table.
alter table sellers add column if not exists ingest_seq bigint not null default 0;
alter table listing_current add column if not exists published boolean not null default true;
update listing_current lc set published = p.published
  from products p where p.id = lc.product_id and not p.published;

-- Write-heavy tables: leave room in every page so that the updates of a run (closing an interval,
-- refreshing a snapshot row) stay on their page (HOT updates: no new index entries).
alter table price_intervals set (fillfactor = 70);
alter table listing_current set (fillfactor = 70);
-- Ingest closes a listing's open interval by primary key (product_id, valid_from = listing_current.since),
-- so the partial index on open intervals is not needed; without it, closing an interval touches no index.
drop index if exists price_intervals_open_idx;
