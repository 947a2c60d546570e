-- Image verification reads (issue 15): the screens filter a comparison date's checks by seller and brand
-- and count or order them by similarity. Measured on the medium market (71,037 checks, 17,800 a date):
-- joining products for those two columns took most of the time, so the check keeps its listing's seller
-- (fixed for a listing) and brand (kept by the image-verification roll-up when a listing's brand changes).
-- A check inserted without them gets them from its listing (trigger), whoever inserts it.

alter table image_checks add column seller_id integer, add column brand_id integer;
update image_checks c set seller_id = p.seller_id, brand_id = p.brand_id from products p where p.id = c.product_id;
alter table image_checks alter column seller_id set not null;

create function image_checks_fill_listing() returns trigger language plpgsql as $$
begin
  if new.seller_id is null then
    select p.seller_id, coalesce(new.brand_id, p.brand_id) into new.seller_id, new.brand_id
      from products p where p.id = new.product_id;
  end if;
  return new;
end $$;
create trigger image_checks_fill_listing before insert on image_checks
  for each row execute function image_checks_fill_listing();

drop index if exists image_checks_date_similarity_idx;
create index image_checks_date_seller_idx on image_checks (comparison_date, seller_id);
