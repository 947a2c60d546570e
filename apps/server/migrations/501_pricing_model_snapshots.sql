-- A pivot's pricing model saved whole (modules/pricing/snapshot.ts, issue 30 cold start): a starting
-- process reads it instead of every row and offer of pricing_rows / pricing_offers, then the change log
-- since its version (pricing_changes), as any refresh. built_at ties it to the read model as built: a
-- rebuilt pivot (new built_at) starts its versions again, and its saved model is not read.
create table pricing_model_snapshots (
  pivot_id  integer primary key references pricing_pivots on delete cascade,
  version   bigint not null,
  built_at  timestamptz not null,
  saved_at  timestamptz not null default now(),
  data      bytea not null
);
-- read whole on every start: not compressed (pglz would cost more time than the bytes it saves)
alter table pricing_model_snapshots alter column data set storage external;
