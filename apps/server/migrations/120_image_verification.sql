-- Image verification measured from pixels (issue 15; docs/metrics.md "Image verification").
--
-- image_scores: the similarity of one (reference picture, seller picture) pair, measured once by the job
-- queue (modules/image-verification/score-job.ts) — similarity null = not measured yet (pending).
-- image_checks.similarity is that score copied onto each check of the pair (the screens filter and count
-- on it with the check's date), null until measured. image_reviews: a customer's decision on a picture
-- shown "for review" — per organisation, listing and picture, so it sticks for that picture on every
-- comparison date and lapses when the seller changes the picture.

create table image_scores (
  reference_url   text not null,
  image_url       text not null,
  similarity      real check (similarity between 0 and 1),
  ssim            real,
  coverage        real,
  colour          real,
  reference_hash  text,
  image_hash      text,
  hash_distance   smallint,
  region          jsonb,
  diff_map        real[],
  algorithm       text,
  error           text,
  attempts        integer not null default 0,
  scored_at       timestamptz,
  primary key (reference_url, image_url)
);
create index image_scores_pending_idx on image_scores (attempts) where similarity is null and error is null;

-- The similarities stored so far were made up by the demo seed, not measured: they are dropped and every
-- pair is queued for measuring (the server enqueues the backfill job at start).
alter table image_checks alter column similarity drop not null;
update image_checks set similarity = null where similarity is not null;
insert into image_scores (reference_url, image_url)
select distinct reference_url, image_url from image_checks
on conflict do nothing;
create index image_checks_pair_idx on image_checks (reference_url, image_url);
create index image_checks_date_similarity_idx on image_checks (comparison_date, similarity);

create table image_reviews (
  org_id      integer not null references organisations on delete cascade,
  product_id  bigint not null references products on delete cascade,
  image_url   text not null,
  decision    text not null check (decision in ('accepted', 'wrong')),
  user_id     integer references users on delete set null,
  decided_at  timestamptz not null default now(),
  primary key (org_id, product_id, image_url)
);
