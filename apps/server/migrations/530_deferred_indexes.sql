-- Indexes a bulk load dropped to write its rows without them, and builds again once they are in
-- (db/deferred-indexes.ts; the demo seed's Surtido spans: issue 30 part 3 — a large seller's ~1 M spans
-- written into 13 indexes took 122 s a seller, 1,462 s of the large seed). Each definition is kept here
-- in the transaction that drops its index, so that a load killed before the end leaves them written
-- down: the next seed (or the next start of a worker) builds them (restoreDeferredIndexes).
create table deferred_indexes (
  name        text primary key,
  definition  text not null,
  deferred_at timestamptz not null default now()
);
