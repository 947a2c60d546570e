import { isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import { recomputeSpansFrom } from '../../db/migrate.js';
import { type RollupUpdater, registerRollup, registerZoneRebuild } from '../ingest/index.js';

// The promotions roll-up (migrations/100_promotions.sql), run in every ingest transaction after the
// daily roll-up (modules/rollups.ts imports ingest's roll-ups first):
//  - promo_daily for the run's (seller, day) = rollup_daily_brand of that (seller, day) summed over
//    brands and over the leaves under each node (a few hundred rows read, one row per node written);
//  - promo_spans for the listings the run touched (only they can change state): a listing whose state
//    is now a promotion of type X without an open promotion of X opens one on the run's day — or
//    re-opens the one of X that an earlier run of the same day ended (last_day = day − 1); a listing
//    whose open promotion is not its state any more ends it on the day before the run's day (a
//    promotion the same day opened is deleted: the day's last state decides).
// promotions-check.ts recomputes both from the price history (tests, operations).

// Every table here is kept per zone of rollup_zones: promo_daily and promo_weekly (migration 432) from that
// zone's rows of rollup_daily_brand, the promotions (promo_spans) and their cumulative tables (migration
// 470) from the run's day in that zone. `$3` (`$4` in OPEN) is the zone, `$2` the run's day in it.
const DAILY_DELETE = 'delete from promo_daily where zone = $3 and seller_id = $1 and day = $2::date';
const DAILY = `
insert into promo_daily (zone, seller_id, day, classification_id, published, promoted, promoted_sale,
                         promoted_exclusive, promoted_byquantity)
select $3, $1, $2::date, node, sum(r.published), sum(r.promoted), sum(r.promoted_sale), sum(r.promoted_exclusive),
       sum(r.promoted_byquantity)
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 where r.zone = $3 and r.seller_id = $1 and r.day = $2::date
 group by node
having sum(r.published) > 0`;

/** The touched listings' state now: the promotion type (null: none) and its prices. */
const STATE = `
select lc.product_id, p.classification_id, lc.normal_price, lc.currency,
       case when lc.published and lc.price_type <> 'NORMAL' then lc.price_type end as ptype,
       case lc.price_type when 'SALE' then lc.sale_price when 'EXCLUSIVE' then lc.exclusive_price
                          when 'BYQUANTITY' then lc.byquantity_price end as promo_price
  from unnest($1::bigint[]) t(id)
  join listing_current lc on lc.product_id = t.id
  join products p on p.id = t.id`;
// $1 the touched listings, $2 the run's day in zone $3

/** Ends (or deletes, when opened the same day) open promotions that are no longer the listing's state. */
const END = `
with s as (${STATE}),
ending as (
  select ps.id, ps.first_day from promo_spans ps join s on s.product_id = ps.product_id
   where ps.zone = $3 and ps.last_day is null and ps.price_type is distinct from s.ptype
),
del as (delete from promo_spans where id in (select id from ending where first_day >= $2::date))
update promo_spans set last_day = $2::date - 1 where id in (select id from ending where first_day < $2::date)`;

/** Re-opens a promotion of the listing's present type that an earlier run of the same day ended. */
const REOPEN = `
with s as (${STATE})
update promo_spans ps set last_day = null from s
 where ps.zone = $3 and ps.product_id = s.product_id and ps.last_day = $2::date - 1 and ps.price_type = s.ptype
   and not exists (select 1 from promo_spans o where o.zone = $3 and o.product_id = s.product_id and o.last_day is null)`;

/**
 * A promotion opened on the run's day by an earlier run of that day keeps the day's last prices: its
 * prices are those of its first day, and a day's state is its last run's.
 */
const REPRICE = `
with s as (${STATE})
update promo_spans ps set normal_price = s.normal_price, promo_price = s.promo_price, currency = s.currency
  from s
 where ps.zone = $3 and ps.product_id = s.product_id and ps.last_day is null and ps.first_day = $2::date
   and ps.price_type = s.ptype
   and (ps.normal_price, ps.promo_price, ps.currency) is distinct from (s.normal_price, s.promo_price, s.currency)`;

/** Opens a promotion for listings on promotion without an open one. */
const OPEN = `
with s as (${STATE})
insert into promo_spans (zone, product_id, seller_id, classification_id, price_type, first_day, last_day,
                         normal_price, promo_price, currency)
select $4, s.product_id, $3, s.classification_id, s.ptype, $2::date, null, s.normal_price, s.promo_price, s.currency
  from s
 where s.ptype is not null
   and not exists (select 1 from promo_spans o where o.zone = $4 and o.product_id = s.product_id and o.last_day is null)`;

// Cumulative tables (migrations/101_promotions_cumulative.sql): the run on day D changed only the events
// of days D − 1 (promotions it ended, or re-opened) and D (promotions it started, or deleted after an
// earlier run of D started them). A key has a row only on days with an event: its rows of D − 1 and D are
// rewritten as its latest row before D − 1 plus the events (recounted from promo_spans) up to that day,
// and deleted where that day has no event any more.
// Discount %: the one SQL definition (migrations/050_market_formulas.sql, domain discountPercent).
const DISC = 'vigia_discount_pct(v.normal_price, v.promo_price)';
const MEASURES = [
  '',
  '_normal',
  '_normal_n',
  '_promo',
  '_promo_n',
  '_disc',
  '_disc_n',
  '_normal_clp',
  '_normal_clp_n',
  '_promo_clp',
  '_promo_clp_n',
] as const;
type Part = 's' | 'e';
/** Column of a measure: started, s_normal, … / ended, e_normal, … */
const column = (p: Part, m: string) => (m ? `${p}${m}` : p === 's' ? 'started' : 'ended');
const EXPR: Record<(typeof MEASURES)[number], string> = {
  '': '*',
  _normal: 'v.normal_price',
  _normal_n: 'v.normal_price',
  // the promotion price an average counts (> 0; migration 310, domain promotionPrice)
  _promo: 'vigia_promo_price(v.promo_price)',
  _promo_n: 'vigia_promo_price(v.promo_price)',
  _disc: DISC,
  _disc_n: DISC,
  // in CLP at the rate in force on the promotion's first day (migration 430; `fx` joined in `ev`)
  _normal_clp: 'v.normal_price * fx.clp',
  _normal_clp_n: 'v.normal_price * fx.clp',
  _promo_clp: 'vigia_promo_price(v.promo_price) * fx.clp',
  _promo_clp_n: 'vigia_promo_price(v.promo_price) * fx.clp',
};
/** The events of part `p` on day d.day (started: first_day; ended: last_day). */
const eventSums = (p: Part) => {
  const cond = `${p === 's' ? 'v.first_day' : 'v.last_day'} = d.day`;
  return MEASURES.map((m) =>
    m.endsWith('_n') || m === ''
      ? `count(${EXPR[m]}) filter (where ${cond}) as ${column(p, m)}`
      : `coalesce(sum(${EXPR[m]}) filter (where ${cond}), 0) as ${column(p, m)}`,
  ).join(', ');
};

function cumulativeUpsert(table: string, key: Record<string, string>, parts: Part[]): string {
  const keys = Object.keys(key);
  const names = parts.flatMap((p) => MEASURES.map((m) => column(p, m)));
  const dayOf = { s: 'v.first_day', e: 'v.last_day' };
  const same = (a: string, b: string) => keys.map((k) => `${a}.${k} = ${b}.${k}`).join(' and ');
  return `
with days as (select unnest(array[$2::date - 1, $2::date]) as day),
ev as (
  select ${keys.map((k) => `${key[k]} as ${k}`).join(', ')}, d.day, ${parts.map(eventSums).join(', ')}
    from promo_span_nodes v join days d on ${parts.map((p) => `${dayOf[p]} = d.day`).join(' or ')}
    -- offset 0: the rate is looked up once per row; inlined, it was evaluated in each of the eight CLP
    -- sums of the row (3.5× the statement's time, the seed's largest regression: docs/benchmarks.md)
    cross join lateral (select vigia_fx_rate_on(v.currency, v.first_day) as clp offset 0) fx
   where v.zone = $3 and v.seller_id = $1 and (${parts.map((p) => `${dayOf[p]} between $2::date - 1 and $2::date`).join(' or ')})
   group by ${keys.map((_, i) => i + 1).join(', ')}, d.day
),
-- rows of those days whose events are gone (a promotion deleted or re-opened): the day keeps no row
gone as (
  delete from ${table} c where c.zone = $3 and c.seller_id = $1 and c.day >= $2::date - 1
     and not exists (select 1 from ev where ${same('ev', 'c')} and ev.day = c.day)
)
insert into ${table} (zone, seller_id, ${keys.join(', ')}, day, ${names.join(', ')})
select $3, $1, ${keys.map((k) => `k.${k}`).join(', ')}, k.day,
       ${names.map((n) => `coalesce(b.${n}, 0) + k.${n}`).join(', ')}
  -- ev has one row per (key, day): a key's running sums over its days are the events up to that day
  from (select ${keys.join(', ')}, day, ${names.map((n) => `sum(${n}) over w as ${n}`).join(', ')}
          from ev window w as (partition by ${keys.join(', ')} order by day)) k
  left join lateral (select * from ${table} c where c.zone = $3 and c.seller_id = $1 and ${same('c', 'k')}
                        and c.day < $2::date - 1 order by c.day desc limit 1) b on true
on conflict (zone, seller_id, ${keys.join(', ')}, day) do update set ${names.map((n) => `${n} = excluded.${n}`).join(', ')}`;
}

const TYPE_CUM = cumulativeUpsert(
  'promo_type_cum',
  { classification_id: 'v.node', price_type: 'v.price_type', currency: 'v.currency' },
  ['s', 'e'],
);
const DURATION_CUM = cumulativeUpsert(
  'promo_duration_cum',
  { classification_id: 'v.node', currency: 'v.currency', duration: 'v.last_day - v.first_day + 1' },
  ['e'],
);
const DURATION_KEYS = `
insert into promo_duration_keys (zone, seller_id, classification_id, currency, duration)
select zone, seller_id, classification_id, currency, duration from promo_duration_cum
 where zone = $3 and seller_id = $1 and day >= $2::date - 1
on conflict do nothing`;
const CURRENCIES = `
insert into promo_cum_currencies (zone, seller_id, currency)
select distinct zone, seller_id, currency from promo_spans where zone = $3 and seller_id = $1 and first_day = $2::date
on conflict do nothing`;

/** The run's Monday week of promo_weekly, rewritten from its days of promo_daily. */
const WEEK_MONDAY = `($2::date - (extract(isodow from $2::date)::int - 1))`;
const WEEKLY_DELETE = `delete from promo_weekly where zone = $3 and seller_id = $1 and week = ${WEEK_MONDAY}`;
const WEEKLY = `
insert into promo_weekly (zone, seller_id, classification_id, week, published, promoted, promoted_sale,
                          promoted_exclusive, promoted_byquantity)
select $3, $1, classification_id, ${WEEK_MONDAY}, sum(published), sum(promoted), sum(promoted_sale),
       sum(promoted_exclusive), sum(promoted_byquantity)
  from promo_daily where zone = $3 and seller_id = $1 and day between ${WEEK_MONDAY} and ${WEEK_MONDAY} + 6
 group by classification_id`;

/** A zone's promo_daily and promo_weekly of a seller, all days, from its rows of rollup_daily_brand. */
const REBUILD_DAILY = `
insert into promo_daily (zone, seller_id, day, classification_id, published, promoted, promoted_sale,
                         promoted_exclusive, promoted_byquantity)
select $2, $1, r.day, node, sum(r.published), sum(r.promoted), sum(r.promoted_sale), sum(r.promoted_exclusive),
       sum(r.promoted_byquantity)
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 where r.zone = $2 and r.seller_id = $1
 group by r.day, node
having sum(r.published) > 0`;
const REBUILD_WEEKLY = `
insert into promo_weekly (zone, seller_id, classification_id, week, published, promoted, promoted_sale,
                          promoted_exclusive, promoted_byquantity)
select $2, $1, classification_id, day - (extract(isodow from day)::int - 1), sum(published), sum(promoted),
       sum(promoted_sale), sum(promoted_exclusive), sum(promoted_byquantity)
  from promo_daily where zone = $2 and seller_id = $1
 group by 3, 4`;

export const promotionsRollup: RollupUpdater = async (
  client: pg.PoolClient,
  { sellerId, observedAt, touched, zones },
) => {
  for (const zone of zones) {
    const day = isoDateInZone(observedAt, zone);
    const values = [sellerId, day, zone];
    await client.query({ name: 'promo-daily-delete', text: DAILY_DELETE, values });
    await client.query({ name: 'promo-daily', text: DAILY, values });
    await client.query({ name: 'promo-weekly-delete', text: WEEKLY_DELETE, values });
    await client.query({ name: 'promo-weekly', text: WEEKLY, values });
    if (!touched.length) continue;
    const spans = [touched, day, zone];
    await client.query({ name: 'promo-end', text: END, values: spans });
    await client.query({ name: 'promo-reopen', text: REOPEN, values: spans });
    await client.query({ name: 'promo-reprice', text: REPRICE, values: spans });
    await client.query({ name: 'promo-open', text: OPEN, values: [touched, day, sellerId, zone] });
    await client.query({ name: 'promo-currencies', text: CURRENCIES, values });
    await client.query({ name: 'promo-type-cum', text: TYPE_CUM, values });
    await client.query({ name: 'promo-duration-cum', text: DURATION_CUM, values });
    await client.query({ name: 'promo-duration-keys', text: DURATION_KEYS, values });
  }
};

registerRollup('promotions', promotionsRollup);
// A zone's promotions of a seller from the price history: the query migration 100 backfilled promo_spans
// with (check.ts compares the stored rows with it), its runs' days in zone $2, reading seller $1's
// promotion intervals only (the section reads every seller's, finding runs for $1's alone).
const HISTORY = recomputeSpansFrom('100_promotions.sql', 'promo_backfill_runs', '$2::text');
const NOT_NORMAL = "where pi.price_type <> 'NORMAL'";
if (!HISTORY.includes(NOT_NORMAL)) throw new Error('promotions: recompute-spans changed, REBUILD_SPANS not');
const REBUILD_SPANS = `
insert into promo_spans (zone, product_id, seller_id, classification_id, price_type, first_day, last_day,
                         normal_price, promo_price, currency)
${HISTORY.replace(NOT_NORMAL, `${NOT_NORMAL} and p.seller_id = $1`)}
select $2, product_id, seller_id, classification_id, price_type, first_day, last_day, normal_price, promo_price,
       currency
  from history`;

// a zone's listing-days and promotions once its daily rows are rebuilt (the 'rollup-zone' job, one seller
// at a time, under the seller's row lock)
registerZoneRebuild(
  'promotions',
  async (client, sellerId, zone) => {
    await client.query('delete from promo_weekly where zone = $2 and seller_id = $1', [sellerId, zone]);
    await client.query('delete from promo_daily where zone = $2 and seller_id = $1', [sellerId, zone]);
    await client.query(REBUILD_DAILY, [sellerId, zone]);
    await client.query(REBUILD_WEEKLY, [sellerId, zone]);
    await client.query('delete from promo_spans where zone = $2 and seller_id = $1', [sellerId, zone]);
    await client.query(REBUILD_SPANS, [sellerId, zone]);
    await client.query('select promo_rebuild_cumulative(array[$1::int], $2::text)', [sellerId, zone]);
  },
  async (client, zone) => {
    await client.query('delete from promo_weekly where zone = $1', [zone]);
    await client.query('delete from promo_daily where zone = $1', [zone]);
    for (const t of [
      'promo_spans',
      'promo_type_cum',
      'promo_duration_cum',
      'promo_duration_keys',
      'promo_cum_currencies',
    ])
      await client.query(`delete from ${t} where zone = $1`, [zone]);
  },
);
