-- One change signal (issue 24, docs/architecture.md "Change signal and read models"): what changed, per
-- seller and per scope, bumped in the same transaction as the change and broadcast with NOTIFY on the
-- channel `vigia_changes` (delivered to every listening process when that transaction commits).
--
--   scope 'listings'  an ingest run of the seller (prices, listings, promotions and every roll-up: the
--                     notification events and image checks a run records among them);
--         'matches'   title-match suggestions of the seller's listings, or a person's decision on one;
--         'products'  listings of the seller were deleted (operations);
--         'images'    the similarity of image checks of the seller's listings was measured.
--
-- A row's version only grows, and every bump happens inside the changing transaction, so the sum of all
-- versions grows with every committed change, in whatever order concurrent transactions commit (the
-- highest sequence value would not: a transaction that took its number first may commit last). That sum
-- is the market's data version, read once per answer by the read-model holder (platform/read-model.ts).
-- Rows are never deleted (a deleted seller's row stays: the sum must never go back to a value it had).
create table data_changes (
  seller_id  integer not null,
  scope      text not null check (scope in ('listings', 'matches', 'products', 'images')),
  version    bigint not null default 0,
  changed_at timestamptz not null default now(),
  primary key (seller_id, scope)
);

-- Bumps the sellers' versions of one scope (in seller order: two transactions bumping the same sellers
-- cannot deadlock) and notifies `{"s":seller,"k":scope}` for each at commit.
create function bump_changes(sellers integer[], change_scope text) returns void language plpgsql as $$
declare
  s integer;
begin
  for s in select distinct x from unnest(sellers) as x where x is not null order by 1 loop
    insert into data_changes as d (seller_id, scope, version, changed_at) values (s, change_scope, 1, now())
    on conflict (seller_id, scope) do update set version = d.version + 1, changed_at = now();
    perform pg_notify('vigia_changes', json_build_object('s', s, 'k', change_scope)::text);
  end loop;
end
$$;

-- Deleting products is a change of their sellers' data (the promotions copies read them again whole).
create function products_delete_change_signal() returns trigger language plpgsql as $$
begin
  perform bump_changes(array(select distinct seller_id from gone), 'products');
  return null;
end
$$;
create trigger products_delete_change_signal after delete on products
  referencing old table as gone for each statement execute function products_delete_change_signal();

-- Start from what the sellers' ingest counters say, so that versions continue from the data already in.
insert into data_changes (seller_id, scope, version)
select id, 'listings', ingest_seq from sellers where ingest_seq > 0;
insert into data_changes (seller_id, scope, version)
select seller_id, 'products', deleted from promo_versions where deleted > 0;
