import { type RollupUpdater, registerRollup } from './registry.js';

// The built-in roll-ups, rewritten in every ingest transaction (ingest.ts imports this module, so they
// always run). Columns and their definitions: migrations/010_rollups.sql.

/** Santiago calendar day of the run and its bounds [d0, d1) as instants. */
const DAY_BOUNDS = `select d as day, (d::timestamp at time zone 'America/Santiago') as d0,
         ((d + 1)::timestamp at time zone 'America/Santiago') as d1
    from (select ($2::timestamptz at time zone 'America/Santiago')::date as d) x`;

/**
 * rollup_daily_brand for (seller, day of the run): the state of the seller's published listings after
 * this run (listing_current) and the day's events (new and unpublished listings from products). Only
 * listings whose state changed since the day started (listing_current.since ≥ d0) are looked up in
 * price_intervals, one index probe each, to know their stock before the day.
 */
export const dailyListingRollup: RollupUpdater = async (client, { sellerId, observedAt, runId }) => {
  // Set-based over the seller's listings: hash joins only. While a seller's first runs are being loaded
  // the statistics still say it has no listings, and a nested loop over "one" row would rescan them all.
  await client.query('set local enable_nestloop = off');
  await client.query(
    `with b as (${DAY_BOUNDS})
     delete from rollup_daily_brand r using b where r.seller_id = $1 and r.day = b.day`,
    [sellerId, observedAt],
  );
  await client.query(
    `with b as (${DAY_BOUNDS}),
     -- stock before the day, only for listings whose state changed since the day started
     prev as materialized (
       select lc.product_id,
              (select pi.stock_out from price_intervals pi
                where pi.product_id = lc.product_id and pi.valid_from < b.d0
                  and (pi.valid_to is null or pi.valid_to >= b.d0)
                order by pi.valid_from desc limit 1) as stock_out
         from b join listing_current lc on lc.seller_id = $1 and lc.since >= b.d0
     ),
     -- the seller's published listings (the snapshot) …
     cur as (
       select lc.classification_id, lc.brand_id, true as published, false as is_new, false as gone_today,
              lc.price_type, lc.stock_out, lc.normal_price, lc.effective_price,
              (lc.currency = s.currency) as same_currency,
              case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                                 when 'BYQUANTITY' then lc.byquantity_price end as promo_price,
              prev.stock_out as prev_stock_out
         from sellers s
         join listing_current lc on lc.seller_id = s.id and lc.published
         left join prev on prev.product_id = lc.product_id
        where s.id = $1
       union all
       -- … and the day's new and unpublished listings (two index range scans on products)
       select p.classification_id, p.brand_id, false, (p.first_seen >= b.d0 and p.first_seen < b.d1),
              (not p.published and p.unpublished_at >= b.d0 and p.unpublished_at < b.d1),
              null, null, null, null, null, null, null
         from b join products p on p.seller_id = $1
                               and (p.first_seen >= b.d0 or (not p.published and p.unpublished_at >= b.d0))
     ),
     -- one pass: 0/1 flags and the values that are summed, then plain sums per group
     flags as (
       select classification_id, brand_id,
              case when published then 1 else 0 end as pub,
              case when published and not stock_out then 1 else 0 end as ins,
              case when published and price_type = 'SALE' then 1 else 0 end as ps,
              case when published and price_type = 'EXCLUSIVE' then 1 else 0 end as pe,
              case when published and price_type = 'BYQUANTITY' then 1 else 0 end as pq,
              case when published and same_currency then effective_price end as eff,
              case when published and same_currency then normal_price end as nor,
              case when published and price_type <> 'NORMAL' and same_currency and normal_price > 0
                        and promo_price < normal_price
                   then 100 * (normal_price - promo_price) / normal_price end as disc,
              case when is_new then 1 else 0 end as nw,
              case when gone_today then 1 else 0 end as gn,
              case when published and stock_out and prev_stock_out = false then 1 else 0 end as wo,
              case when published and not stock_out and prev_stock_out then 1 else 0 end as bk
         from cur
     ),
     agg as (
       select classification_id, brand_id,
              sum(pub) as published, sum(ins) as in_stock, sum(ps + pe + pq) as promoted,
              sum(ps) as promoted_sale, sum(pe) as promoted_exclusive, sum(pq) as promoted_byquantity,
              count(eff) as priced, coalesce(sum(eff), 0) as effective_price_sum,
              count(nor) as normal_priced, coalesce(sum(nor), 0) as normal_price_sum,
              count(disc) as discounted, coalesce(sum(disc), 0) as discount_pct_sum,
              sum(nw) as new_listings, sum(gn) as unpublished, sum(wo) as went_out_of_stock, sum(bk) as back_in_stock
         from flags
        group by classification_id, brand_id
     )
     insert into rollup_daily_brand (day, seller_id, classification_id, brand_id, currency, published, in_stock,
            promoted, promoted_sale, promoted_exclusive, promoted_byquantity, priced, effective_price_sum,
            effective_price_avg, normal_priced, normal_price_sum, normal_price_avg, discounted, discount_pct_sum,
            new_listings, unpublished, went_out_of_stock, back_in_stock, run_id)
     select b.day, $1, a.classification_id, a.brand_id, (select currency from sellers where id = $1),
            a.published, a.in_stock, a.promoted, a.promoted_sale, a.promoted_exclusive, a.promoted_byquantity,
            a.priced, a.effective_price_sum, round(a.effective_price_sum / nullif(a.priced, 0), 2),
            a.normal_priced, a.normal_price_sum, round(a.normal_price_sum / nullif(a.normal_priced, 0), 2),
            a.discounted, a.discount_pct_sum, a.new_listings, a.unpublished, a.went_out_of_stock, a.back_in_stock, $3
       from agg a cross join b`,
    [sellerId, observedAt, runId],
  );
  await client.query('reset enable_nestloop');
};

registerRollup('daily', dailyListingRollup);
