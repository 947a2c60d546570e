import { DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import { z } from 'zod';
import { allowLongStatements, type Queryable, withTransaction } from '../../db/database.js';
import { atWorkerStart, defineJob } from '../../platform/jobs/index.js';
import { rollupUpdaters, zoneRebuilds } from './registry.js';

// The daily roll-up per market zone (migration 431, docs/architecture.md "Roll-ups per market zone").
// rollup_daily_brand is kept at ingest (rollups.ts) for every zone of rollup_zones. A zone an
// organisation chooses for the first time is added there not ready and the 'rollup-zone' job computes
// its rows from the price history, one seller at a time under the seller's row lock (so no ingest run of
// that seller interleaves: a run before the rebuild is overwritten by it, a run after builds on it), then
// marks the zone ready. Screens read a zone's rows only once it is ready (dayZone below); until then the
// deployment's zone, for every figure of the answer alike.

/**
 * The rows of rollup_daily_brand recomputed from the price history alone (price_intervals, ingest_runs,
 * products.first_seen), for seller `$1` (null: all), day `$2` (null: all) in zone `$3`. Definitions:
 * migrations/010_rollups.sql: t = the seller's last succeeded run of the day; a listing is published at
 * t when an interval covers t; "before the day" = the interval covering the day's start. The tests'
 * check (test/rollups-check.ts) compares the roll-up kept at ingest with it.
 */
export const RECOMPUTE_DAILY = `
with runs as (
  select seller_id, vigia_day(observed_at, $3::text) as day, max(observed_at) as t
    from ingest_runs where status = 'succeeded' and ($1::int is null or seller_id = $1)
     and ($2::date is null or vigia_day(observed_at, $3::text) = $2::date)
   group by 1, 2
),
b as (
  select r.seller_id, r.day, r.t, s.currency,
         vigia_day_start(r.day, $3::text) as d0,
         vigia_day_start(r.day + 1, $3::text) as d1
    from runs r join sellers s on s.id = r.seller_id
),
listing as (
  select b.seller_id, b.day, b.currency, p.id, p.classification_id, p.brand_id,
         now_.price_type, now_.stock_out, now_.normal_price, now_.currency as cur,
         least(case when now_.normal_price > 0 then now_.normal_price end,
               case when now_.sale_price > 0 then now_.sale_price end,
               case when now_.exclusive_price > 0 then now_.exclusive_price end) as effective,
         case now_.price_type when 'SALE' then now_.sale_price when 'EXCLUSIVE' then now_.exclusive_price
                              when 'BYQUANTITY' then now_.byquantity_price end as promo,
         (now_.product_id is not null) as published,
         before.stock_out as before_stock_out,
         (first.valid_from >= b.d0 and first.valid_from < b.d1) as is_new,
         (now_.product_id is null and exists (
            select 1 from price_intervals e where e.product_id = p.id and e.valid_to >= b.d0 and e.valid_to <= b.t
         )) as gone
    from b
    join products p on p.seller_id = b.seller_id
    left join price_intervals now_ on now_.product_id = p.id and now_.valid_from <= b.t
                                  and (now_.valid_to is null or now_.valid_to > b.t)
    left join price_intervals before on before.product_id = p.id and before.valid_from < b.d0
                                    and (before.valid_to is null or before.valid_to >= b.d0)
    left join lateral (select min(valid_from) as valid_from from price_intervals f where f.product_id = p.id) first on true
)
select day::text as day, seller_id, classification_id, brand_id, currency,
       count(*) filter (where published)::int as published,
       count(*) filter (where published and not stock_out)::int as in_stock,
       count(*) filter (where published and price_type <> 'NORMAL')::int as promoted,
       count(*) filter (where published and price_type = 'SALE')::int as promoted_sale,
       count(*) filter (where published and price_type = 'EXCLUSIVE')::int as promoted_exclusive,
       count(*) filter (where published and price_type = 'BYQUANTITY')::int as promoted_byquantity,
       count(effective) filter (where published and cur = currency)::int as priced,
       coalesce(sum(effective) filter (where published and cur = currency), 0)::numeric(16,2) as effective_price_sum,
       count(normal_price) filter (where published and cur = currency)::int as normal_priced,
       coalesce(sum(normal_price) filter (where published and cur = currency), 0)::numeric(16,2) as normal_price_sum,
       count(vigia_discount_pct(normal_price, promo))
             filter (where published and price_type <> 'NORMAL' and cur = currency)::int as discounted,
       coalesce(sum(round(vigia_discount_pct(normal_price, promo), 4))
               filter (where published and price_type <> 'NORMAL' and cur = currency), 0)::numeric(14,4) as discount_pct_sum,
       count(*) filter (where is_new)::int as new_listings,
       count(*) filter (where gone)::int as unpublished,
       count(*) filter (where published and stock_out and before_stock_out = false)::int as went_out_of_stock,
       count(*) filter (where published and not stock_out and before_stock_out)::int as back_in_stock
  from listing
 where published or is_new or gone
 group by day, seller_id, classification_id, brand_id, currency`;

const MEASURES = `published, in_stock, promoted, promoted_sale, promoted_exclusive, promoted_byquantity, priced,
  effective_price_sum, normal_priced, normal_price_sum, discounted, discount_pct_sum, new_listings, unpublished,
  went_out_of_stock, back_in_stock`;

/** Rewrites seller `sellerId`'s rows of `zone` from the history, under the seller's row lock. */
export async function rebuildSellerZone(pool: pg.Pool, sellerId: number, zone: string): Promise<number> {
  return withTransaction(pool, async (c) => {
    // long work: a large seller's history takes more than a request's statement timeout
    await allowLongStatements(c);
    await c.query('select 1 from sellers where id = $1 for update', [sellerId]);
    await c.query('delete from rollup_daily_brand where zone = $2 and seller_id = $1', [sellerId, zone]);
    const r = await c.query(
      `insert into rollup_daily_brand (zone, day, seller_id, classification_id, brand_id, currency, ${MEASURES},
                                       effective_price_avg, normal_price_avg)
       select $3, x.day::date, x.seller_id, x.classification_id, x.brand_id, x.currency, ${MEASURES},
              round(effective_price_sum / nullif(priced, 0), 2), round(normal_price_sum / nullif(normal_priced, 0), 2)
         from (${RECOMPUTE_DAILY}) x`,
      [sellerId, null, zone],
    );
    for (const h of zoneRebuilds) await h.fn(c, sellerId, zone);
    return r.rowCount ?? 0;
  });
}

/** The roll-ups a bulk load may defer (IngestOptions.deferRollups): those with a zone rebuild. */
export const deferrableRollups = (): string[] => {
  const names = new Set(rollupUpdaters.map((r) => r.name));
  return zoneRebuilds.map((h) => h.name).filter((n) => names.has(n));
};

/**
 * The rows of the roll-ups `names` (deferred by a bulk load of seller `sellerId`: IngestOptions.deferRollups)
 * rebuilt from the history in every zone of rollup_zones, by their zone rebuilds (as the 'rollup-zone' job
 * does after the daily rows), one transaction per zone under the seller's row lock.
 */
export async function rebuildDeferred(
  pool: pg.Pool,
  sellerId: number,
  names: readonly string[],
): Promise<void> {
  const { rows } = await pool.query<{ zone: string }>('select zone from rollup_zones order by zone');
  for (const { zone } of rows)
    await withTransaction(pool, async (c) => {
      await allowLongStatements(c);
      await c.query('select 1 from sellers where id = $1 for update', [sellerId]);
      for (const h of zoneRebuilds) if (names.includes(h.name)) await h.fn(c, sellerId, zone);
    });
}

/**
 * Adds `zone` to the zones the daily roll-up is kept in (not ready) and enqueues its rebuild; nothing
 * when it is there already. `db` may be the transaction that changes an organisation's zone.
 */
export async function requestRollupZone(db: Queryable, zone: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'insert into rollup_zones (zone) values ($1) on conflict (zone) do nothing',
    [zone],
  );
  if (!rowCount) return false;
  await zoneJob.enqueue(db, { zone });
  return true;
}

