-- The demo market being loaded into this database (at most one row): its size and last day. A start after
-- an interrupted load (server killed mid-seed) finishes the same market — each seller's days already in
-- ingest_runs are skipped — instead of leaving it partial; finished_at is set once the load is whole.
create table demo_seed (
  id          boolean primary key default true check (id),
  size        text not null,
  today       date not null,
  started_at  timestamptz not null default now(),
  finished_at timestamptz
);
