-- Ingest fast path (modules/ingest/ingest.ts). A full catalogue run mostly repeats what is already
-- stored; ingest first compares a 53-bit hash of each observation with the hash stored at its last
-- change and only processes the listings whose hash differs (then compares the real values).
--   products.descr_hash      hash of the descriptive fields last applied (sku, ean, name, brand, url,
--                            image, seller breadcrumb, classification)
--   listing_current.obs_hash hash of the observed price state last applied (prices, type, stock, currency)
-- Null = unknown: the listing is simply compared value by value. A column edited outside ingest keeps
-- its value until the seller's data for it changes.
--   sellers.ingest_seq       bumped by every ingest run of the seller (in its transaction): a process
--                            that remembers the hashes of its last run knows they are still current
--                            when the number did not move, and then reads nothing back.
alter table products add column descr_hash bigint;
alter table listing_current add column obs_hash bigint;
alter table sellers add column ingest_seq bigint not null default 0;

-- "Last succeeded observation of the seller" (the forward-only rule) with one index probe.
create index ingest_runs_seller_observed_idx on ingest_runs (seller_id, observed_at) where status = 'succeeded';
-- New listings of a seller per day (roll-ups, assortment).
create index products_seller_first_seen_idx on products (seller_id, first_seen);

-- Write-heavy tables: leave room in every page so that the updates of a run (closing an interval,
-- refreshing a snapshot row) stay on their page (HOT updates: no new index entries).
alter table price_intervals set (fillfactor = 70);
alter table listing_current set (fillfactor = 70);
-- Ingest closes a listing's open interval by primary key (product_id, valid_from = listing_current.since),
-- so the partial index on open intervals is no longer needed; without it closing an interval does not
-- touch any index.
drop index if exists price_intervals_open_idx;
