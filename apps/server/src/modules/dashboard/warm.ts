import { addDays, DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import { allowLongStatements, withTransaction } from '../../db/database.js';
import { today } from '../../market/index.js';
import type { JobLogger } from '../../platform/jobs/index.js';
import { dayZone } from '../ingest/index.js';
import { WARM_DAYS } from './days.js';
import { pruneSellerDays, sellerDays } from './seller-days.js';

// Background warm-up of the dashboard (docs/metrics.md "Dashboard", "Speed"): for each license, every
// licensed seller's (pivots and competitors) per-day rows under the license's roots (seller-days.ts) for
// every closed day the preset periods and their previous periods cover (the last 2 × 90 days), so that
// any competitor selection's first answer only sums stored rows; then it prunes rows of older days (and
// the per-scope figures of the older path, days before the window). Runs as the 'dashboard-warm' job:
// enqueued when the server is ready (never blocking listen) and every 30 minutes, so a first visit — and
// the first visit after midnight — finds them. Each run computes only the days not stored yet (one new
// day a day). The index history in memory (index-history.ts) is the API process's own warm-up.

export const WARM_QUEUE = 'dashboard-warm';

export { DASHBOARD_PRESET_DAYS, WARM_DAYS } from './days.js';

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
  // per zone of the days warmed: the window's first day there (the deployment's zone always)
  const windows = new Map<string, string>([[DEFAULT_TIMEZONE, from]]);
  for (const l of licenses) {
    // the organisation's days (its zone once the roll-up's rows of it are ready): its closed days
    const zone = await dayZone(pool, l.zone);
    const zoneFrom = addDays(today(now, zone), -WARM_DAYS);
    windows.set(zone, zoneFrom);
    const sellers = [...new Set([...l.pivots, ...l.sellers])].sort((a, b) => a - b);
    const roots = [...l.roots].sort((a, b) => a - b);
    scopes++;
    // one seller at a time, each in its own transaction with the long statement timeout: on the large
    // market the promotion intervals of all twelve sellers over even one missing day were more than the
    // requests' 30 s, and the whole license was skipped (its new day then computed by the first requests)
    for (const seller of sellers) {
      try {
        await withTransaction(pool, async (client) => {
          await allowLongStatements(client);
          await sellerDays(client, {
            sellers: [seller],
            roots,
            zone,
            from: zoneFrom,
            to: addDays(zoneFrom, WARM_DAYS - 1),
          });
        });
      } catch (err) {
        log?.warn({ err, seller, roots, zone }, 'dashboard warm-up: seller skipped');
      }
    }
  }
  return { from, to, scopes, pruned: pruned + (await pruneSellerDays(pool, windows, from)) };
}
