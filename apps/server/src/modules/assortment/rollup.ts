import { isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import { migrationSection } from '../../db/migrate.js';
import { type RollupUpdater, registerRollup, registerZoneRebuild } from '../ingest/index.js';
import { zoneId } from './queries.js';

// The assortment roll-up (migrations/111_assortment_spans.sql), run in every ingest transaction: only the
// listings the run touched can change state, so only their spans are looked at. For each of them, its
// state now (listing_current, published or not; when out of stock, the day its last in-stock interval
// ended) against its open span:
//  - END: an open span that is no longer the listing's state ends the day before the run's day — or is
//    deleted when an earlier run of the same day opened it (the day's last run decides);
//  - REOPEN: a listing without an open span whose span ended the day before (an earlier run of the same day
//    ended it) in the same state gets it back;
//  - OPEN: else a published listing without an open span opens one on the run's day, with the stock of
//    the span that ended the day before (prev_stock_out: the day's availability-change event);
//  - ATTRIBUTES: the sort and filter keys (brand, classification, name, brand name) of every span of a
//    touched listing follow the listing.
// check.ts recomputes the spans from the price history (tests, operations).
// Both tables are kept per market zone of rollup_zones (migration 480): every statement below takes the
// zone (`$3`, `$3` of CUM) and the run's day in it (`$2`); a zone's rows are rebuilt by the 'rollup-zone'
// job (registerZoneRebuild below). The spans keep the zone's id (zone_ids, migration 490), the events'
// running totals its name.

/** The touched listings' state now (`pub` false: unpublished). */
const STATE = `
select lc.product_id, lc.published as pub, lc.currency, lc.effective_price, lc.price_type, lc.stock_out,
       case when lc.stock_out then
         vigia_day(coalesce((select max(pi.valid_to) from price_intervals pi
                             where pi.product_id = lc.product_id and not pi.stock_out), p.first_seen), $3::text)
       end as out_day
  from unnest($1::bigint[]) t(id)
  join listing_current lc on lc.product_id = t.id
  join products p on p.id = t.id`;

/** The id of zone `$3` in the spans (one InitPlan per statement). */
const ZONE_ID = zoneId('$3::text');

const SAME_STATE = (a: string, s: string) =>
  `(${a}.currency, ${a}.effective_price, ${a}.price_type, ${a}.stock_out, ${a}.out_day)
     is not distinct from (${s}.currency, ${s}.effective_price, ${s}.price_type, ${s}.stock_out, ${s}.out_day)`;

/**
 * END, REOPEN and OPEN (see the top of this file) in one statement (until 2026-11-28 three, each reading
 * the state and the spans again: the largest statement of a day's ingest, bench/src/ingest-day.ts): the
 * touched listings' state (STATE), their open span (`o`) and their span ended the day before (`y`) are
 * read once. Its parts see the table as it was before the
 * statement, so what END changes is taken into account by hand: after END a listing has an open span only
 * when it keeps its own (`keep`); the span ended the day before is the one END just ended, if any, else `y`
 * (END ends only spans in another state, so it is never the one REOPEN takes back). Each part writes rows
 * of its own: an open span opened today that is replaced by a span in another state is rewritten in place
 * (the same row the delete and insert of END and OPEN would leave) rather than deleted and inserted with
 * the same key in one statement.
 */
const SPANS = `
with s as (${STATE}),
t as (
  select s.*, o.product_id is not null as has_open, o.first_day as o_first, o.stock_out as o_stock,
         (o.product_id is not null and s.pub and ${SAME_STATE('o', 's')}) as keep,
         y.first_day as y_first, y.stock_out as y_stock,
         (y.product_id is not null and ${SAME_STATE('y', 's')}) as y_same
    from s
    left join assortment_spans o on o.zone_id = ${ZONE_ID} and o.product_id = s.product_id and o.last_day = 'infinity'
    left join assortment_spans y on y.zone_id = ${ZONE_ID} and y.product_id = s.product_id and y.last_day = $2::date - 1
),
ended as (
  update assortment_spans a set last_day = $2::date - 1 from t
   where a.zone_id = ${ZONE_ID} and a.product_id = t.product_id and a.first_day = t.o_first
     and t.has_open and not t.keep and t.o_first < $2::date
),
dropped as (
  delete from assortment_spans a using t
   where a.zone_id = ${ZONE_ID} and a.product_id = t.product_id and a.first_day = t.o_first
     and t.has_open and not t.keep and t.o_first >= $2::date and (not t.pub or t.y_same)
),
replaced as (
  update assortment_spans a
     set brand_id = p.brand_id, classification_id = p.classification_id, name_key = lower(coalesce(p.name, '')),
         brand_key = lower(coalesce(b.name, 'Sin marca')), currency = t.currency, effective_price = t.effective_price,
         price_type = t.price_type, stock_out = t.stock_out, out_day = t.out_day, prev_stock_out = t.y_stock
    from t
    join products p on p.id = t.product_id
    left join brands b on b.id = p.brand_id
   where a.zone_id = ${ZONE_ID} and a.product_id = t.product_id and a.first_day = t.o_first
     and t.has_open and not t.keep and t.o_first >= $2::date and t.pub and not t.y_same
),
reopened as (
  update assortment_spans a set last_day = 'infinity' from t
   where a.zone_id = ${ZONE_ID} and a.product_id = t.product_id and a.first_day = t.y_first
     and t.pub and not t.keep and t.y_same
)
insert into assortment_spans (zone_id, product_id, seller_id, first_day, last_day, brand_id, classification_id, name_key,
                              brand_key, currency, effective_price, price_type, stock_out, out_day, prev_stock_out)
select ${ZONE_ID}, t.product_id, p.seller_id, $2::date, 'infinity', p.brand_id, p.classification_id, lower(coalesce(p.name, '')),
       lower(coalesce(b.name, 'Sin marca')), t.currency, t.effective_price, t.price_type, t.stock_out, t.out_day,
       case when t.has_open then t.o_stock else t.y_stock end
  from t
  join products p on p.id = t.product_id
  left join brands b on b.id = p.brand_id
 where t.pub and not t.keep and not t.y_same and not (t.has_open and t.o_first >= $2::date)`;

const ATTRIBUTES = `
update assortment_spans a
   set brand_id = p.brand_id, classification_id = p.classification_id, name_key = lower(coalesce(p.name, '')),
       brand_key = lower(coalesce(b.name, 'Sin marca'))
  from unnest($1::bigint[]) t(id)
  join products p on p.id = t.id
  left join brands b on b.id = p.brand_id
 where a.product_id = t.id
   and (a.brand_id, a.classification_id, a.name_key, a.brand_key)
       is distinct from (p.brand_id, p.classification_id, lower(coalesce(p.name, '')), lower(coalesce(b.name, 'Sin marca')))`;

// assortment_events_cum (migration 112) for the run's (seller, day), after the daily roll-up: the seller's
// previous day's running totals plus the day's events of rollup_daily_brand, per group.
const CUM_DELETE = 'delete from assortment_events_cum where zone = $3 and seller_id = $1 and day = $2::date';
const CUM = `
with prev as (
  select c.classification_id, c.brand_id, c.went_out_cum, c.back_in_cum from assortment_events_cum c
   where c.zone = $3 and c.seller_id = $1
     and c.day = (select max(x.day) from assortment_events_cum x where x.zone = $3 and x.seller_id = $1 and x.day < $2::date)
),
ev as (
  select r.classification_id, r.brand_id, r.went_out_of_stock as wo, r.back_in_stock as bk from rollup_daily_brand r
   where r.zone = $3 and r.seller_id = $1 and r.day = $2::date
     and (r.went_out_of_stock > 0 or r.back_in_stock > 0)
)
insert into assortment_events_cum (zone, seller_id, day, classification_id, brand_id, went_out_cum, back_in_cum)
select $3, $1, $2::date, coalesce(p.classification_id, e.classification_id), coalesce(p.brand_id, e.brand_id),
       coalesce(p.went_out_cum, 0) + coalesce(e.wo, 0), coalesce(p.back_in_cum, 0) + coalesce(e.bk, 0)
  from prev p
  full join ev e on coalesce(p.classification_id, -1) = coalesce(e.classification_id, -1)
                and coalesce(p.brand_id, -1) = coalesce(e.brand_id, -1)
 where exists (select 1 from rollup_daily_brand r where r.zone = $3 and r.seller_id = $1 and r.day = $2::date)`;

export const assortmentRollup: RollupUpdater = async (
  client: pg.PoolClient,
  { sellerId, observedAt, touched, zones },
) => {
  if (touched.length)
    await client.query({ name: 'assortment-attributes', text: ATTRIBUTES, values: [touched] });
  for (const zone of zones) {
    const day = isoDateInZone(observedAt, zone);
    await client.query({ name: 'assortment-cum-delete', text: CUM_DELETE, values: [sellerId, day, zone] });
    await client.query({ name: 'assortment-cum', text: CUM, values: [sellerId, day, zone] });
    if (!touched.length) continue;
    await client.query({ name: 'assortment-spans', text: SPANS, values: [touched, day, zone] });
  }
};

registerRollup('assortment', assortmentRollup);

/**
 * The spans of zone `zone` (an SQL text expression) of seller `$1` (null: all) recomputed from the price
 * history (migration 482's function).
 */
export const zoneSpans = (zone = '$2::text') =>
  `select ${zone} as zone, x.* from assortment_recompute_spans($1::int, ${zone}) x`;

/**
 * Zone `zone`'s running totals of seller `$1` (null: all) from that zone's daily rows: migration 112's
 * backfill query over them (the CTE stands for the table).
 */
export function zoneCum(zone = '$2::text'): string {
  const backfill = migrationSection('112_assortment_events_cum.sql', 'recompute-cum');
  return `with rollup_daily_brand as (select * from rollup_daily_brand
                                       where zone = ${zone} and ($1::int is null or seller_id = $1))
          select ${zone} as zone, x.* from (${backfill}) x`;
}

const SPAN_COLUMNS = `product_id, seller_id, first_day, last_day, brand_id, classification_id, name_key,
  brand_key, currency, effective_price, price_type, stock_out, out_day, prev_stock_out`;

// a zone's spans and running totals once its daily rows are rebuilt (the 'rollup-zone' job, one seller
// at a time under the seller's row lock), and their drop with the zone
registerZoneRebuild(
  'assortment',
  async (client, sellerId, zone) => {
    await client.query(
      `delete from assortment_spans where zone_id = ${zoneId('$2::text')} and seller_id = $1`,
      [sellerId, zone],
    );
    await client.query('delete from assortment_events_cum where zone = $2 and seller_id = $1', [
      sellerId,
      zone,
    ]);
    await client.query(
      `insert into assortment_spans (zone_id, ${SPAN_COLUMNS})
       select ${zoneId('$2::text')}, ${SPAN_COLUMNS} from (${zoneSpans()}) s`,
      [sellerId, zone],
    );
    await client.query(
      `insert into assortment_events_cum (zone, seller_id, day, classification_id, brand_id, went_out_cum, back_in_cum)
       select zone, seller_id, day, classification_id, brand_id, went_out_cum, back_in_cum from (${zoneCum()}) c`,
      [sellerId, zone],
    );
  },
  async (client, zone) => {
    await client.query(`delete from assortment_spans where zone_id = ${zoneId('$1::text')}`, [zone]);
    await client.query('delete from assortment_events_cum where zone = $1', [zone]);
  },
);
