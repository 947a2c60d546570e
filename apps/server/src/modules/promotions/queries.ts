import type pg from 'pg';
import { clpMap } from '../../market/index.js';

// SQL of the promotion screens. They read the promotions read model only (promo_daily, promo_spans;
// migrations/100_promotions.sql), never price history. Every function takes the scope as values:
// `sellers`, the leaves of each asked classification as the aligned pairs (leaf, cls), the window
// [from, to] (yyyy-MM-dd, inclusive), the currencies' factors to the requested currency and the zone
// whose rows it reads (every table is kept per market zone: migrations 432 and 470).

type Queryable = pg.Pool | pg.PoolClient;

export interface ScopeValues {
  sellers: number[];
  /** The asked classification nodes. */
  asked: number[];
  leaves: number[];
  classes: number[];
  from: string;
  to: string;
  /** Currency → factor to the requested currency (a price × factor). Currencies without a rate absent. */
  curs: string[];
  factors: number[];
  /** The requested currency and its CLP per unit on the window's last day. */
  currency: string;
  targetClp: number;
  /**
   * The zone of the answer's days, for every table it reads (listing-days, promotions, cumulative rows,
   * the sellers' latest run day): ingest zones.ts dayZone.
   */
  zone: string;
}

/**
 * The scope's promotions in zone $7: those of the sellers under the classes' leaves that overlap the
 * window (index promo_spans_scope_end_idx: the ones that end on or after its start), their prices in the
 * requested currency $6 at the rate of their first day (FIRST_DAY_FACTOR), as the averages they make up
 * (WINDOW_AVERAGES), the range and the scatter plot (model.ts, distribution.ts) count them.
 */
export const spansIn = (from = '$4::date', to = '$5::date') => `
ld as materialized (select sid, (select vigia_day(max(observed_at), $7::text) from ingest_runs r
                    where r.seller_id = sid and r.status = 'succeeded') as day from unnest($1::int[]) sid),
-- the factor of each (currency, first day) once, not once per promotion: the sellers' currencies (their
-- cumulative keys) × every day from their first promotion's to the window's end
fx as materialized (
  select c.currency, d::date as first_day, ${FIRST_DAY_FACTOR('c', '$6::text', 'd::date')} as factor
    from (select distinct currency from promo_cum_currencies where zone = $7 and seller_id = any($1::int[])) c
   cross join generate_series(
     (select min(f.day) from unnest($1::int[]) sid
        cross join lateral (select first_day as day from promo_spans where zone = $7 and seller_id = sid
                             order by first_day limit 1) f),
     ${to}, interval '1 day') d
),
spans as (
  select s.id, s.product_id, s.seller_id, m.cls, s.price_type, s.first_day,
         coalesce(s.last_day, ld.day) as end_day, s.last_day is null as running,
         s.normal_price * fd.factor as normal, s.promo_price * fd.factor as promo,
         s.normal_price, s.promo_price, fd.factor
    from promo_spans s
    join unnest($2::int[], $3::int[]) m(leaf, cls) on m.leaf = s.classification_id
    join ld on ld.sid = s.seller_id
    left join fx fd on fd.currency = s.currency and fd.first_day = s.first_day
   where s.zone = $7 and s.seller_id = any($1::int[]) and s.first_day <= ${to}
     and coalesce(s.last_day, 'infinity'::date) >= ${from}
)`;
/** A drill-down's promotions: those of the window that overlap [$8, $9] too. */
const drillSpans = spansIn('greatest($4::date, $8::date)', 'least($5::date, $9::date)');

/** The parameters $1 … $7 of spansIn. */
export const scopeArgs = (s: ScopeValues) => [
  s.sellers,
  s.leaves,
  s.classes,
  s.from,
  s.to,
  s.currency,
  s.zone,
];

export interface WeekRow {
  seller_id: number;
  cls: number;
  week: string;
  from: string;
  to: string;
  published: number;
  promoted: number;
}

/** The Monday of a promo_daily row's day (date arithmetic: no time zone involved). */
const MONDAY = `(d.day - (extract(isodow from d.day)::int - 1))`;
/** The window's first Monday ($3 = from) and last Sunday ($4 = to): its whole weeks lie between. */
const FIRST_MONDAY = `($3::date + ((8 - extract(isodow from $3::date)::int) % 7))`;
const LAST_SUNDAY = `($4::date - (extract(isodow from $4::date)::int % 7))`;

