import { ASSORTMENT_DEFAULT_PERIOD_DAYS, ASSORTMENT_MAX_PERIOD_DAYS, addDays, routes } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { resolvePeriod } from '../../market/index.js';
import { getPivotModel, resolveScope, scored } from '../pricing/index.js';
import { stopHistory, warmHistory } from './history.js';
import { brandComparator } from './service.js';

// Brand price comparator (issue 14; the seed shows only its card): module dpm, the DPM filters.
// Contract: packages/domain/src/assortment.ts; formulas: docs/metrics.md "Brand price comparator".

export default async function brandComparatorRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;

  // The trend's price history in memory (history.ts): loaded in the background after start-up for every
  // licensed pivot; requests arriving meanwhile read the database.
  let warmup: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    warmup = (async () => {
      const { rows } = await pool.query<{ seller_id: number }>(
        'select distinct seller_id from license_pivots order by seller_id',
      );
      for (const p of rows) await warmHistory(pool, await getPivotModel(pool, p.seller_id));
    })().catch((err: Error) =>
      app.log.warn({ err: err.message }, 'brand comparator history: warm-up stopped'),
    );
  });
  app.addHook('onClose', async () => {
    await stopHistory(pool);
    await warmup;
  });

  registerRoute(app, routes.brandComparator.comparator, async (req) => {
    const q = req.query;
    const { from, to } = resolvePeriod(
      { from: q.from_date, to: q.to_date },
      { from: 'from_date', to: 'to_date' },
      {
        maxDays: ASSORTMENT_MAX_PERIOD_DAYS,
        defaultFrom: (t) => addDays(t, -(ASSORTMENT_DEFAULT_PERIOD_DAYS - 1)),
        notAfterToday: true,
        zone: principalOf(req).marketZone,
      },
    );
    const resolved = await resolveScope(requesterOf(req), pool, q);
    return brandComparator(pool, resolved, scored(resolved), {
      from,
      to,
      own: principalOf(req).license.brands,
      picked: !!q.brands?.length || q.ownBrands === true,
    });
  });
}
