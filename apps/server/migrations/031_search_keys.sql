-- Normalised text keys for the product list (sort by name, search) and quick find
-- (modules/product-list/queries.ts, modules/dashboard/queries.ts, db/sql.ts). They were computed per row
-- and per request (translate(lower(...)) over every listing of the selected sellers: ~190 ms for one seller
-- of the medium market); stored, they cost one translate when a listing's name or codes change, and the
-- name sort of one seller becomes an index scan that stops after the page.
--   name_key    the name, lower case, accents removed (null when the listing has no name)
--   search_key  name, sku, seller's product id and EAN, the same way, separated by spaces
--   brands.name_key  the brand name, the same way (the search matches words in the brand too)
-- Keep the translate() lists equal to db/sql.ts SEARCH_FROM / SEARCH_TO.
alter table products
  add column if not exists name_key text generated always as (
    translate(lower(name), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc')
  ) stored;
alter table products
  add column if not exists search_key text generated always as (
    translate(
      lower(coalesce(name, '') || ' ' || coalesce(sku, '') || ' ' || product_id || ' ' || coalesce(ean, '')),
      'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc')
  ) stored;
alter table brands
  add column if not exists name_key text generated always as (
    translate(lower(name), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc')
  ) stored;

-- The product list's default view: one seller's published listings by name, either direction
-- (nulls last both ways, then by id).
create index if not exists products_list_name_asc_idx
  on products (seller_id, name_key asc nulls last, id asc) where published;
create index if not exists products_list_name_desc_idx
  on products (seller_id, name_key desc nulls last, id desc) where published;