/** The zone is the deployment's or some organisation's. */
const IN_USE = `($1 = $2 or exists (select 1 from organisations o where o.market_zone = $1))`;

/**
 * Computes every seller's rows of a zone from the history, then marks it ready; stops as soon as no
 * organisation uses the zone any more (its drop job, queued behind, deletes what was built).
 */
export async function buildRollupZone(
  pool: pg.Pool,
  zone: string,
): Promise<{ sellers: number; rows: number }> {
  const { rows: sellers } = await pool.query<{ id: number }>('select id from sellers order by id');
  let rows = 0;
  for (const s of sellers) {
    const kept = await pool.query(`select 1 from rollup_zones where zone = $1 and ${IN_USE}`, [
      zone,
      DEFAULT_TIMEZONE,
    ]);
    if (!kept.rowCount) return { sellers: 0, rows };
    rows += await rebuildSellerZone(pool, s.id, zone);
  }
  await pool.query('update rollup_zones set ready = true where zone = $1', [zone]);
  return { sellers: sellers.length, rows };
}

/**
 * A zone no organisation uses any more (and not the deployment's) leaves rollup_zones with its rows, so
 * that ingest no longer pays for it; false (nothing done) when it is in use again.
 */
export async function dropRollupZone(pool: pg.Pool, zone: string): Promise<boolean> {
  return withTransaction(pool, async (c) => {
    const gone = await c.query(`delete from rollup_zones where zone = $1 and not ${IN_USE}`, [
      zone,
      DEFAULT_TIMEZONE,
    ]);
    if (!gone.rowCount) return false;
    await c.query('delete from rollup_daily_brand where zone = $1', [zone]);
    await c.query('delete from dashboard_day_figures where zone = $1', [zone]);
    await c.query('delete from dashboard_seller_days where zone = $1', [zone]);
    await c.query('delete from dashboard_index_history_snapshots where zone = $1', [zone]);
    for (const h of zoneRebuilds) await h.drop(c, zone);
    return true;
  });
}

