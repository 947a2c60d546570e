import { ASSORTMENT_DEFAULT_PERIOD_DAYS, addDays, routes } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { badRequest } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { today } from '../../market/index.js';
import { resolveScope, scored } from '../pricing/index.js';
import { comparatorReadModels } from './history.js';
import { brandComparator } from './service.js';

// Brand price comparator (issue 14; the seed shows only its card): module dpm, the DPM filters.
// Contract: packages/domain/src/assortment.ts; formulas: docs/metrics.md "Brand price comparator".

export default async function brandComparatorRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;

  // The trend's price history in memory (history.ts): loaded after start-up for every licensed pivot
  // (requests arriving meanwhile read the database) and kept current by the change signal.
  comparatorReadModels(pool);

  registerRoute(app, routes.brandComparator.comparator, async (req) => {
    const q = req.query;
    const now = today();
    const to = q.to_date ?? now;
    if (to > now) throw badRequest('to_date: la fecha final no puede ser posterior a hoy', 'to_date');
    const from = q.from_date ?? addDays(to, -(ASSORTMENT_DEFAULT_PERIOD_DAYS - 1));
    const resolved = await resolveScope(requesterOf(req), pool, q);
    return brandComparator(pool, resolved, scored(resolved), {
      from,
      to,
      own: principalOf(req).license.brands,
      picked: !!q.brands?.length || q.ownBrands === true,
    });
  });
}
