-- Issue 25: a promotion priced at 0 (or below) has no promotion price, as it has no discount (migration
-- 230): the promotions' average promotion price (Promociones por tipo, por duración, downloads) and the
-- price distributions (rango, dispersión) count only promotion prices above 0. TypeScript: packages/domain
-- promotionPrice (docs/metrics.md "One implementation per formula").
create or replace function vigia_promo_price(promo numeric) returns numeric
language sql immutable parallel safe as $$
  select case when promo > 0 then promo end
$$;

-- The roll-up (modules/promotions/rollup.ts) summed every promotion price into the cumulative tables'
-- s_promo/e_promo with their counts; take out exactly what it added for promotions priced at 0 or below,
-- so that the stored sums equal a recount with the rule (promotions/check.ts).
with bad as (
  select seller_id, node, price_type, currency, first_day, last_day, promo_price as p
    from promo_span_nodes
   where promo_price <= 0
)
update promo_type_cum c
   set s_promo = c.s_promo - coalesce((select sum(b.p) from bad b
                                        where (b.seller_id, b.node, b.price_type, b.currency)
                                            = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                          and b.first_day <= c.day), 0),
       s_promo_n = c.s_promo_n - (select count(*) from bad b
                                   where (b.seller_id, b.node, b.price_type, b.currency)
                                       = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                     and b.first_day <= c.day),
       e_promo = c.e_promo - coalesce((select sum(b.p) from bad b
                                        where (b.seller_id, b.node, b.price_type, b.currency)
                                            = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                          and b.last_day <= c.day), 0),
       e_promo_n = c.e_promo_n - (select count(*) from bad b
                                   where (b.seller_id, b.node, b.price_type, b.currency)
                                       = (c.seller_id, c.classification_id, c.price_type, c.currency)
                                     and b.last_day <= c.day)
 where exists (select 1 from bad b
                where (b.seller_id, b.node, b.price_type, b.currency)
                    = (c.seller_id, c.classification_id, c.price_type, c.currency));

with bad as (
  select seller_id, node, currency, last_day - first_day + 1 as duration, last_day, promo_price as p
    from promo_span_nodes
   where promo_price <= 0 and last_day is not null
)
update promo_duration_cum c
   set e_promo = c.e_promo - coalesce((select sum(b.p) from bad b
                                        where (b.seller_id, b.node, b.currency, b.duration)
                                            = (c.seller_id, c.classification_id, c.currency, c.duration)
                                          and b.last_day <= c.day), 0),
       e_promo_n = c.e_promo_n - (select count(*) from bad b
                                   where (b.seller_id, b.node, b.currency, b.duration)
                                       = (c.seller_id, c.classification_id, c.currency, c.duration)
                                     and b.last_day <= c.day)
 where exists (select 1 from bad b
                where (b.seller_id, b.node, b.currency, b.duration)
                    = (c.seller_id, c.classification_id, c.currency, c.duration));