/**
 * Listing-days of the window per seller, node and Monday week: whole weeks from promo_weekly, the days of
 * its partial first and last weeks from promo_daily ($1 sellers, $2 nodes, $3 from, $4 to, $5 the zone of
 * the days).
 */
const WINDOW_WEEKS = `
window_weeks as (
  select seller_id, classification_id, week, published, promoted, promoted_sale, promoted_exclusive,
         promoted_byquantity
    from promo_weekly
   where zone = $5 and seller_id = any($1::int[]) and classification_id = any($2::int[])
     and week between ${FIRST_MONDAY} and ${LAST_SUNDAY} - 6
  union all
  select d.seller_id, d.classification_id, ${MONDAY}, d.published, d.promoted, d.promoted_sale,
         d.promoted_exclusive, d.promoted_byquantity
    from promo_daily d
   where d.zone = $5 and d.seller_id = any($1::int[]) and d.classification_id = any($2::int[])
     and (d.day between $3::date and least(${FIRST_MONDAY} - 1, $4::date)
          or d.day between greatest(${LAST_SUNDAY} + 1, ${FIRST_MONDAY}) and $4::date)
)`;

/** Listing-days published and on promotion per seller, class and week (Monday), inside the window. */
export async function selectWeeks(db: Queryable, s: ScopeValues): Promise<WeekRow[]> {
  const { rows } = await db.query<WeekRow>(
    `with ${WINDOW_WEEKS}
     select seller_id, classification_id as cls, week::text as week, greatest(week, $3::date)::text as "from",
            least(week + 6, $4::date)::text as "to", sum(published)::int as published, sum(promoted)::int as promoted
       from window_weeks group by seller_id, classification_id, week order by 1, 2, 3`,
    [s.sellers, s.asked, s.from, s.to, s.zone],
  );
  return rows;
}

export interface TypeDaysRow {
  seller_id: number;
  cls: number;
  published: number;
  sale: number;
  exclusive: number;
  byquantity: number;
}

/** Listing-days published and on each kind of promotion per seller and class over the window. */
export async function selectTypeDays(db: Queryable, s: ScopeValues): Promise<TypeDaysRow[]> {
  const { rows } = await db.query<TypeDaysRow>(
    `with ${WINDOW_WEEKS}
     select seller_id, classification_id as cls, sum(published)::int as published, sum(promoted_sale)::int as sale,
            sum(promoted_exclusive)::int as exclusive, sum(promoted_byquantity)::int as byquantity
       from window_weeks group by 1, 2`,
    [s.sellers, s.asked, s.from, s.to, s.zone],
  );
  return rows;
}

export interface TypePricesRow {
  seller_id: number;
  cls: number;
  price_type: string;
  count: number;
  normal: number | null;
  promotion: number | null;
  discount: number | null;
}

/** Factor of a currency to the requested one (null: no rate; its prices are not averaged). */
const FACTORS = (curs: string, factors: string) =>
  `left join unnest(${curs}::text[], ${factors}::float8[]) f(cur, factor) on f.cur = k.currency`;

/**
 * Averages of cumulative rows: `n` promotions with price sums `x_normal`, … over the window = the
 * difference of two rows of a key (a: on or before the window's end, b: before its start), converted.
 */
const WINDOW_AVERAGES = (a: string, b: string, cur: string, clp: string) => {
  const d = (m: string) => `(coalesce(${a}${m}, 0) - coalesce(${b}${m}, 0))`;
  const avg = (m: string, num: string) =>
    `(sum(${num}) / nullif(sum(case when f.factor is not null then ${d(`${m}_n`)} end), 0))::float8`;
  return `${atTheirDay(d, '_normal', cur, clp)} as normal, ${atTheirDay(d, '_promo', cur, clp)} as promotion,
    ${avg('_disc', `case when f.factor is not null then ${d('_disc')} end`)} as discount`;
};

/**
 * Average of the prices `m` of a key's promotions, each converted at the rate in force on its own first
 * day (migration 430): in the key's own currency the sums as they are; otherwise their sums in CLP at
 * each promotion's first day, divided by the requested currency's CLP per unit (`clp`; exactly 1 for CLP).
 * A promotion whose currency had no rate on its first day is in neither the sum nor the count.
 */
const atTheirDay = (d: (m: string) => string, m: string, cur: string, clp: string) =>
  `(sum(case when k.currency = ${cur} then ${d(m)} else ${d(`${m}_clp`)} / ${clp} end)
    / nullif(sum(case when k.currency = ${cur} then ${d(`${m}_n`)} else ${d(`${m}_clp_n`)} end), 0))::float8`;

