-- Operaciones (issue 27; modules/feeds, docs/architecture.md "Feeds and the ingest API").
--
-- users.is_admin: the organisation's administrators configure sellers, sources and API keys.
-- organisations.timezone: the zone a source's cron schedule is read in.
-- sellers.org_id: the organisation that registered the seller on Operaciones (null: the licensed market).
-- import_sources: where a seller's data comes from (kind feed now, crawl next): an uploaded file or a URL,
--   its format, column mapping, cron schedule and mode (full: what the feed no longer lists is unpublished).
-- import_runs: every import (manual, scheduled, CLI, API push), generic over the source kind: status,
--   times, rows read / written / changed / rejected; the ingest run it produced.
-- import_rejections: the rows a run skipped, with their line number and reason.
-- api_keys: per organisation, scoped to some of its sellers, stored as a SHA-256 hash (shown once).

alter table users add column is_admin boolean not null default false;
-- A database seeded before this migration: its demo account administers its organisation (new seeds set it).
update users set is_admin = true where lower(email) = 'demo@example.com';
alter table organisations add column timezone text not null default 'America/Santiago';
alter table sellers add column org_id integer references organisations on delete set null;
-- Ids of sellers registered on Operaciones (the market's sellers have small fixed ids).
create sequence registered_seller_id_seq start 100000;

create table import_sources (
  id             serial primary key,
  org_id         integer not null references organisations on delete cascade,
  seller_id      integer not null references sellers,
  kind           text not null default 'feed' check (kind in ('feed', 'crawl')),
  name           text not null,
  origin         text not null check (origin in ('upload', 'url')),
  url            text,
  format         text not null,
  encoding       text not null default 'auto',
  mapping        jsonb not null default '{}',
  schedule       text,
  next_run_at    timestamptz,
  mode           text not null default 'full' check (mode in ('full', 'delta')),
  settings       jsonb not null default '{}',   -- what a kind needs beyond these (the crawler's)
  file_path      text,
  file_name      text,
  file_size      bigint,
  etag           text,                          -- validators of the last download (conditional GET)
  last_modified  text,
  created_by     integer references users on delete set null,
  created_at     timestamptz not null default now(),
  deleted_at     timestamptz
);
create index import_sources_org_idx on import_sources (org_id) where deleted_at is null;
create index import_sources_due_idx on import_sources (next_run_at) where deleted_at is null and schedule is not null;

create table import_runs (
  id             bigserial primary key,
  org_id         integer not null references organisations on delete cascade,
  source_id      integer references import_sources on delete set null,
  source_kind    text not null check (source_kind in ('feed', 'crawl', 'api')),
  seller_id      integer not null references sellers,
  trigger        text not null default 'manual' check (trigger in ('manual', 'schedule', 'cli', 'api')),
  requested_by   integer references users on delete set null,
  status         text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  attempts       integer not null default 0,
  created_at     timestamptz not null default now(),
  started_at     timestamptz,
  finished_at    timestamptz,
  rows_read      integer not null default 0,
  rows_written   integer not null default 0,
  rows_changed   integer not null default 0,
  rows_rejected  integer not null default 0,
  unpublished    integer not null default 0,
  ingest_run_id  bigint references ingest_runs on delete set null,
  error          text
);
create index import_runs_source_idx on import_runs (source_id, created_at desc);
create index import_runs_org_idx on import_runs (org_id, created_at desc);
create index import_runs_seller_ok_idx on import_runs (seller_id, finished_at desc) where status = 'succeeded';

create table import_rejections (
  run_id      bigint not null references import_runs on delete cascade,
  seq         integer not null,
  line        integer not null,
  product_id  text,
  reason      text not null,
  primary key (run_id, seq)
);

create table api_keys (
  id            serial primary key,
  org_id        integer not null references organisations on delete cascade,
  name          text not null,
  prefix        text not null unique,       -- the key's first characters, shown to tell keys apart
  key_hash      text not null,              -- sha256 of the whole key
  seller_ids    integer[] not null,
  created_by    integer references users on delete set null,
  created_at    timestamptz not null default now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
