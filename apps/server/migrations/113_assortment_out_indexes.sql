-- Assortment drill-downs of out-of-stock listings (issue 14 part 5: speed at 16 concurrent requests on the
-- medium market). Indexes only: nothing to backfill (CREATE INDEX reads the existing rows).
--
-- 1. "Out of stock at the end" ('Todos' / a seller's row of /v1/assortment/stock/products, stock = out)
--    and "went out of stock" walk each seller's spans in the page's sort order, checking the list's
--    conditions on the index tuples. In the full sort indexes of migration 111 fewer than 1 tuple in 300
--    is an out-of-stock span valid on the day (medium: 8,500 of 3.1 M spans; 271,000 spans are out of
--    stock at all), so a page of 20 per seller read ~2,000 index pages. The same keys over the
--    out-of-stock spans only (a went-out event is an out-of-stock span too: prev_stock_out rides along)
--    read about a tenth of that.
create index assortment_spans_out_price_idx on assortment_spans
  (seller_id, currency, effective_price, product_id, last_day, first_day, classification_id, brand_id,
   prev_stock_out) where stock_out;
create index assortment_spans_out_name_idx on assortment_spans
  (seller_id, name_key, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;
create index assortment_spans_out_brand_key_idx on assortment_spans
  (seller_id, brand_key, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;
create index assortment_spans_out_id_idx on assortment_spans
  (seller_id, product_id, last_day, first_day, classification_id, brand_id, prev_stock_out)
  where stock_out;

-- 2. A drill-down's total is the roll-up's count on each seller's day (sum of published, or published −
--    in_stock, over the seller's ~300 (classification, brand) rows of that day), and the assortment
--    figures read the same rows: with only the unique key those were ~300 heap pages per seller (3,300
--    buffers for the 12 sellers of the demo license, ~2 ms of every 'Todos' page). The columns they read
--    ride in this index (index-only once autovacuum has marked the pages all-visible; a migration runs
--    in a transaction, where VACUUM cannot).
create index rollup_daily_brand_counts_idx on rollup_daily_brand (seller_id, day)
  include (classification_id, brand_id, published, in_stock, priced, effective_price_sum);
-- 3. Likewise the events' totals (running totals of assortment_events_cum at both ends of the period, ~150
--    rows per seller and end: 3,700 heap pages for a 'Todos' went-out page).
create index assortment_events_cum_counts_idx on assortment_events_cum (seller_id, day)
  include (classification_id, brand_id, went_out_cum, back_in_cum);
analyze assortment_spans;
analyze rollup_daily_brand;
analyze assortment_events_cum;
