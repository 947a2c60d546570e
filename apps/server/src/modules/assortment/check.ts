import type pg from 'pg';
import { zoneCum, zoneSpans } from './rollup.js';

// A recomputation of the assortment read model (assortment_spans) from the price history (price_intervals,
// ingest_runs, products, brands), for the tests and as an operations check. Definitions:
// migrations/111_assortment_spans.sql and docs/metrics.md "Assortment".
//
// A day's state of a listing is the interval covering its seller's last succeeded run of that day (none:
// unpublished). Consecutive covered run days (no run day between) in the same state form one span, which
// ends the day before the next run day, or is open ('infinity') when it reaches the seller's last run day.
// Days are those of each zone the tables are kept in (rollup_zones, migration 480): every zone is checked
// (a zone not ready yet is still being built by its job: its rows differ from the history until then).

/**
 * The spans of the price history in every kept zone, for every seller or seller $1: migration 482's
 * assortment_recompute_spans (migration 111's backfill query with the zone's days), as a zone's rebuild.
 */
function recomputeSpans(): string {
  return `select ${COLUMNS} from (select s.* from rollup_zones z cross join lateral (${zoneSpans('z.zone')}) s) x`;
}

const COLUMNS = `zone, product_id::int as product_id, seller_id, first_day::text as first_day, last_day::text as last_day,
  brand_id, classification_id, name_key, brand_key, currency, effective_price::float8 as effective_price, price_type,
  stock_out, out_day::text as out_day, prev_stock_out`;

// (the stored spans keep the zone's id, migration 490: named here as the recomputation names it)
const STORED = `select ${COLUMNS} from assortment_spans join zone_ids on zone_ids.id = zone_id
                 where ($1::int is null or seller_id = $1)`;

/** assortment_events_cum recomputed from each kept zone's rows of rollup_daily_brand (migration 112's backfill). */
function recomputeCum(): string {
  return `select c.zone, c.seller_id, c.day::text as day, c.classification_id, c.brand_id,
                 c.went_out_cum::int as went_out_cum, c.back_in_cum::int as back_in_cum
            from rollup_zones z cross join lateral (${zoneCum('z.zone')}) c`;
}

const STORED_CUM = `select zone, seller_id, day::text as day, classification_id, brand_id, went_out_cum, back_in_cum
  from assortment_events_cum where ($1::int is null or seller_id = $1)`;

export interface AssortmentMismatch {
  table?: 'assortment_events_cum';
  side: 'stored' | 'recomputed';
  row: Record<string, unknown>;
}

/**
 * Rows of assortment_spans that differ from their recomputation from the price history, and of
 * assortment_events_cum from rollup_daily_brand (itself checked against the history by
 * test/rollups-check.ts); empty = consistent.
 */
export async function checkAssortment(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
): Promise<AssortmentMismatch[]> {
  const { rows } = await db.query<AssortmentMismatch>(
    `with stored as (${STORED}), recomputed as (select * from (${recomputeSpans()}) x)
     select 'stored' as side, to_jsonb(a) as row from (select * from stored except all select * from recomputed) a
     union all
     select 'recomputed', to_jsonb(b) from (select * from recomputed except all select * from stored) b
     order by 2`,
    [sellerId ?? null],
  );
  const cum = await db.query<AssortmentMismatch>(
    `with stored as (${STORED_CUM}), recomputed as (${recomputeCum()})
     select 'assortment_events_cum' as table, 'stored' as side, to_jsonb(a) as row
       from (select * from stored except all select * from recomputed) a
     union all
     select 'assortment_events_cum', 'recomputed', to_jsonb(b) from (select * from recomputed except all select * from stored) b
     order by 3`,
    [sellerId ?? null],
  );
  return [...rows, ...cum.rows];
}
