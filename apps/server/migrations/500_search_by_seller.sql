-- The trigram index of the product list's search and quick find (db/sql.ts wordsMatch) led by the
-- seller (issue 30, large market). Every search asks for one seller's listings (quick find: the pivot;
-- the product list: the sellers chosen), but migration 042's index is the whole market's: a word found
-- in 24,000 listings of 12 sellers made PostgreSQL read all 24,000 rows to keep the pivot's 1,900 (the
-- product list's count 70–90 ms, the dearest page 40–160 ms on the large market). With the seller as the
-- index's first column (btree_gin: a plain column in a GIN index) the index gives only that seller's
-- listings: the count 4 ms, the page ~20 ms; the index is smaller than 042's (170 MB vs 226 MB on large),
-- which it replaces. Without btree_gin (an external server that does not offer it) 042's index stays.
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_trgm')
     and exists (select 1 from pg_available_extensions where name = 'btree_gin') then
    begin
      create extension if not exists btree_gin;
    exception when insufficient_privilege or feature_not_supported then
      raise notice 'btree_gin no disponible: la búsqueda usa el índice de trigramas de todo el mercado';
    end;
  end if;
  if exists (select 1 from pg_extension where extname = 'pg_trgm')
     and exists (select 1 from pg_extension where extname = 'btree_gin') then
    create index if not exists products_seller_search_trgm_idx
        on products using gin (seller_id, search_key gin_trgm_ops);
    drop index if exists products_search_trgm_idx;
  end if;
end
$$;
