import type pg from 'pg';
import { recomputeSpansFrom } from '../../db/migrate.js';

// A recomputation of the promotions read model (promo_spans, promo_daily) from the price
// history (price_intervals and ingest_runs), for the tests and as an operations check. Definitions:
// migrations/100_promotions.sql and docs/metrics.md "Promotions".
//
// A day's state of a listing is the interval covering its seller's last succeeded run of that day
// (none: unpublished). Each promotion interval covers a contiguous set of the seller's run days; runs of
// covered run days of the same type that follow each other (no run day between) form one promotion,
// which ends the day before the next run day, or is still open when it reaches the seller's last run day.

/**
 * The promotions of the price history: the query migration 100 backfilled promo_spans with (between its
 * `recompute-spans` markers), over the runs of every seller or of seller $1 only, their days in zone $2.
 */
function recomputeSpans(): string {
  return `${recomputeSpansFrom('100_promotions.sql', 'promo_backfill_runs', '$2::text')}
select product_id::int as product_id, seller_id, classification_id, price_type, first_day::text as first_day,
       last_day::text as last_day, normal_price::float8 as normal_price, promo_price::float8 as promo_price, currency
  from history`;
}

const STORED_SPANS = `
select product_id::int as product_id, seller_id, classification_id, price_type, first_day::text as first_day,
       last_day::text as last_day, normal_price::float8 as normal_price, promo_price::float8 as promo_price, currency
  from promo_spans where zone = $2 and ($1::int is null or seller_id = $1)`;

const RECOMPUTE_DAILY = `
select r.zone, r.seller_id, r.day::text as day, node as classification_id, sum(r.published)::int as published,
       sum(r.promoted)::int as promoted, sum(r.promoted_sale)::int as promoted_sale,
       sum(r.promoted_exclusive)::int as promoted_exclusive, sum(r.promoted_byquantity)::int as promoted_byquantity
  from rollup_daily_brand r join classifications c on c.id = r.classification_id cross join unnest(c.path) node
 where ($1::int is null or r.seller_id = $1)
 group by 1, 2, 3, 4 having sum(r.published) > 0`;

const STORED_DAILY = `
select zone, seller_id, day::text as day, classification_id, published, promoted, promoted_sale, promoted_exclusive,
       promoted_byquantity
  from promo_daily where ($1::int is null or seller_id = $1)`;

// The cumulative tables (migration 101): on every day a key has a row or an event (a promotion of the
// key started or ended), the sums over the key's promotions started / ended on or before that day. A
// stored row that differs, or an event day without a row, is a mismatch. Recounted from promo_spans
// (checked above against the history) with plain filters, not from the events the roll-up adds up.
const PRICE_SUMS = (p: string, cond: string) => `
  count(*) filter (where ${cond})::int as ${p === 's' ? 'started' : 'ended'},
  coalesce(sum(v.normal_price) filter (where ${cond}), 0)::numeric as ${p}_normal,
  count(v.normal_price) filter (where ${cond})::int as ${p}_normal_n,
  coalesce(sum(vigia_promo_price(v.promo_price)) filter (where ${cond}), 0)::numeric as ${p}_promo,
  count(vigia_promo_price(v.promo_price)) filter (where ${cond})::int as ${p}_promo_n,
  coalesce(sum(vigia_discount_pct(v.normal_price, v.promo_price)) filter (where ${cond}), 0)::numeric as ${p}_disc,
  count(vigia_discount_pct(v.normal_price, v.promo_price)) filter (where ${cond})::int as ${p}_disc_n,
  coalesce(sum(v.normal_price * vigia_fx_rate_on(v.currency, v.first_day)) filter (where ${cond}), 0)::numeric as ${p}_normal_clp,
  count(v.normal_price * vigia_fx_rate_on(v.currency, v.first_day)) filter (where ${cond})::int as ${p}_normal_clp_n,
  coalesce(sum(vigia_promo_price(v.promo_price) * vigia_fx_rate_on(v.currency, v.first_day)) filter (where ${cond}), 0)::numeric as ${p}_promo_clp,
  count(vigia_promo_price(v.promo_price) * vigia_fx_rate_on(v.currency, v.first_day)) filter (where ${cond})::int as ${p}_promo_clp_n`;
const MEASURES = (p: string) =>
  `${p === 's' ? 'started' : 'ended'}, ${p}_normal::numeric, ${p}_normal_n, ${p}_promo::numeric, ${p}_promo_n, ${p}_disc::numeric, ${p}_disc_n,
   ${p}_normal_clp::numeric, ${p}_normal_clp_n, ${p}_promo_clp::numeric, ${p}_promo_clp_n`;
const SPANS_OF = '($1::int is null or v.seller_id = $1)';
/** The rows of zone $2 (promo_spans and the cumulative tables are kept per zone: migration 470). */
const ZONED = `v.zone = $2 and ${SPANS_OF}`;

const RECOMPUTE_TYPE_CUM = `
with d as (
  select seller_id, node as classification_id, price_type, currency, first_day as day from promo_span_nodes v where ${ZONED}
  union
  select seller_id, node, price_type, currency, last_day from promo_span_nodes v where last_day is not null and ${ZONED}
  union
  select seller_id, classification_id, price_type, currency, day from promo_type_cum v where ${ZONED}
)
select d.seller_id, d.classification_id, d.price_type, d.currency, d.day::text as day,
       ${PRICE_SUMS('s', 'v.first_day <= d.day')}, ${PRICE_SUMS('e', 'v.last_day <= d.day')}
  from d join promo_span_nodes v on v.zone = $2 and v.seller_id = d.seller_id and v.node = d.classification_id
                                and v.price_type = d.price_type and v.currency = d.currency
 group by 1, 2, 3, 4, 5`;
