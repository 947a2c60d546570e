-- Pictures are drawn only for listings that exist (issue 26, finding 5; modules/media/known.ts): a
-- picture URL is answered only when a listing (products.image_url) or a brand's reference picture
-- (reference_images.image_url) names it. Hash indexes: equality only, smaller than b-trees on URLs.
create index if not exists products_image_url_hash_idx on products using hash (image_url);
create index if not exists reference_images_image_url_hash_idx on reference_images using hash (image_url);
