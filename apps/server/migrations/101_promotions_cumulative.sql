-- Cumulative promotion figures (modules/promotions/rollup.ts keeps them at ingest; definitions in
-- docs/metrics.md "Promotions — read model"). The promotions of a window [from, to] are those that started
-- on or before `to` and did not end before `from`; an ended promotion ended on or after its first day, so
-- for any sum over promotions
--     sum over the window = (started on or before to) − (ended on or before from − 1)
-- and each term is one row of a cumulative table: a question reads two rows per key instead of every
-- promotion. A promotion starts on the day of the run that opens it and ends (last_day) the day before the
-- run that closes it, so a run on day D changes only the rows of days D − 1 and D of its seller.
--
-- Keys are per classification node (every level of the tree, like promo_daily) and per currency of the
-- promotion's prices (converted at question time). A row exists for every day on which one of the key's
-- promotions started or ended; the value on any other day is that of the key's latest row before it.

-- The promotions of each classification node of their leaf's path (the rows the keys sum).
create view promo_span_nodes as
select ps.*, node
  from promo_spans ps join classifications c on c.id = ps.classification_id cross join unnest(c.path) node;

-- Per (seller, node, price type, currency, day): promotions started on or before `day` (s_*) and promotions
-- ended on or before `day` (e_*): count, sums of normal and promotion prices with their counts (a missing
-- price is not averaged), sum of discount % (100 × (normal − promo) / normal, when normal > 0 and promo <
-- normal) with its count.
create table promo_type_cum (
  seller_id          integer not null,
  classification_id  integer not null,
  price_type         text not null,
  currency           text not null,
  day                date not null,
  started integer not null, s_normal numeric not null, s_normal_n integer not null, s_promo numeric not null,
  s_promo_n integer not null, s_disc numeric not null, s_disc_n integer not null,
  ended integer not null, e_normal numeric not null, e_normal_n integer not null, e_promo numeric not null,
  e_promo_n integer not null, e_disc numeric not null, e_disc_n integer not null,
  primary key (seller_id, classification_id, price_type, currency, day)
);

-- Per (seller, node, currency, duration in days, day): ENDED promotions of that duration that ended on or
-- before `day`. An ended promotion of duration L overlaps [from, to] iff from ≤ last_day ≤ to + L − 1, so
-- the window's figure of duration L = row(to + L − 1) − row(from − 1). Running promotions (their
-- duration grows every day) are read from promo_spans itself (index promo_spans_running_idx).
create table promo_duration_cum (
  seller_id          integer not null,
  classification_id  integer not null,
  currency           text not null,
  duration           integer not null,
  day                date not null,
  ended integer not null, e_normal numeric not null, e_normal_n integer not null, e_promo numeric not null,
  e_promo_n integer not null, e_disc numeric not null, e_disc_n integer not null,
  primary key (seller_id, classification_id, currency, duration, day)
);

-- The keys a question probes (so that it looks up two rows per existing key, not per possible key).
create table promo_cum_currencies (
  seller_id integer not null,
  currency  text not null,
  primary key (seller_id, currency)
);
create table promo_duration_keys (
  seller_id          integer not null,
  classification_id  integer not null,
  currency           text not null,
  duration           integer not null,
  primary key (seller_id, classification_id, currency, duration)
);

-- Ingest finds the promotions a run started or ended by day; the screens find the promotions of a scope
-- that end on or after a day (a week's drill-down: the recent ones only), and the running ones.
create index promo_spans_seller_first_idx on promo_spans (seller_id, first_day);
create index promo_spans_seller_last_idx on promo_spans (seller_id, last_day);
create index promo_spans_scope_end_idx on promo_spans (seller_id, classification_id, (coalesce(last_day, 'infinity'::date)))
  include (first_day);
create index promo_spans_running_idx on promo_spans (seller_id, classification_id)
  include (first_day, normal_price, promo_price, currency) where last_day is null;

-- The weekly and per-type day counts (promo_daily) read only the index: an index-only scan of the asked
-- (seller, node) ranges instead of a heap page per few rows.
drop index promo_daily_key;
create unique index promo_daily_key on promo_daily (seller_id, classification_id, day)
  include (published, promoted, promoted_sale, promoted_exclusive, promoted_byquantity);

-- Weekly listing-days (the level screen's weeks, the type screen's day counts): promo_daily summed per
-- (seller, node, Monday week). A window reads its whole weeks here and only its partial first and last
-- weeks from promo_daily (at most 6 + 6 days), about a seventh of the rows. Kept at ingest by
-- rollup.ts (the run's week rewritten after its day's promo_daily rows).
create table promo_weekly (
  seller_id           integer not null,
  classification_id   integer not null,
  week                date not null, -- Monday
  published           integer not null,
  promoted            integer not null,
  promoted_sale       integer not null,
  promoted_exclusive  integer not null,
  promoted_byquantity integer not null,
  primary key (seller_id, classification_id, week)
    include (published, promoted, promoted_sale, promoted_exclusive, promoted_byquantity)
);

-- Backfill from promo_spans and promo_daily (a database loaded before this migration): every key's row on
-- every day one of its promotions started or ended, the running sums of those days' events; the weeks.
insert into promo_cum_currencies (seller_id, currency)
select distinct seller_id, currency from promo_spans;

insert into promo_type_cum
with ev as (
  select seller_id, node, price_type, currency, first_day as day, 1 as s, normal_price as sn, promo_price as sp,
         case when normal_price > 0 and promo_price < normal_price then 100 * (normal_price - promo_price) / normal_price end as sd,
         0 as e, null::numeric as en, null::numeric as ep, null::numeric as ed
    from promo_span_nodes
  union all
  select seller_id, node, price_type, currency, last_day, 0, null, null, null, 1, normal_price, promo_price,
         case when normal_price > 0 and promo_price < normal_price then 100 * (normal_price - promo_price) / normal_price end
    from promo_span_nodes where last_day is not null
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
    from promo_span_nodes where last_day is not null
   group by 1, 2, 3, 4, 5
)
select seller_id, node, currency, duration, day,
       sum(e) over w, sum(en) over w, sum(enn) over w, sum(ep) over w, sum(epn) over w, sum(ed) over w, sum(edn) over w
  from daily
window w as (partition by seller_id, node, currency, duration order by day);

insert into promo_duration_keys
select distinct seller_id, classification_id, currency, duration from promo_duration_cum;

insert into promo_weekly
select seller_id, classification_id, day - (extract(isodow from day)::int - 1), sum(published), sum(promoted),
       sum(promoted_sale), sum(promoted_exclusive), sum(promoted_byquantity)
  from promo_daily group by 1, 2, 3;

analyze promo_weekly;
analyze promo_type_cum;
analyze promo_duration_cum;
analyze promo_cum_currencies;
analyze promo_duration_keys;
analyze promo_spans;

-- Deleting products deletes their promotions (migration 100); the cumulative rows of their keys are then
-- stale until recomputed: the operations check (modules/promotions/check.ts) reports them.

