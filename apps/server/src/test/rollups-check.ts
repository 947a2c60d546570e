import { DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import { RECOMPUTE_DAILY as RECOMPUTE } from '../modules/ingest/zones.js';

// rollup_daily_brand as kept at ingest (by difference, modules/ingest/rollups.ts) against its independent
// recomputation from the price history alone (modules/ingest/zones.ts RECOMPUTE_DAILY, which also builds
// a newly chosen zone's rows), used by the tests and usable as an operations check after a bulk repair:
// every (seller, day with a succeeded run) row of a zone must equal what the history says.

const COLUMNS = `day::text as day, seller_id, classification_id, brand_id, currency, published, in_stock, promoted,
  promoted_sale, promoted_exclusive, promoted_byquantity, priced, effective_price_sum, normal_priced,
  normal_price_sum, discounted, round(discount_pct_sum, 4)::numeric(14,4) as discount_pct_sum, new_listings,
  unpublished, went_out_of_stock, back_in_stock`;

export interface RollupMismatch {
  side: 'stored' | 'recomputed';
  row: Record<string, unknown>;
}

/**
 * Rows that differ between rollup_daily_brand and its recomputation from history (empty = consistent),
 * for one seller and one day (yyyy-MM-dd) when given. The recomputation groups every day by the
 * listings' present classification and brand: after a listing changed either, only the days since agree.
 */
export async function checkDailyRollups(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
  day?: string,
  zone: string = DEFAULT_TIMEZONE,
): Promise<RollupMismatch[]> {
  const { rows } = await db.query(
    `with recomputed as (${RECOMPUTE}),
     stored as (select ${COLUMNS} from rollup_daily_brand
                 where zone = $3 and ($1::int is null or seller_id = $1) and ($2::date is null or day = $2::date)),
     only_stored as (select * from stored except select * from recomputed),
     only_recomputed as (select * from recomputed except select * from stored)
     select 'stored' as side, to_jsonb(s) as row from only_stored s
     union all
     select 'recomputed', to_jsonb(r) from only_recomputed r
     order by 2`,
    [sellerId ?? null, day ?? null, zone],
  );
  return rows;
}

/** The recomputation itself (rows in the shape of rollup_daily_brand, without averages). */
export async function recomputeDailyRollups(
  db: pg.Pool | pg.PoolClient,
  sellerId?: number,
  zone: string = DEFAULT_TIMEZONE,
) {
  const { rows } = await db.query(`${RECOMPUTE} order by 1, 2, 3, 4`, [sellerId ?? null, null, zone]);
  return rows;
}
