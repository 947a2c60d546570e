-- Issue 25: a promotion's prices are converted with the rate in force on the promotion's own day (its
-- first day: the day whose prices it carries), not at the window's end. The cumulative tables (migration
-- 101) keep their sums in the promotion's currency and, beside them, the same sums converted to CLP at
-- each promotion's first day (`*_clp`, with their counts: a promotion whose currency had no rate on that
-- day is not in them). A question in CLP reads the CLP sums; in the promotions' own currency the sums as
-- they are; in a third currency the CLP sums divided by that currency's rate (docs/metrics.md
-- "Promotions — prices at their day").

-- CLP per unit of one currency on day `d`: the row of vigia_fx_rates_on(d) (the one rate in force), CLP 1.
create or replace function vigia_fx_rate_on(cur text, d date) returns numeric
language sql stable parallel safe as $$
  select case when cur = 'CLP' then 1::numeric
              else (select r.clp_per_unit from vigia_fx_rates_on(d) r where r.currency = cur) end
$$;

alter table promo_type_cum
  add column s_normal_clp numeric not null default 0, add column s_normal_clp_n integer not null default 0,
  add column s_promo_clp numeric not null default 0, add column s_promo_clp_n integer not null default 0,
  add column e_normal_clp numeric not null default 0, add column e_normal_clp_n integer not null default 0,
  add column e_promo_clp numeric not null default 0, add column e_promo_clp_n integer not null default 0;
alter table promo_duration_cum
  add column e_normal_clp numeric not null default 0, add column e_normal_clp_n integer not null default 0,
  add column e_promo_clp numeric not null default 0, add column e_promo_clp_n integer not null default 0;

-- The rebuild of migration 102, with the CLP sums, and with the one discount and promotion-price rules
-- (vigia_discount_pct, vigia_promo_price: migrations 230 and 310 corrected the stored rows, not this
-- function, which still wrote the old rules for the sellers it rebuilt).
create or replace function promo_rebuild_cumulative(sellers integer[]) returns void language plpgsql as $$
begin
  delete from promo_type_cum where seller_id = any(sellers);
  delete from promo_duration_cum where seller_id = any(sellers);
  delete from promo_duration_keys where seller_id = any(sellers);
  delete from promo_cum_currencies where seller_id = any(sellers);

  insert into promo_cum_currencies (seller_id, currency)
  select distinct seller_id, currency from promo_spans where seller_id = any(sellers);

  -- the rate of each (currency, first day) once, not once per promotion
  create temp table promo_rebuild_fx on commit drop as
  select currency, first_day, vigia_fx_rate_on(currency, first_day) as clp
    from (select distinct currency, first_day from promo_spans where seller_id = any(sellers)) x;

  insert into promo_type_cum (seller_id, classification_id, price_type, currency, day,
                              started, s_normal, s_normal_n, s_promo, s_promo_n, s_disc, s_disc_n,
                              ended, e_normal, e_normal_n, e_promo, e_promo_n, e_disc, e_disc_n,
                              s_normal_clp, s_normal_clp_n, s_promo_clp, s_promo_clp_n,
                              e_normal_clp, e_normal_clp_n, e_promo_clp, e_promo_clp_n)
  with v as (
    select v.seller_id, v.node, v.price_type, v.currency, v.first_day, v.last_day, v.normal_price as n,
           vigia_promo_price(v.promo_price) as p, vigia_discount_pct(v.normal_price, v.promo_price) as d,
           v.normal_price * fx.clp as nc, vigia_promo_price(v.promo_price) * fx.clp as pc
      from promo_span_nodes v
      left join promo_rebuild_fx fx on fx.currency = v.currency and fx.first_day = v.first_day
     where v.seller_id = any(sellers)
  ),
  ev as (
    select seller_id, node, price_type, currency, first_day as day, 1 as s, n as sn, p as sp, d as sd, nc as snc,
           pc as spc, 0 as e, null::numeric as en, null::numeric as ep, null::numeric as ed, null::numeric as enc,
           null::numeric as epc
      from v
    union all
    select seller_id, node, price_type, currency, last_day, 0, null, null, null, null, null, 1, n, p, d, nc, pc
      from v where last_day is not null
  ),
  daily as (
    select seller_id, node, price_type, currency, day,
           sum(s) as s, coalesce(sum(sn), 0) as sn, count(sn) as snn, coalesce(sum(sp), 0) as sp, count(sp) as spn,
           coalesce(sum(sd), 0) as sd, count(sd) as sdn,
           sum(e) as e, coalesce(sum(en), 0) as en, count(en) as enn, coalesce(sum(ep), 0) as ep, count(ep) as epn,
           coalesce(sum(ed), 0) as ed, count(ed) as edn,
           coalesce(sum(snc), 0) as snc, count(snc) as sncn, coalesce(sum(spc), 0) as spc, count(spc) as spcn,
           coalesce(sum(enc), 0) as enc, count(enc) as encn, coalesce(sum(epc), 0) as epc, count(epc) as epcn
      from ev group by 1, 2, 3, 4, 5
  )
  select seller_id, node, price_type, currency, day,
         sum(s) over w, sum(sn) over w, sum(snn) over w, sum(sp) over w, sum(spn) over w, sum(sd) over w, sum(sdn) over w,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w,
         sum(snc) over w, sum(sncn) over w, sum(spc) over w, sum(spcn) over w,
         sum(enc) over w, sum(encn) over w, sum(epc) over w, sum(epcn) over w
    from daily
  window w as (partition by seller_id, node, price_type, currency order by day);

  insert into promo_duration_cum (seller_id, classification_id, currency, duration, day,
                                  ended, e_normal, e_normal_n, e_promo, e_promo_n, e_disc, e_disc_n,
                                  e_normal_clp, e_normal_clp_n, e_promo_clp, e_promo_clp_n)
  with v as (
    select v.seller_id, v.node, v.currency, v.last_day - v.first_day + 1 as duration, v.last_day,
           v.normal_price as n, vigia_promo_price(v.promo_price) as p,
           vigia_discount_pct(v.normal_price, v.promo_price) as d,
           v.normal_price * fx.clp as nc, vigia_promo_price(v.promo_price) * fx.clp as pc
      from promo_span_nodes v
      left join promo_rebuild_fx fx on fx.currency = v.currency and fx.first_day = v.first_day
     where v.last_day is not null and v.seller_id = any(sellers)
  ),
  daily as (
    select seller_id, node, currency, duration, last_day as day,
           count(*) as e, coalesce(sum(n), 0) as en, count(n) as enn, coalesce(sum(p), 0) as ep, count(p) as epn,
           coalesce(sum(d), 0) as ed, count(d) as edn,
           coalesce(sum(nc), 0) as enc, count(nc) as encn, coalesce(sum(pc), 0) as epc, count(pc) as epcn
      from v group by 1, 2, 3, 4, 5
  )
  select seller_id, node, currency, duration, day,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w,
         sum(enc) over w, sum(encn) over w, sum(epc) over w, sum(epcn) over w
    from daily
  window w as (partition by seller_id, node, currency, duration order by day);

  insert into promo_duration_keys (seller_id, classification_id, currency, duration)
  select distinct seller_id, classification_id, currency, duration from promo_duration_cum where seller_id = any(sellers);

  drop table promo_rebuild_fx;
end
$$;

-- Every seller's cumulative rows again, now with their CLP sums.
select promo_rebuild_cumulative(coalesce((select array_agg(distinct seller_id) from promo_spans), '{}'));
