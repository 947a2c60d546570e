-- Image verification reads (issue 15 speed): items and kpis scan one comparison date's checks of the
-- requested sellers (17,800 a date on the medium market) to count, classify and order them; with the
-- index of migration 121 each of those rows is a heap visit (~2,000 pages a date, 50 ms with a cold
-- cache). The columns they read ride in the index, so the scan can stay in it (index-only once
-- autovacuum has marked the pages all-visible; a migration runs in a transaction, where VACUUM cannot).

create index image_checks_date_seller_cover_idx on image_checks (comparison_date, seller_id)
  include (similarity, brand_id, product_id, id);
drop index if exists image_checks_date_seller_idx;
analyze image_checks;
