import { DEFAULT_MPI_VALUE, dashboardRoutes as defs } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import {
  cents,
  normalizeSearch,
  resolveCurrency,
  resolvePivot,
  selectRates,
  today,
} from '../../market/index.js';
import { lookupScope, pricingKpis, resolveScope } from '../pricing/index.js';
import { dashboardReadModels } from './index-history.js';
import { selectLastUpdate, selectQuickFind } from './queries.js';
import { dashboardAnswers, dashboardPre } from './service.js';

/**
 * Dashboard (seed 001 §2 'dashboard', §7): indicators, card groups and quick find. No module code in
 * the seed: authentication plus the license's pivots, sellers, currencies and classification subtrees.
 */
export default async function dashboardRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;
  // Closed-day figures are computed off the request path: per seller and day by the 'dashboard-warm' job
  // (warm.ts, jobs.ts), the index history of each licensed pivot when the API is ready (index-history.ts).
  dashboardReadModels(pool);
  dashboardAnswers(pool);

  registerRoute(app, defs.indicators, async (req) => {
    const b = req.body;
    // Same scope and formulas as the DPM KPIs (modules/pricing), so both screens agree.
    const resolved = await resolveScope(requesterOf(req), pool, {
      pivot_id: b.pivot_id,
      sellers: b.sellers,
      currency: b.currency,
      mpi_value: b.mpi_value ?? DEFAULT_MPI_VALUE,
    } as Parameters<typeof resolveScope>[2]);
    const { scope } = resolved;
    const k = pricingKpis(resolved);
    const last = await selectLastUpdate(pool, [scope.pivot, ...scope.competitors]);
    return {
      pivot_id: scope.pivot,
      sellers: scope.competitors,
      currency: scope.currency,
      competitors: scope.competitors.length,
      monitored_products: k.total,
      products_with_match: k.match,
      last_update: last ? last.toISOString() : null,
      cheapest: k.cheapest,
      in_range: k.in_range,
      more_expensive: k.dearer,
    };
  });

  registerRoute(app, defs.cards, async (req) => {
    const b = req.body;
    // The pricing scope: license checks, competitors, rates (the pivot's model, for the price index, is
    // read only when the answer is not kept: dashboardPre)
    const lookups = await lookupScope(requesterOf(req), pool, {
      pivot_id: b.pivot_id,
      sellers: b.sellers,
      currency: b.currency,
      mpi_value: DEFAULT_MPI_VALUE,
    } as Parameters<typeof lookupScope>[2]);
    return dashboardPre(pool, {
      lookups,
      roots: principalOf(req).license.classifications,
      from: b.from_date,
      to: b.to_date,
      zone: principalOf(req).marketZone,
    });
  });

  registerRoute(app, defs.quickFind, async (req) => {
    const b = req.body;
    const pivot = resolvePivot(requesterOf(req), b.pivot_id ?? null);
    const currency = resolveCurrency(requesterOf(req), b.currency);
    const words = normalizeSearch(b.query);
    if (!words.length) return { items: [] };
    const [rows, rates] = await Promise.all([
      selectQuickFind(pool, {
        pivot,
        roots: principalOf(req).license.classifications,
        text: b.query,
        words,
        limit: b.limit ?? 10,
      }),
      selectRates(pool, currency, today(undefined, principalOf(req).marketZone)),
    ]);
    return {
      items: rows.map((x) => {
        const f = rates?.get(x.currency);
        return {
          id: x.id,
          product_id: x.product_id,
          seller_id: x.seller_id,
          name: x.name,
          sku: x.sku,
          ean: x.ean,
          brand: x.brand,
          image: x.image,
          price: x.effective_price !== null && f !== undefined ? cents(x.effective_price * f) : null,
          currency,
        };
      }),
    };
  });
}
