-- Promotions: what ingest does not version, and deleted products (docs/metrics.md "Promotions — speed").
--
-- promo_versions: per seller, how many times deleting products removed some of its promotions. The
-- promotions answers (answers.ts: memoised answers, and the in-memory copy of promo_spans in model.ts)
-- are valid while sellers.ingest_seq (every ingest run) and this counter are unchanged. A seller
-- without a row has counter 0: an existing database needs no backfill.
create table promo_versions (
  seller_id integer primary key,
  deleted   bigint not null
);

-- promo_rebuild_cumulative(sellers): the cumulative rows (migration 101: promo_type_cum,
-- promo_duration_cum and their keys) of those sellers recomputed from their promo_spans — the backfill
-- of migration 101 restricted to them.
create function promo_rebuild_cumulative(sellers integer[]) returns void language plpgsql as $$
begin
  delete from promo_type_cum where seller_id = any(sellers);
  delete from promo_duration_cum where seller_id = any(sellers);
  delete from promo_duration_keys where seller_id = any(sellers);
  delete from promo_cum_currencies where seller_id = any(sellers);

  insert into promo_cum_currencies (seller_id, currency)
  select distinct seller_id, currency from promo_spans where seller_id = any(sellers);

  insert into promo_type_cum
  with ev as (
    select seller_id, node, price_type, currency, first_day as day, 1 as s, normal_price as sn, promo_price as sp,
           case when normal_price > 0 and promo_price < normal_price then 100 * (normal_price - promo_price) / normal_price end as sd,
           0 as e, null::numeric as en, null::numeric as ep, null::numeric as ed
      from promo_span_nodes where seller_id = any(sellers)
    union all
    select seller_id, node, price_type, currency, last_day, 0, null, null, null, 1, normal_price, promo_price,
           case when normal_price > 0 and promo_price < normal_price then 100 * (normal_price - promo_price) / normal_price end
      from promo_span_nodes where last_day is not null and seller_id = any(sellers)
  ),
  daily as (
    select seller_id, node, price_type, currency, day,
           sum(s) as s, coalesce(sum(sn), 0) as sn, count(sn) as snn, coalesce(sum(sp), 0) as sp, count(sp) as spn,
           coalesce(sum(sd), 0) as sd, count(sd) as sdn,
           sum(e) as e, coalesce(sum(en), 0) as en, count(en) as enn, coalesce(sum(ep), 0) as ep, count(ep) as epn,
           coalesce(sum(ed), 0) as ed, count(ed) as edn
      from ev group by 1, 2, 3, 4, 5
  )
  select seller_id, node, price_type, currency, day,
         sum(s) over w, sum(sn) over w, sum(snn) over w, sum(sp) over w, sum(spn) over w, sum(sd) over w, sum(sdn) over w,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w
    from daily
  window w as (partition by seller_id, node, price_type, currency order by day);

  insert into promo_duration_cum
  with daily as (
    select seller_id, node, currency, last_day - first_day + 1 as duration, last_day as day,
           count(*) as e, coalesce(sum(normal_price), 0) as en, count(normal_price) as enn,
           coalesce(sum(promo_price), 0) as ep, count(promo_price) as epn,
           coalesce(sum(case when normal_price > 0 and promo_price < normal_price
                             then 100 * (normal_price - promo_price) / normal_price end), 0) as ed,
           count(case when normal_price > 0 and promo_price < normal_price then 1 end) as edn
      from promo_span_nodes where last_day is not null and seller_id = any(sellers)
     group by 1, 2, 3, 4, 5
  )
  select seller_id, node, currency, duration, day,
         sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w
    from daily
  window w as (partition by seller_id, node, currency, duration order by day);

  insert into promo_duration_keys
  select distinct seller_id, classification_id, currency, duration from promo_duration_cum where seller_id = any(sellers);
end
$$;

-- Deleting products deletes their promotions (migration 100) and now also rebuilds the cumulative rows
-- of the sellers that lost promotions (they were left stale before: modules/promotions/check.ts
-- reported them) and moves those sellers' promo_versions. Products are deleted rarely (operations); the
-- rebuild reads the seller's promotions once (seconds per seller on the medium market).
create or replace function products_delete_promo_spans() returns trigger language plpgsql as $$
declare
  touched integer[];
begin
  with d as (delete from promo_spans where product_id in (select id from gone) returning seller_id)
  select array_agg(distinct seller_id) into touched from d;
  if touched is not null then
    perform promo_rebuild_cumulative(touched);
    insert into promo_versions (seller_id, deleted)
    select unnest(touched), 1
    on conflict (seller_id) do update set deleted = promo_versions.deleted + 1;
  end if;
  return null;
end
$$;
