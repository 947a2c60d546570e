-- Issue 25: one discount definition. The promotions roll-up (modules/promotions/rollup.ts) summed its own
-- discount rule into the cumulative tables, 100 × (normal − promo) / normal whenever normal > 0 and
-- promo < normal — a promotion priced at 0 counted as a 100 % discount. It now sums vigia_discount_pct
-- (migration 050; domain discountPercent), which needs 0 < promo < normal. The stored sums are corrected
-- here by taking out exactly what the old rule added for those promotions (promo_price ≤ 0): the same
-- numeric expression, so the result equals a recount with the one rule (promotions/check.ts).

with bad as (
  select seller_id, node, price_type, currency, first_day, last_day,
         100 * (normal_price - promo_price) / normal_price as d
    from promo_span_nodes
   where normal_price > 0 and promo_price <= 0
)
update promo_type_cum c
   set s_disc = c.s_disc - coalesce((select sum(b.d) from bad b
                                      where (b.seller_id, b.node, b.price_type, b.currency)
                                          = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                        and b.first_day <= c.day), 0),
       s_disc_n = c.s_disc_n - (select count(*) from bad b
                                 where (b.seller_id, b.node, b.price_type, b.currency)
                                     = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                   and b.first_day <= c.day),
       e_disc = c.e_disc - coalesce((select sum(b.d) from bad b
                                      where (b.seller_id, b.node, b.price_type, b.currency)
                                          = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                        and b.last_day <= c.day), 0),
       e_disc_n = c.e_disc_n - (select count(*) from bad b
                                 where (b.seller_id, b.node, b.price_type, b.currency)
                                     = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                   and b.last_day <= c.day)
 where exists (select 1 from bad b
                where (b.seller_id, b.node, b.price_type, b.currency)
                    = (c.seller_id, c.classification_id, c.price_type, c.currency));

with bad as (
  select seller_id, node, currency, last_day - first_day + 1 as duration, last_day,
         100 * (normal_price - promo_price) / normal_price as d
    from promo_span_nodes
   where normal_price > 0 and promo_price <= 0 and last_day is not null
)
update promo_duration_cum c
   set e_disc = c.e_disc - coalesce((select sum(b.d) from bad b
                                      where (b.seller_id, b.node, b.currency, b.duration)
                                          = (c.seller_id, c.classification_id, c.currency, c.duration)
                                        and b.last_day <= c.day), 0),
       e_disc_n = c.e_disc_n - (select count(*) from bad b
                                 where (b.seller_id, b.node, b.currency, b.duration)
                                     = (c.seller_id, c.classification_id, c.currency, c.duration)
                                   and b.last_day <= c.day)
 where exists (select 1 from bad b
                where (b.seller_id, b.node, b.currency, b.duration)
                    = (c.seller_id, c.classification_id, c.currency, c.duration));
