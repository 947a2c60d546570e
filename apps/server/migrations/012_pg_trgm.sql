-- Trigram similarity for title matching (modules/ingest/matching.ts). Created when the server offers
-- the extension and the role may create it (pg_trgm is a trusted extension since PostgreSQL 13);
-- otherwise matching falls back to a token Jaccard computed in the server process.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
    begin
      create extension if not exists pg_trgm;
    exception when insufficient_privilege or feature_not_supported then
      raise notice 'pg_trgm no disponible: el emparejamiento por título usará Jaccard de palabras';
    end;
  end if;
end
$$;
