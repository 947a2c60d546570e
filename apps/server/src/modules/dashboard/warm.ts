import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { today } from '../../market/index.js';
import { enqueue, type JobLogger, registerJobHandler } from '../jobs/index.js';
import { comparisonDays, ensureEod, pruneEod } from './eod.js';
import { closedDay } from './service.js';

// Background warm-up of the dashboard (docs/metrics.md "Dashboard", "Speed"): the end-of-day states of
// every seller's comparison days (eod.ts) and, for each license's default scope (each pivot against
// every other licensed seller, the license's roots, each licensed currency), the figures of today's
// comparison days; then it prunes the closed days no longer compared against (pruneEod). Runs as the
// 'dashboard-warm' job: enqueued when the server is ready (never blocking
// listen) and every WARM_EVERY_MS, so a first visit — and the first visit after midnight — finds them.

export const WARM_QUEUE = 'dashboard-warm';
const WARM_EVERY_MS = 30 * 60_000;

interface LicenseScopeRow {
  sellers: number[];
  pivots: number[];
  currencies: string[];
  roots: number[];
}

export async function warmDashboard(
  pool: pg.Pool,
  log?: Pick<JobLogger, 'warn'>,
  now = new Date(),
): Promise<{ days: string[]; scopes: number; pruned: { days: number; figures: number } }> {
  const todayDay = today(now);
  const days = comparisonDays(todayDay);
  const { rows: sellers } = await pool.query<{ id: number }>('select id from sellers order by id');
  const ids = sellers.map((s) => s.id);
  for (const day of days) await ensureEod(pool, ids, day);
  const pruned = await pruneEod(pool, days, now);

  const { rows: licenses } = await pool.query<LicenseScopeRow>(
    `select coalesce((select array_agg(seller_id order by seller_id) from license_sellers where license_id = l.id), '{}') as sellers,
            coalesce((select array_agg(seller_id order by seller_id) from license_pivots where license_id = l.id), '{}') as pivots,
            coalesce((select array_agg(currency order by currency) from license_currencies where license_id = l.id), '{}') as currencies,
            coalesce((select array_agg(classification_id order by classification_id) from license_classifications where license_id = l.id), '{}') as roots
       from licenses l`,
  );
  const needed = days.filter((d) => d < todayDay);
  let scopes = 0;
  for (const l of licenses) {
    for (const pivot of l.pivots) {
      for (const currency of l.currencies) {
        const scope = { pivot, competitors: l.sellers.filter((s) => s !== pivot), roots: l.roots, currency };
        scopes++;
        for (const day of needed) {
          try {
            await closedDay(pool, scope, day);
          } catch (err) {
            // e.g. no exchange rate for that currency on that day: the request will say so
            log?.warn({ err, pivot, currency, day }, 'dashboard warm-up: scope skipped');
          }
        }
      }
    }
  }
  return { days, scopes, pruned };
}

/** Registers the job and schedules it at ready and periodically (the dashboard routes plugin). */
export function scheduleDashboardWarmUp(app: FastifyInstance): void {
  const { pool } = app.deps.db;
  registerJobHandler(WARM_QUEUE, async (_payload, ctx) => {
    const t = Date.now();
    const r = await warmDashboard(ctx.pool, ctx.log);
    ctx.log.info({ ...r, ms: Date.now() - t }, 'dashboard warm-up done');
  });
  const kick = () => {
    // one pending warm-up is enough (several processes may share the queue)
    pool
      .query(`select 1 from jobs where queue = $1 and status in ('queued', 'running') limit 1`, [WARM_QUEUE])
      .then((r) => (r.rowCount ? undefined : enqueue(pool, WARM_QUEUE, {}, { maxAttempts: 2 })))
      .catch((err) => app.log.warn({ err }, 'dashboard warm-up not scheduled'));
  };
  // Test runs call warmDashboard themselves: no background job racing a test database.
  if (process.env.VITEST) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    kick(); // not awaited: listen never waits for it
    timer = setInterval(kick, WARM_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
