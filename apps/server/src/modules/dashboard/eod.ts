import { addDays, DASHBOARD_DEFAULT_PERIOD_DAYS, DEFAULT_TIMEZONE, isoDateInZone } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { type RollupUpdater, registerRollup } from '../ingest/registry.js';

// End-of-day states of closed days (migrations/030_dashboard.sql): built once per (seller, day) from
// price_intervals and read from listing_eod. Off the request path whenever possible:
//  - at ingest (roll-up 'dashboard-eod'): a run of a seller on day D builds that seller's comparison
//    days (below) before D that are missing — their state is final, ingestion refuses older data;
//  - in the background (warm.ts): at start-up and periodically, every seller's comparison days;
//  - on a request only as a last resort (ensureEod), e.g. for a custom period.

const LOCK_NAMESPACE = 7030;

/** The listings' state at the end of `day` for one seller, written into listing_eod. */
async function buildSellerDay(client: pg.PoolClient, sellerId: number, day: string): Promise<void> {
  // One backward index probe per listing (price_intervals primary key): the latest interval that
  // started before the next day's first instant, kept only if it was still open then.
  await client.query('insert into listing_eod_days (seller_id, day, listings) values ($1, $2::date, 0)', [
    sellerId,
    day,
  ]);
  const { rowCount } = await client.query(
    `with bounds as (select ((($2::date + 1)::timestamp) at time zone 'America/Santiago') as day_end)
     insert into listing_eod (seller_id, day, product_id, classification_id, normal_price, promo_price,
                              effective_price, price_type, stock_out, currency)
     select p.seller_id, $2::date, p.id, p.classification_id, pi.normal_price,
            case pi.price_type when 'SALE' then pi.sale_price when 'EXCLUSIVE' then pi.exclusive_price
                               when 'BYQUANTITY' then pi.byquantity_price end,
            least(case when pi.normal_price > 0 then pi.normal_price end,
                  case when pi.sale_price > 0 then pi.sale_price end,
                  case when pi.exclusive_price > 0 then pi.exclusive_price end),
            pi.price_type, pi.stock_out, pi.currency
       from bounds b
       join products p on p.seller_id = $1 and p.first_seen < b.day_end
       cross join lateral (
         select * from price_intervals x
          where x.product_id = p.id and x.valid_from < b.day_end
          order by x.valid_from desc limit 1
       ) pi
      where pi.valid_to is null or pi.valid_to >= b.day_end`,
    [sellerId, day],
  );
  await client.query('update listing_eod_days set listings = $3 where seller_id = $1 and day = $2::date', [
    sellerId,
    day,
    rowCount ?? 0,
  ]);
}

/**
 * Makes sure listing_eod holds the end of `day` (a closed day) for every seller. Concurrent requests
 * for the same (seller, day) wait for one build (advisory lock) instead of repeating it.
 */
export async function ensureEod(pool: pg.Pool, sellers: number[], day: string): Promise<void> {
  if (!sellers.length) return;
  const { rows } = await pool.query<{ seller_id: number }>(
    'select seller_id from listing_eod_days where seller_id = any($1) and day = $2::date',
    [sellers, day],
  );
  const done = new Set(rows.map((r) => r.seller_id));
  for (const sellerId of sellers) {
    if (done.has(sellerId)) continue;
    await withTransaction(pool, (client) => buildIfMissing(client, sellerId, day));
  }
}

/**
 * What the end-of-day states of `day` for `sellers` are, as built: changes when a (seller, day) is
 * pruned or rebuilt. A reader compares it before and after reading listing_eod to know its figures come
 * from one consistent build (pruneEod may run at any time).
 */
export async function eodVersion(pool: pg.Pool, sellers: number[], day: string): Promise<string> {
  const { rows } = await pool.query<{ v: string | null }>(
    `select string_agg(seller_id || ':' || extract(epoch from built_at), ',' order by seller_id) as v
       from listing_eod_days where seller_id = any($1::int[]) and day = $2::date`,
    [sellers, day],
  );
  return rows[0].v ?? '';
}

/** How long a closed day outside today's comparison days is kept after it was built. */
export const EOD_KEEP_HOURS = 24;

/**
 * Deletes the end-of-day states (and the figures computed from them) of days that are not among
 * `keep` (today's comparison days) and were built more than EOD_KEEP_HOURS ago: listing_eod would
 * otherwise grow by two days of every listing each day. A custom period asking for a pruned day builds
 * it again (ensureEod); readers detect a prune under them with eodVersion.
 */
export async function pruneEod(
  pool: pg.Pool,
  keep: string[],
  now = new Date(),
): Promise<{ days: number; figures: number }> {
  const before = new Date(now.getTime() - EOD_KEEP_HOURS * 3_600_000);
  // The days and their states in one statement (listing_eod has no foreign key to cascade: migration 045).
  const days = await pool.query(
    `with d as (
       delete from listing_eod_days where day <> all($1::date[]) and built_at < $2 returning seller_id, day
     ), states as (
       delete from listing_eod e using d where e.seller_id = d.seller_id and e.day = d.day
     )
     select * from d`,
    [keep, before],
  );
  const figures = await pool.query(
    'delete from dashboard_day_figures where day <> all($1::date[]) and computed_at < $2',
    [keep, before],
  );
  return { days: days.rowCount ?? 0, figures: figures.rowCount ?? 0 };
}

/**
 * Period lengths the dashboard offers (web presets: the default 7, 30 and 90 days ending today): the
 * previous period of each ends that many days before today.
 */
export const DASHBOARD_PRESET_DAYS = [DASHBOARD_DEFAULT_PERIOD_DAYS, 30, 90] as const;

/** The closed days the preset periods compare against, today and tomorrow (so midnight is warm). */
export function comparisonDays(todayDay: string): string[] {
  const out = new Set<string>();
  for (const t of [todayDay, addDays(todayDay, 1)])
    for (const k of DASHBOARD_PRESET_DAYS) out.add(addDays(t, -k));
  return [...out].sort();
}

/** Builds (seller, day) inside the caller's transaction unless it exists (same lock as ensureEod). */
async function buildIfMissing(client: pg.PoolClient, sellerId: number, day: string): Promise<boolean> {
  await client.query(`select pg_advisory_xact_lock($1, hashtext($2 || ':' || $3))`, [
    LOCK_NAMESPACE,
    String(sellerId),
    day,
  ]);
  const again = await client.query('select 1 from listing_eod_days where seller_id = $1 and day = $2::date', [
    sellerId,
    day,
  ]);
  if (again.rowCount) return false;
  await buildSellerDay(client, sellerId, day);
  return true;
}

/**
 * Roll-up 'dashboard-eod' (runs in every ingest transaction): the seller's comparison days before the
 * run's day that are not materialised yet. Steady state: one cheap look-up per run, and each comparison
 * day built once, by the seller's first run after it closed (or by the background warm-up).
 */
export const dashboardEodRollup: RollupUpdater = async (client, ctx) => {
  const runDay = isoDateInZone(ctx.observedAt, DEFAULT_TIMEZONE);
  const days = comparisonDays(isoDateInZone(new Date(), DEFAULT_TIMEZONE)).filter((d) => d < runDay);
  if (!days.length) return;
  const { rows } = await client.query<{ day: string }>(
    `select to_char(day, 'YYYY-MM-DD') as day from listing_eod_days where seller_id = $1 and day = any($2::date[])`,
    [ctx.sellerId, days],
  );
  const done = new Set(rows.map((r) => r.day));
  for (const day of days) if (!done.has(day)) await buildIfMissing(client, ctx.sellerId, day);
};

registerRollup('dashboard-eod', dashboardEodRollup);