const STORED_TYPE_CUM = `
select seller_id, classification_id, price_type, currency, day::text as day, ${MEASURES('s')}, ${MEASURES('e')}
  from promo_type_cum v where ${ZONED}`;

const DURATION = 'v.last_day - v.first_day + 1';
const RECOMPUTE_DURATION_CUM = `
with d as (
  select seller_id, node as classification_id, currency, ${DURATION} as duration, last_day as day
    from promo_span_nodes v where last_day is not null and ${ZONED}
  union
  select seller_id, classification_id, currency, duration, day from promo_duration_cum v where ${ZONED}
)
select d.seller_id, d.classification_id, d.currency, d.duration, d.day::text as day,
       ${PRICE_SUMS('e', 'v.last_day <= d.day')}
  from d join promo_span_nodes v on v.zone = $2 and v.seller_id = d.seller_id and v.node = d.classification_id
                                and v.currency = d.currency and ${DURATION} = d.duration
 group by 1, 2, 3, 4, 5`;
const STORED_DURATION_CUM = `
select seller_id, classification_id, currency, duration, day::text as day, ${MEASURES('e')}
  from promo_duration_cum v where ${ZONED}`;

/** Keys the questions probe: every currency and duration key of the cumulative tables. */
const RECOMPUTE_KEYS = `
select distinct 'currency' as kind, seller_id, null::int as classification_id, currency, null::int as duration
  from promo_type_cum v where ${ZONED}
union
select distinct 'duration', seller_id, classification_id, currency, duration from promo_duration_cum v where ${ZONED}`;
const STORED_KEYS = `
select 'currency' as kind, seller_id, null::int as classification_id, currency, null::int as duration
  from promo_cum_currencies v where ${ZONED}
union all
select 'duration', seller_id, classification_id, currency, duration from promo_duration_keys v where ${ZONED}`;

const RECOMPUTE_WEEKLY = `
select zone, seller_id, classification_id, (day - (extract(isodow from day)::int - 1))::text as week,
       sum(published)::int as published, sum(promoted)::int as promoted, sum(promoted_sale)::int as promoted_sale,
       sum(promoted_exclusive)::int as promoted_exclusive, sum(promoted_byquantity)::int as promoted_byquantity
  from promo_daily v where ${SPANS_OF} group by 1, 2, 3, 4`;
const STORED_WEEKLY = `
select zone, seller_id, classification_id, week::text as week, published, promoted, promoted_sale, promoted_exclusive,
       promoted_byquantity
  from promo_weekly v where ${SPANS_OF}`;

export interface PromotionMismatch {
  table: 'promo_spans' | 'promo_daily' | 'promo_weekly' | 'promo_type_cum' | 'promo_duration_cum' | 'keys';
  side: 'stored' | 'recomputed';
  row: Record<string, unknown>;
}

async function diff(
  db: pg.Pool | pg.PoolClient,
  table: PromotionMismatch['table'],
  stored: string,
  recomputed: string,
  values: unknown[],
): Promise<PromotionMismatch[]> {
  const { rows } = await db.query<{ side: 'stored' | 'recomputed'; row: Record<string, unknown> }>(
    `with stored as (${stored}), recomputed as (select * from (${recomputed}) x)
     select 'stored' as side, to_jsonb(a) as row from (select * from stored except all select * from recomputed) a
     union all
     select 'recomputed', to_jsonb(b) from (select * from recomputed except all select * from stored) b
     order by 2`,
    values,
  );
  return rows.map((r) => ({ table, ...r }));
}

/**
 * Rows of promo_spans, promo_daily and the cumulative tables that differ from their recomputation (empty =
 * consistent). The daily table is checked against rollup_daily_brand, itself checked against the history
 * by ingest/rollups-check.ts; the cumulative tables against promo_spans.
 */
export async function checkPromotions(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
): Promise<PromotionMismatch[]> {
  const seller = sellerId ?? null;
  const out = [
    ...(await diff(db, 'promo_daily', STORED_DAILY, RECOMPUTE_DAILY, [seller])),
    ...(await diff(db, 'promo_weekly', STORED_WEEKLY, RECOMPUTE_WEEKLY, [seller])),
  ];
  // the promotions and their cumulative rows of every zone kept (each with its zone in the rows)
  const { rows: zones } = await db.query<{ zone: string }>('select zone from rollup_zones order by zone');
  for (const { zone } of zones) {
    const values = [seller, zone];
    const tag = (ms: PromotionMismatch[]) => ms.map((m) => ({ ...m, row: { zone, ...m.row } }));
    out.push(
      ...tag(await diff(db, 'promo_spans', STORED_SPANS, recomputeSpans(), values)),
      ...tag(await diff(db, 'promo_type_cum', STORED_TYPE_CUM, RECOMPUTE_TYPE_CUM, values)),
      ...tag(await diff(db, 'promo_duration_cum', STORED_DURATION_CUM, RECOMPUTE_DURATION_CUM, values)),
      // a key whose promotions are gone may stay (a probe that finds nothing); a missing one may not
      ...tag(await diff(db, 'keys', STORED_KEYS, RECOMPUTE_KEYS, values)).filter(
        (m) => m.side === 'recomputed',
      ),
    );
  }
  return out;
}
