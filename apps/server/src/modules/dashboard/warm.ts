import { addDays } from '@vigia/domain';
import type pg from 'pg';
import { today } from '../../market/index.js';
import type { JobLogger } from '../../platform/jobs/index.js';
import { dayZone } from '../ingest/index.js';
import { closedDays } from './service.js';

// Background warm-up of the dashboard (docs/metrics.md "Dashboard", "Speed"): for each license's default
// scope (each pivot against every other licensed seller, the license's roots, each licensed currency),
// the figures of every closed day the preset periods and their previous periods cover (the last
// 2 × 90 days); then it prunes figures of older days. Runs as the 'dashboard-warm' job: enqueued when
// the server is ready (never blocking listen) and every WARM_EVERY_MS, so a first visit — and the first
// visit after midnight — finds them. Each run computes only the days not stored yet (one new day a day).

export const WARM_QUEUE = 'dashboard-warm';

/** Period lengths the dashboard offers (web presets: 7, 30 and 90 days ending today). */
export const DASHBOARD_PRESET_DAYS = [7, 30, 90] as const;

/** Closed days kept warm: the presets' periods and previous periods, yesterday back to today − 180. */
export const WARM_DAYS = 2 * Math.max(...DASHBOARD_PRESET_DAYS);

/** How long figures of a day older than the warm window are kept after they were computed. */
export const FIGURES_KEEP_HOURS = 24;

interface LicenseScopeRow {
  zone: string;
  sellers: number[];
  pivots: number[];
  currencies: string[];
  roots: number[];
}

/**
 * Deletes the figures of days before the warm window that were computed more than FIGURES_KEEP_HOURS
 * ago (a custom period that asks for them computes them again).
 */
export async function pruneFigures(pool: pg.Pool, todayDay: string, now = new Date()): Promise<number> {
  const res = await pool.query(
    'delete from dashboard_day_figures where day < $1::date and computed_at < $2',
    [addDays(todayDay, -WARM_DAYS), new Date(now.getTime() - FIGURES_KEEP_HOURS * 3_600_000)],
  );
  return res.rowCount ?? 0;
}

export async function warmDashboard(
  pool: pg.Pool,
  log?: Pick<JobLogger, 'warn'>,
  now = new Date(),
): Promise<{ from: string; to: string; scopes: number; pruned: number }> {
  const todayDay = today(now);
  const from = addDays(todayDay, -WARM_DAYS);
  const to = addDays(todayDay, -1);
  const pruned = await pruneFigures(pool, todayDay, now);
  const { rows: licenses } = await pool.query<LicenseScopeRow>(
    `select (select o.market_zone from organisations o where o.id = l.org_id) as zone,
            coalesce((select array_agg(seller_id order by seller_id) from license_sellers where license_id = l.id), '{}') as sellers,
            coalesce((select array_agg(seller_id order by seller_id) from license_pivots where license_id = l.id), '{}') as pivots,
            coalesce((select array_agg(currency order by currency) from license_currencies where license_id = l.id), '{}') as currencies,
            coalesce((select array_agg(classification_id order by classification_id) from license_classifications where license_id = l.id), '{}') as roots
       from licenses l`,
  );
  let scopes = 0;
  for (const l of licenses) {
    // the organisation's days (its zone once the roll-up's rows of it are ready): its closed days
    const zone = await dayZone(pool, l.zone);
    const yesterday = addDays(today(now, zone), -1);
    for (const pivot of l.pivots) {
      for (const currency of l.currencies) {
        const competitors = l.sellers.filter((s) => s !== pivot);
        const scope = { pivot, competitors, roots: l.roots, currency, zone };
        scopes++;
        try {
          await closedDays(pool, scope, addDays(yesterday, -(WARM_DAYS - 1)), yesterday);
        } catch (err) {
          // e.g. no exchange rate for that currency: the request will say so
          log?.warn({ err, pivot, currency }, 'dashboard warm-up: scope skipped');
        }
      }
    }
  }
  return { from, to, scopes, pruned };
}
