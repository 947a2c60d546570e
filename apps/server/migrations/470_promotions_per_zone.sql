-- Issue 25: the promotions themselves per market zone. promo_spans (a listing's consecutive days on one
-- promotion type) and the cumulative tables built on it (migrations 101, 430) had the deployment zone's
-- days: an organisation in another zone read Santiago's start and end days beside its own zone's
-- listing-days (promo_daily, migration 432) in one answer. A promotion's days are not Santiago's days
-- relabelled: "a day's state is its last run's" picks other runs in another zone (a promotion that began
-- at 23:30 in Lima and ended at 00:30 lasts one day there and none in Santiago). So every zone of
-- rollup_zones keeps its own promotions, like the daily roll-up (migration 431): written at ingest for
-- every zone (modules/promotions/rollup.ts), rebuilt from the price history with a zone's other rows by
-- the 'rollup-zone' job (the promotions' zone rebuild), read by the screens in ingest zones.ts dayZone.
-- The rows written so far are the deployment zone's.
alter table promo_spans add column zone text not null default 'America/Santiago';
alter table promo_type_cum add column zone text not null default 'America/Santiago';
alter table promo_duration_cum add column zone text not null default 'America/Santiago';
alter table promo_cum_currencies add column zone text not null default 'America/Santiago';
alter table promo_duration_keys add column zone text not null default 'America/Santiago';

-- the keys and the screens' indexes lead with the zone (a question reads one zone)
alter table promo_type_cum drop constraint promo_type_cum_pkey;
alter table promo_type_cum add primary key (zone, seller_id, classification_id, price_type, currency, day);
alter table promo_duration_cum drop constraint promo_duration_cum_pkey;
alter table promo_duration_cum add primary key (zone, seller_id, classification_id, currency, duration, day);
alter table promo_cum_currencies drop constraint promo_cum_currencies_pkey;
alter table promo_cum_currencies add primary key (zone, seller_id, currency);
alter table promo_duration_keys drop constraint promo_duration_keys_pkey;
alter table promo_duration_keys add primary key (zone, seller_id, classification_id, currency, duration);

drop index promo_spans_scope_idx;
create index promo_spans_scope_idx on promo_spans (zone, seller_id, classification_id, first_day);
drop index promo_spans_seller_first_idx;
create index promo_spans_seller_first_idx on promo_spans (zone, seller_id, first_day);
drop index promo_spans_seller_last_idx;
create index promo_spans_seller_last_idx on promo_spans (zone, seller_id, last_day);
drop index promo_spans_scope_end_idx;
create index promo_spans_scope_end_idx on promo_spans (zone, seller_id, classification_id,
  (coalesce(last_day, 'infinity'::date))) include (first_day);
drop index promo_spans_running_idx;
create index promo_spans_running_idx on promo_spans (zone, seller_id, classification_id)
  include (first_day, normal_price, promo_price, currency) where last_day is null;

-- the view keeps its columns (a replaced view may only add some at the end): the zone comes last
create or replace view promo_span_nodes as
select ps.id, ps.product_id, ps.seller_id, ps.classification_id, ps.price_type, ps.first_day, ps.last_day,
       ps.normal_price, ps.promo_price, ps.currency, node, ps.zone
  from promo_spans ps join classifications c on c.id = ps.classification_id cross join unnest(c.path) node;

-- The rebuild of migration 430 for one zone's rows of the sellers.
create or replace function promo_rebuild_cumulative(sellers integer[], z text) returns void language plpgsql as $$
begin
  delete from promo_type_cum where zone = z and seller_id = any(sellers);
  delete from promo_duration_cum where zone = z and seller_id = any(sellers);
  delete from promo_duration_keys where zone = z and seller_id = any(sellers);
  delete from promo_cum_currencies where zone = z and seller_id = any(sellers);

  insert into promo_cum_currencies (zone, seller_id, currency)
  select distinct z, seller_id, currency from promo_spans where zone = z and seller_id = any(sellers);

  -- the rate of each (currency, first day) once, not once per promotion
  create temp table promo_rebuild_fx on commit drop as
  select currency, first_day, vigia_fx_rate_on(currency, first_day) as clp
    from (select distinct currency, first_day from promo_spans where zone = z and seller_id = any(sellers)) x;

  insert into promo_type_cum (zone, seller_id, classification_id, price_type, currency, day,
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
     where v.zone = z and v.seller_id = any(sellers)
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
  select z, seller_id, node, price_type, currency, day,
         sum(s) over w, sum(sn) over w, sum(snn) over w, sum(sp) over w, sum(spn) over w, sum(sd) over w, sum(sdn) over w,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w,
         sum(snc) over w, sum(sncn) over w, sum(spc) over w, sum(spcn) over w,
         sum(enc) over w, sum(encn) over w, sum(epc) over w, sum(epcn) over w
    from daily
  window w as (partition by seller_id, node, price_type, currency order by day);

  insert into promo_duration_cum (zone, seller_id, classification_id, currency, duration, day,
                                  ended, e_normal, e_normal_n, e_promo, e_promo_n, e_disc, e_disc_n,
                                  e_normal_clp, e_normal_clp_n, e_promo_clp, e_promo_clp_n)
  with v as (
    select v.seller_id, v.node, v.currency, v.last_day - v.first_day + 1 as duration, v.last_day,
           v.normal_price as n, vigia_promo_price(v.promo_price) as p,
           vigia_discount_pct(v.normal_price, v.promo_price) as d,
           v.normal_price * fx.clp as nc, vigia_promo_price(v.promo_price) * fx.clp as pc
      from promo_span_nodes v
      left join promo_rebuild_fx fx on fx.currency = v.currency and fx.first_day = v.first_day
     where v.last_day is not null and v.zone = z and v.seller_id = any(sellers)
  ),
  daily as (
    select seller_id, node, currency, duration, last_day as day,
           count(*) as e, coalesce(sum(n), 0) as en, count(n) as enn, coalesce(sum(p), 0) as ep, count(p) as epn,
           coalesce(sum(d), 0) as ed, count(d) as edn,
           coalesce(sum(nc), 0) as enc, count(nc) as encn, coalesce(sum(pc), 0) as epc, count(pc) as epcn
      from v group by 1, 2, 3, 4, 5
  )
  select z, seller_id, node, currency, duration, day,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w,
         sum(enc) over w, sum(encn) over w, sum(epc) over w, sum(epcn) over w
    from daily
  window w as (partition by seller_id, node, currency, duration order by day);

  insert into promo_duration_keys (zone, seller_id, classification_id, currency, duration)
  select distinct z, seller_id, classification_id, currency, duration
    from promo_duration_cum where zone = z and seller_id = any(sellers);

  drop table promo_rebuild_fx;
end
$$;

-- Every zone's rows of the sellers (deleting products calls it: migration 102's trigger).
create or replace function promo_rebuild_cumulative(sellers integer[]) returns void language plpgsql as $$
declare
  z text;
begin
  for z in select zone from rollup_zones union select distinct zone from promo_spans where seller_id = any(sellers)
  loop
    perform promo_rebuild_cumulative(sellers, z);
  end loop;
end
$$;

-- A zone other than the deployment's that was built before (ready) has no promotions yet: it is built
-- again (a worker's start enqueues the zones not ready); until then its organisations read the
-- deployment's zone, for every figure alike.
update rollup_zones set ready = false where zone <> 'America/Santiago';

analyze promo_spans;