/**
 * A promotion's factor to the requested currency `cur` at the rates in force on its first day (null when
 * one of them had no rate that day; 1 in its own currency), in float8 as the in-memory range and scatter
 * plot compute it (answers.ts fxTable).
 */
function FIRST_DAY_FACTOR(v: string, cur: string, day = `${v}.first_day`): string {
  return `(case when ${v}.currency = ${cur} then 1::float8
                else vigia_fx_rate_on(${v}.currency, ${day})::float8 / vigia_fx_rate_on(${cur}, ${day})::float8 end)`;
}

/**
 * Promotions and their average prices in CLP per seller, class and price type over the window: per key
 * (seller, node, type, currency) the cumulative row of the window's end minus that of the day before its
 * start (migrations/101_promotions_cumulative.sql): two index probes per key. Another currency needs each
 * promotion's own first-day rates, which these sums cannot give: answers.ts reads the window's
 * promotions from the in-memory copy then (distribution.ts typeChart).
 */
export async function selectTypePrices(db: Queryable, s: ScopeValues): Promise<TypePricesRow[]> {
  if (s.currency !== 'CLP') throw new Error('selectTypePrices: CLP only (another currency: typeChart)');
  const { rows } = await db.query<TypePricesRow>(
    `with k as (
       select k.seller_id, n.cls, t.price_type, k.currency
         from promo_cum_currencies k cross join unnest($2::int[]) n(cls)
        cross join unnest(array['SALE', 'EXCLUSIVE', 'BYQUANTITY']) t(price_type)
        where k.zone = $9 and k.seller_id = any($1::int[])
     )
     select k.seller_id, k.cls, k.price_type, sum(coalesce(a.started, 0) - coalesce(b.ended, 0))::int as count,
            ${WINDOW_AVERAGES('a.s', 'b.e', '$7::text', '$8::numeric')}
       from k
       ${FACTORS('$5', '$6')}
       left join lateral (select * from promo_type_cum c
                           where (c.zone, c.seller_id, c.classification_id, c.price_type, c.currency) = ($9, k.seller_id, k.cls, k.price_type, k.currency)
                             and c.day <= $4::date order by c.day desc limit 1) a on true
       left join lateral (select * from promo_type_cum c
                           where (c.zone, c.seller_id, c.classification_id, c.price_type, c.currency) = ($9, k.seller_id, k.cls, k.price_type, k.currency)
                             and c.day < $3::date order by c.day desc limit 1) b on true
      group by 1, 2, 3
     having sum(coalesce(a.started, 0) - coalesce(b.ended, 0)) > 0`,
    [s.sellers, s.asked, s.from, s.to, s.curs, s.factors, s.currency, s.targetClp, s.zone],
  );
  return rows;
}

/**
 * The averages of a window's promotions, each price × its FIRST_DAY_FACTOR (spansIn): a promotion whose
 * currency or the requested one had no rate on its first day is in neither the sum nor the count (of the
 * prices and of the discount). The cumulative rows
 * keep the prices' sums in their own currency and in CLP at each first day (migration 430); in a third
 * currency each promotion needs its own first day's rate, so these answers read the window's promotions
 * (index promo_spans_scope_end_idx), as the drill-downs do.
 */
const SPAN_AVERAGES = `
  (sum(normal) / nullif(count(normal), 0))::float8 as normal,
  (sum(vigia_promo_price(promo_price) * factor) / nullif(count(vigia_promo_price(promo_price) * factor), 0))::float8 as promotion,
  avg(vigia_discount_pct(normal_price, promo_price)) filter (where factor is not null)::float8 as discount`;

export interface DurationRow {
  seller_id: number;
  day: number;
  count: number;
  running: number;
  normal: number | null;
  promotion: number | null;
  discount: number | null;
}

/**
 * Promotions per seller and duration (days, up to the seller's latest run when running). Ended ones from
 * promo_duration_cum: those of duration L overlapping the window ended in [from, to + L − 1], the key's
 * row on or before to + L − 1 minus its row before `from`; running ones from promo_spans (partial index).
 * In a currency other than CLP the window's promotions themselves (SPAN_AVERAGES).
 */
