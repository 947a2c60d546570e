-- Issue 25: a promotion priced at 0 (or below) has no promotion price, as it has no discount (migration
-- 230): the promotions' average promotion price (Promociones por tipo, por duración, downloads) and the
-- price distributions (rango, dispersión) count only promotion prices above 0. TypeScript: packages/domain
-- promotionPrice (docs/metrics.md "One implementation per formula").
create or replace function vigia_promo_price(promo numeric) returns numeric
language sql immutable parallel safe as $$
  select case when promo > 0 then promo end
$$;

-- The roll-up (modules/promotions/rollup.ts) summed every promotion price into the cumulative tables'
-- s_promo/e_promo with their counts; take out exactly what it added for promotions priced at 0 or below
-- (started / ended on or before each row's day), so that the stored sums equal a recount with the rule
-- (promotions/check.ts).
with fix as (
  select c.seller_id, c.classification_id, c.price_type, c.currency, c.day,
         coalesce(sum(b.promo_price) filter (where b.first_day <= c.day), 0) as s_sum,
         count(*) filter (where b.first_day <= c.day) as s_n,
         coalesce(sum(b.promo_price) filter (where b.last_day <= c.day), 0) as e_sum,
         count(*) filter (where b.last_day <= c.day) as e_n
    from promo_type_cum c
    join promo_span_nodes b on b.promo_price <= 0
     and (b.seller_id, b.node, b.price_type, b.currency) = (c.seller_id, c.classification_id, c.price_type, c.currency)
   group by 1, 2, 3, 4, 5
)
update promo_type_cum c
   set s_promo = c.s_promo - f.s_sum, s_promo_n = c.s_promo_n - f.s_n,
       e_promo = c.e_promo - f.e_sum, e_promo_n = c.e_promo_n - f.e_n
  from fix f
 where (f.seller_id, f.classification_id, f.price_type, f.currency, f.day)
     = (c.seller_id, c.classification_id, c.price_type, c.currency, c.day);

-- promo_duration_cum holds ended promotions only, keyed by their duration.
with fix as (
  select c.seller_id, c.classification_id, c.currency, c.duration, c.day,
         coalesce(sum(b.promo_price), 0) as e_sum, count(*) as e_n
    from promo_duration_cum c
    join promo_span_nodes b on b.promo_price <= 0 and b.last_day <= c.day
     and (b.seller_id, b.node, b.currency, b.last_day - b.first_day + 1)
       = (c.seller_id, c.classification_id, c.currency, c.duration)
   group by 1, 2, 3, 4, 5
)
update promo_duration_cum c
   set e_promo = c.e_promo - f.e_sum, e_promo_n = c.e_promo_n - f.e_n
  from fix f
 where (f.seller_id, f.classification_id, f.currency, f.duration, f.day)
     = (c.seller_id, c.classification_id, c.currency, c.duration, c.day);
