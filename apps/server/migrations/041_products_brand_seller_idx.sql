-- POST /v1/licenses/brands/me: "which brands have a published listing at any of these sellers" is
-- answered per brand with one index probe (exists … brand_id = b.id and seller_id = any(…)).
create index products_published_brand_seller_idx on products (brand_id, seller_id) where published;
