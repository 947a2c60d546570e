import { ASSORTMENT_DEFAULT_PERIOD_DAYS, ASSORTMENT_MAX_PERIOD_DAYS, addDays, routes } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { resolvePeriod } from '../../market/index.js';
import { type RowSubset, resolveScope, scored } from '../pricing/index.js';
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
    const own = principalOf(req).license.brands;
    const picked = !!q.brands?.length || q.ownBrands === true;
    const args = { from, to, own, picked, zone: principalOf(req).marketZone };
    // On a closed day only the brands it can show are overlaid and scored (pricing resolveScope): the
    // picked ones, or the own ones — the largest brands instead when none of them has a product, which
    // the whole model's answer below tells.
    const brands = new Set([...(q.brands ?? []), ...(q.ownBrands || !picked ? own : [])]);
    if (brands.size) {
      const rows: RowSubset = {
        key: `brands:${[...brands].sort((a, b) => a - b).join(',')}`,
        keep: (model, i) => brands.has(model.cols.rowBrand[i]),
      };
      const resolved = await resolveScope(requesterOf(req), pool, q, { closedDayRows: rows });
      const answer = await brandComparator(pool, resolved, scored(resolved), args);
      if (picked || answer.items.length || !resolved.model.subset) return answer;
    }
    const resolved = await resolveScope(requesterOf(req), pool, q);
    return brandComparator(pool, resolved, scored(resolved), args);
  });
}
