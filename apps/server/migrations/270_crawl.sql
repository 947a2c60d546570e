-- Crawler (issue 28; modules/crawler, docs/architecture.md "Crawler").
--
-- A crawl source is an import_sources row of kind 'crawl' (settings: {urls, sitemaps, pattern}); each crawl
-- is an import_runs row of source_kind 'crawl'.
-- crawl_pages: what Vigía remembers of each page of a source between runs — the validators for a
--   conditional GET (ETag / Last-Modified), the last observation read from it (a 304 re-asserts it, so the
--   listing stays fresh without re-reading the page), and whether it ever gave a product (a run that
--   suddenly reads nothing from pages that used to work is a redesign or a block, flagged once).
-- crawl_run_pages: one row per page a run plans, with its state; a worker killed mid-crawl resumes from
--   the pages still 'planned' (a page is marked done only after its observation was ingested).

create table crawl_pages (
  source_id        integer not null references import_sources on delete cascade,
  url              text not null,
  etag             text,
  last_modified    text,
  last_observation jsonb,
  product_id       text,
  ok_runs          integer not null default 0,   -- runs that read a product from it
  last_state       text,
  last_reason      text,
  last_fetched_at  timestamptz,
  primary key (source_id, url)
);

create table crawl_run_pages (
  run_id       bigint not null references import_runs on delete cascade,
  seq          integer not null,
  url          text not null,
  state        text not null default 'planned'
               check (state in ('planned', 'unchanged', 'extracted', 'rejected', 'failed')),
  http_status  smallint,
  reason       text,
  detail       text,
  product_id   text,
  attempts     smallint not null default 0,
  fetched_at   timestamptz,
  primary key (run_id, seq)
);
create index crawl_run_pages_planned_idx on crawl_run_pages (run_id, seq) where state = 'planned';