/**
 * After an organisation left zone `previous`: when no organisation uses it any more, its drop is
 * enqueued (the same job: it drops a zone out of use, builds one in use).
 */
export async function releaseRollupZone(db: Queryable, previous: string): Promise<boolean> {
  const { rows } = await db.query<{ unused: boolean }>(
    `select not ${IN_USE} as unused from rollup_zones where zone = $1`,
    [previous, DEFAULT_TIMEZONE],
  );
  if (!rows[0]?.unused) return false;
  await zoneJob.enqueue(db, { zone: previous });
  return true;
}

/**
 * The zone whose days a screen of an organisation in `zone` shows: its own once its roll-up rows are
 * ready, else the deployment's (every figure of an answer in the same zone).
 */
export async function dayZone(db: Queryable, zone: string): Promise<string> {
  if (zone === DEFAULT_TIMEZONE) return zone;
  const { rows } = await db.query<{ ready: boolean }>('select ready from rollup_zones where zone = $1', [
    zone,
  ]);
  return rows[0]?.ready ? zone : DEFAULT_TIMEZONE;
}

export const ZONE_QUEUE = 'rollup-zone';

export const zoneJob = defineJob({
  queue: ZONE_QUEUE,
  payload: z.object({ zone: z.string().min(1) }),
  maxAttempts: 3,
  handler: async ({ zone }, ctx) => {
    const t = Date.now();
    if (await dropRollupZone(ctx.pool, zone)) {
      ctx.log.info({ zone, ms: Date.now() - t }, 'rollup zone dropped');
      return;
    }
    const r = await buildRollupZone(ctx.pool, zone);
    ctx.log.info(
      { zone, ...r, ms: Date.now() - t },
      r.sellers ? 'rollup zone built' : 'rollup zone not in use: not built',
    );
  },
});

// A zone left not ready (a worker stopped during its build, or added by migration 431) is built again
// when a worker starts. Tests build zones themselves.
if (!process.env.VITEST)
  atWorkerStart(ZONE_QUEUE, async ({ pool }) => {
    const { rows } = await pool.query<{ zone: string }>('select zone from rollup_zones where not ready');
    for (const r of rows) await zoneJob.enqueue(pool, { zone: r.zone });
  });
