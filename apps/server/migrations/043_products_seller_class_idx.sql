-- The product list and quick find keep a license to its classification roots
-- (p.classification_id in (classifications under the roots)). Counting a seller's listings under them
-- read every listing row (bitmap heap scan); with (seller_id, classification_id) of the published
-- listings it is an index-only scan joined to the classifications. Large market, 116,000 published
-- listings at one seller: count under all eight roots 86 → 38 ms, under two roots 10 ms.
create index if not exists products_published_seller_class_idx
  on products (seller_id, classification_id) where published;