/**
 * The running promotions (no last day) of the sellers under the scope's root, summed per (seller, first
 * day, currency): their duration and their first-day factor are the group's, so selectDurations multiplies
 * each group's exact sums by the factor (as the ended ones' cumulative sums) instead of every promotion's
 * prices (~44 k promotions under one root on medium, in ~240 groups). They do not depend on the window
 * but through `first_day <= to`, so the answers keep them per data version (answers.ts) and a new window
 * reads only the cumulative rows. They are summed from the in-memory copy (distribution.ts
 * runningGroups; the SQL over promo_spans it replaced is test/promotions-reference.ts selectRunningGroups).
 * Sums travel as text: the prices' exact to the cent, the discounts' (vigia_discount_pct of each
 * promotion's prices, its stored `discount_pct`) float8 sums.
 */
export interface RunningGroup {
  seller_id: number;
  first_day: string;
  currency: string;
  n: number;
  normal: string | null;
  normal_n: number;
  promo: string | null;
  promo_n: number;
  disc: string | null;
  disc_n: number;
}

/**
 * Promotions by duration in the scope's window in a currency other than CLP: each promotion converts at
 * its own first day's rates, which the cumulative CLP sums cannot give, so the window's promotions are
 * read from `promo_spans`.
 */
export async function selectDurationsAtFirstDay(db: Queryable, s: ScopeValues): Promise<DurationRow[]> {
  const { rows } = await db.query<DurationRow>(
    `with ${spansIn()}
     select seller_id, (end_day - first_day + 1)::int as day, count(*)::int as count,
            count(*) filter (where running)::int as running, ${SPAN_AVERAGES}
       from spans group by 1, 2 order by 1, 2`,
    scopeArgs(s),
  );
  return rows;
}

/**
 * Promotions by duration in the scope's window in CLP (selectDurationsAtFirstDay in any other currency):
 * the ended ones from the cumulative rows, the running ones from `running` (distribution.ts runningGroups of the
 * same scope).
 */
export async function selectDurations(
  db: Queryable,
  s: ScopeValues,
  running: RunningGroup[],
): Promise<DurationRow[]> {
  const { rows } = await db.query<DurationRow>(
    `with k as (
       select k.seller_id, k.currency, k.duration from promo_duration_keys k
        where k.zone = $9 and k.seller_id = any($1::int[]) and k.classification_id = any($2::int[])
     ),
     ended as (
       select k.seller_id, k.duration as day, (coalesce(a.ended, 0) - coalesce(b.ended, 0)) as n,
              -- prices at each promotion's first day (WINDOW_AVERAGES' atTheirDay)
              case when k.currency = $7::text then coalesce(a.e_normal, 0) - coalesce(b.e_normal, 0)
                   else (coalesce(a.e_normal_clp, 0) - coalesce(b.e_normal_clp, 0)) / $8::numeric end as normal,
              case when k.currency = $7::text then coalesce(a.e_normal_n, 0) - coalesce(b.e_normal_n, 0)
                   else coalesce(a.e_normal_clp_n, 0) - coalesce(b.e_normal_clp_n, 0) end as normal_n,
              case when k.currency = $7::text then coalesce(a.e_promo, 0) - coalesce(b.e_promo, 0)
                   else (coalesce(a.e_promo_clp, 0) - coalesce(b.e_promo_clp, 0)) / $8::numeric end as promo,
              case when k.currency = $7::text then coalesce(a.e_promo_n, 0) - coalesce(b.e_promo_n, 0)
                   else coalesce(a.e_promo_clp_n, 0) - coalesce(b.e_promo_clp_n, 0) end as promo_n,
              case when f.factor is not null then coalesce(a.e_disc, 0) - coalesce(b.e_disc, 0) end as disc,
              case when f.factor is not null then coalesce(a.e_disc_n, 0) - coalesce(b.e_disc_n, 0) end as disc_n,
              0 as running
         from k
         ${FACTORS('$5', '$6')}
         left join lateral (select * from promo_duration_cum c
                             where (c.zone, c.seller_id, c.classification_id, c.currency, c.duration) = ($9, k.seller_id, $2[1], k.currency, k.duration)
                               and c.day <= $4::date + k.duration - 1 order by c.day desc limit 1) a on true
         left join lateral (select * from promo_duration_cum c
                             where (c.zone, c.seller_id, c.classification_id, c.currency, c.duration) = ($9, k.seller_id, $2[1], k.currency, k.duration)
                               and c.day < $3::date order by c.day desc limit 1) b on true
     ),
     ld as materialized (select sid, (select vigia_day(max(observed_at), $9::text) from ingest_runs r
                         where r.seller_id = sid and r.status = 'succeeded') as day from unnest($1::int[]) sid),
     -- the running promotions' groups (distribution.ts runningGroups, kept per data version by the caller) that
     -- began by the window's end
     running_groups as (
       select * from unnest($10::int[], $11::date[], $12::text[], $13::int[], $14::numeric[], $15::int[],
                            $16::numeric[], $17::int[], $18::numeric[], $19::int[])
                g(seller_id, first_day, currency, n, normal, normal_n, promo, promo_n, disc, disc_n)
        where g.first_day <= $4::date
     ),
     running as (
       select g.seller_id, (ld.day - g.first_day + 1)::int as day, g.n, g.normal * fd.factor as normal,
              case when fd.factor is not null then g.normal_n else 0 end as normal_n,
              g.promo * fd.factor as promo, case when fd.factor is not null then g.promo_n else 0 end as promo_n,
              case when f.factor is not null then g.disc end as disc,
              case when f.factor is not null then g.disc_n else 0 end as disc_n,
              g.n as running
         from running_groups g
         join ld on ld.sid = g.seller_id
         left join unnest($5::text[], $6::float8[]) f(cur, factor) on f.cur = g.currency
         -- offset 0: the factor once per group (inlined, its two rate look-ups ran in each price expression)
         cross join lateral (select ${FIRST_DAY_FACTOR('g', '$7::text')} as factor offset 0) fd
     ),
     parts as (select * from ended where n > 0 union all select * from running)
     select seller_id, day, sum(n)::int as count, sum(running)::int as running,
            (sum(normal) / nullif(sum(normal_n), 0))::float8 as normal,
            (sum(promo) / nullif(sum(promo_n), 0))::float8 as promotion,
            (sum(disc) / nullif(sum(disc_n), 0))::float8 as discount
       from parts group by 1, 2 order by 1, 2`,
    [
      s.sellers,
      s.asked,
      s.from,
      s.to,
      s.curs,
      s.factors,
      s.currency,
      s.targetClp,
      s.zone,
      ...runningColumns(running),
    ],
  );
  return rows;
}

