-- Matching (issue 29; modules/matching/, docs/architecture.md "Matching").
--   products.mpn            the manufacturer part number a feed gives (the feeds branch fills it; "if not
--                           exists": that branch may add the same column).
--   match_members           new sources: gtin / mpn (identifier equality, normalised), auto (title score at
--                           or above the high threshold: confirmed, reviewable), anchor (the listing a group
--                           was opened around when the listing it was matched with had no group); the
--                           listing it was compared with (target_product_id), the score and the parts that
--                           agreed and did not (parts), when the row was made.
--   match_decisions         every decision, automatic or by a person, with who and when and the membership
--                           it replaced (what undo restores).
--   match_keys              what candidate search reads of a listing: normalised GTIN and MPN, brand key,
--                           folded title (pg_trgm index), kept by the matching run (descr_hash tells when a
--                           listing's description changed).
alter table products add column if not exists mpn text;

alter table match_members drop constraint if exists match_members_method_check;
alter table match_members add constraint match_members_method_check
  check (method in ('ean', 'gtin', 'mpn', 'auto', 'title', 'manual', 'anchor'));
alter table match_members add column if not exists target_product_id bigint references products on delete set null;
alter table match_members add column if not exists score real;
alter table match_members add column if not exists parts jsonb;
alter table match_members add column if not exists created_at timestamptz not null default now();
-- the review queue: live suggestions and automatic matches, newest first
create index if not exists match_members_review_idx on match_members (status, method) where status <> 'rejected';
-- a rejected pair is looked up by its two listings
create index if not exists match_members_rejected_idx on match_members (product_id, target_product_id)
  where status = 'rejected';

create table if not exists match_decisions (
  id                bigserial primary key,
  product_id        bigint not null references products on delete cascade,
  group_id          bigint not null references match_groups on delete cascade,
  target_product_id bigint references products on delete set null,
  action            text not null check (action in ('auto', 'accept', 'reject', 'undo', 'report')),
  -- the membership before the decision (null: the listing was not in the group)
  prev_status       text check (prev_status in ('confirmed', 'suggested', 'rejected')),
  prev_method       text,
  new_status        text check (new_status in ('confirmed', 'suggested', 'rejected')),
  score             real,
  note              text,
  user_id           integer references users on delete set null,
  at                timestamptz not null default now(),
  -- set when a later undo reverted this decision
  undone_by         bigint references match_decisions
);
create index if not exists match_decisions_product_idx on match_decisions (product_id, id);
create index if not exists match_decisions_group_idx on match_decisions (group_id, id);

create table if not exists match_keys (
  product_id  bigint primary key references products on delete cascade,
  seller_id   integer not null,
  gtin        text,
  mpn         text,
  brand_key   text,
  title_key   text not null,
  descr_hash  bigint
);
create index if not exists match_keys_gtin_idx on match_keys (gtin) where gtin is not null;
create index if not exists match_keys_mpn_idx on match_keys (brand_key, mpn) where mpn is not null;
create index if not exists match_keys_brand_idx on match_keys (brand_key, seller_id);
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    create index if not exists match_keys_title_trgm_idx on match_keys using gin (title_key gin_trgm_ops);
  end if;
end
$$;