/** RunningGroup[] as the ten arrays selectDurations unnests. */
function runningColumns(g: RunningGroup[]): unknown[] {
  return [
    g.map((r) => r.seller_id),
    g.map((r) => r.first_day),
    g.map((r) => r.currency),
    g.map((r) => r.n),
    g.map((r) => r.normal),
    g.map((r) => r.normal_n),
    g.map((r) => r.promo),
    g.map((r) => r.promo_n),
    g.map((r) => r.disc),
    g.map((r) => r.disc_n),
  ];
}

export interface DrillRow {
  id: number;
  product_id: string;
  name: string | null;
  url: string | null;
  seller_id: number;
  price_type: string;
  normal: number | null;
  promo: number | null;
  first_day: string;
  end_day: string;
  running: boolean;
  days: number;
  total: number;
  total_days: number;
  products: number;
}

/**
 * The promotions behind a number (drill-down): of one seller and class, overlapping [a, b] (the week, or
 * the window), optionally of one duration or price type; `days` = the days of each inside [a, b].
 */
export async function selectDrilldown(
  db: Queryable,
  s: ScopeValues,
  q: {
    a: string;
    b: string;
    duration?: number;
    priceType?: string;
    limit: number;
    offset: number;
    products?: number[] | null;
  },
): Promise<DrillRow[]> {
  const { rows } = await db.query<DrillRow>(
    `with ${drillSpans},
     picked as (
       select sp.*, (least(end_day, $9::date) - greatest(first_day, $8::date) + 1)::int as days
         from spans sp
        where first_day <= $9::date and end_day >= $8::date
          and ($10::int is null or (end_day - first_day + 1) = $10::int)
          and ($11::text is null or price_type = $11::text)
          and ($14::bigint[] is null or product_id = any($14::bigint[]))
     ),
     page as (
       select pk.*, count(*) over ()::int as total, sum(pk.days) over ()::int as total_days from picked pk
     )
     select p.id::int as id, p.product_id, p.name, p.url, pg.seller_id, pg.price_type, pg.normal::float8 as normal,
            pg.promo::float8 as promo, pg.first_day::text as first_day, pg.end_day::text as end_day, pg.running,
            pg.days, pg.total, pg.total_days, (select count(distinct product_id) from picked)::int as products
       from page pg join products p on p.id = pg.product_id
      order by pg.days desc, p.name, pg.first_day
      limit $12 offset $13`,
    [
      ...scopeArgs(s),
      q.a,
      q.b,
      q.duration ?? null,
      q.priceType ?? null,
      q.limit,
      q.offset,
      q.products ?? null,
    ],
  );
  return rows;
}

/** The classifications of a seller's listings (a promotion alert's drill-down scope; none: a 400). */
export async function classificationsOfListings(
  db: Queryable,
  sellerId: number,
  products: number[],
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `select distinct classification_id as id from listing_current
      where seller_id = $1 and product_id = any($2::bigint[]) and classification_id is not null`,
    [sellerId, products],
  );
  return rows.map((r) => r.id);
}

/** Totals of a drill-down whose page came back empty (an offset past the end). */
export async function selectDrilldownTotals(
  db: Queryable,
  s: ScopeValues,
  q: { a: string; b: string; duration?: number; priceType?: string; products?: number[] | null },
): Promise<{ total: number; total_days: number; products: number }> {
  const { rows } = await db.query<{ total: number; total_days: number; products: number }>(
    `with ${drillSpans}
     select count(*)::int as total, coalesce(sum(least(end_day, $9::date) - greatest(first_day, $8::date) + 1), 0)::int as total_days,
            count(distinct product_id)::int as products
       from spans where first_day <= $9::date and end_day >= $8::date
        and ($10::int is null or (end_day - first_day + 1) = $10::int)
        and ($11::text is null or price_type = $11::text)
        and ($12::bigint[] is null or product_id = any($12::bigint[]))`,
    [...scopeArgs(s), q.a, q.b, q.duration ?? null, q.priceType ?? null, q.products ?? null],
  );
  return rows[0];
}

/**
 * What a request's scope needs, in one round trip: the asked classifications outside the license's
 * `roots` (none when the license has no roots), the asked ones' names and leaves (unknown ids apart),
 * CLP per unit of every currency on `day` (latest rate on or before it; CLP itself 1), and the sellers'
 * names and colours in the order asked.
 */
export async function selectScopeFacts(
  db: Queryable,
  q: { asked: number[]; roots: number[]; day: string; sellers: number[] },
): Promise<{
  outside: number[];
  leaves: number[];
  classes: number[];
  names: Map<number, string>;
  unknown: number[];
  rates: Map<string, number>;
  sellers: { id: number; name: string; color: string | null }[];
}> {
  type Facts = {
    outside: number[];
    nodes: { id: number; name: string }[];
    pairs: { leaf: number; cls: number }[];
    rates: { currency: string; clp: number }[];
    sellers: { id: number; name: string; color: string | null }[];
  };
  const { rows } = await db.query<Facts>(
    `select
       (select coalesce(json_agg(x.id), '[]') from unnest($1::int[]) x(id)
         where cardinality($2::int[]) > 0
           and not exists (select 1 from classifications c where c.id = x.id and c.path && $2::int[])) as outside,
       (select coalesce(json_agg(json_build_object('id', id, 'name', name)), '[]')
          from classifications where id = any($1::int[])) as nodes,
       (select coalesce(json_agg(json_build_object('leaf', c.id, 'cls', sel.id)), '[]')
          from unnest($1::int[]) sel(id) join classifications c on sel.id = any(c.path)) as pairs,
       (select coalesce(json_agg(json_build_object('currency', currency, 'clp', clp)), '[]')
          from (select currency, clp_per_unit::float8 as clp from vigia_fx_rates_on($3::date)) r) as rates,
       (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'color', color)), '[]')
          from sellers where id = any($4::int[])) as sellers`,
    [q.asked, q.roots, q.day, q.sellers],
  );
  const f = rows[0];
  const names = new Map(f.nodes.map((n) => [n.id, n.name]));
  const rates = clpMap(f.rates.map((r) => [r.currency, r.clp]));
  const byId = new Map(f.sellers.map((r) => [r.id, r]));
  return {
    outside: f.outside,
    leaves: f.pairs.map((r) => r.leaf),
    classes: f.pairs.map((r) => r.cls),
    names,
    unknown: q.asked.filter((c) => !names.has(c)),
    rates,
    sellers: q.sellers.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
  };
}

/** Leaves under each asked classification, as aligned pairs (tests). */
export async function selectLeaves(
  db: Queryable,
  classes: number[],
): Promise<{ leaves: number[]; classes: number[] }> {
  const { rows } = await db.query<{ leaf: number; cls: number }>(
    `select c.id as leaf, sel.id as cls from unnest($1::int[]) sel(id)
       join classifications c on sel.id = any(c.path)`,
    [classes],
  );
  return { leaves: rows.map((r) => r.leaf), classes: rows.map((r) => r.cls) };
}
