import { pricingRoutes as defs, type PricingSortField, round2, type SortDirection } from '@vigia/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { badRequest } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import { resolvePivot } from '../../market/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import {
  memoOn,
  pageOf,
  priceBounds,
  rankingSummary,
  type ScoredSet,
  skusNotFound,
  tallyByBrand,
  tallyBySeller,
  tallyByTree,
  tallyOf,
} from './compute.js';
import './rollup.js';
import { getPivotModel, pricingReadModels } from './model.js';
import { selectClassificationNodes } from './queries.js';
import {
  groupOut,
  itemsOut,
  kpiResponse,
  lookupScope,
  lookupsKey,
  type Resolved,
  resolveScope,
  scored,
  sellerGroupOut,
  splitOut,
  withModel,
} from './service.js';

/** The KPIs and the pages kept per process, each (and across a restart: the most recent 64 of them). */
const ANSWERS_KEPT = 128;
type KpiAnswer = ReturnType<typeof kpiResponse> & { skus_not_found: string[] };

// Pricing API (seed 001 §7 "Pricing"; contract in packages/domain/src/pricing.ts; formulas in
// docs/metrics.md "Pricing"). dpm/* needs module dpm; navigation and new-navigation need
// ecommerce_navigation; price-range-scores* feed the price slider of both families of screens, so either
// module grants them. Every answer is scoped to the caller's license and pivot.

const CURSOR_ERROR = 'cursor: no pertenece al resultado (¿cambió el orden o los filtros?)';

export default async function pricingRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;

  // The models of the licensed pivots: loaded after start-up and kept current by the change signal
  // (model.ts pricingReadModels, in the process's read-model holder).
  pricingReadModels(pool);
  // the KPIs and pages kept by the process before a restart: read now, before the first request asks
  readModelsOf(pool).keptAcrossRestarts('dpm-kpi-answers', ANSWERS_KEPT);
  readModelsOf(pool).keptAcrossRestarts('dpm-items-answers', ANSWERS_KEPT);

  async function page(
    resolved: Resolved,
    q: { cursor?: string; page_size: number; sort: SortDirection; sort_by: PricingSortField },
  ) {
    const set = scored(resolved);
    const p = pageOf(set, { cursor: q.cursor, size: q.page_size, sortBy: q.sort_by, sort: q.sort });
    if (!p) throw badRequest(CURSOR_ERROR, 'cursor');
    const items = await itemsOut(pool, set, p.positions, resolved);
    return {
      items,
      next_cursor: p.hasMore && items.length ? items[items.length - 1].id : null,
      total: p.total,
    };
  }

  type ScopeQuery = Parameters<typeof resolveScope>[2];
  type PageQuery = ScopeQuery & {
    cursor?: string;
    page_size: number;
    sort: SortDirection;
    sort_by: PricingSortField;
  };

  // One body per answer shape; the DPM and navigation routes that answer the same share it.
  // The pages of a scope are kept across a restart like the KPIs (below): the first DPM page asked
  // before a restart is answered without its pivot's model.
  const items = async (req: FastifyRequest, q: PageQuery) => {
    const lookups = await lookupScope(requesterOf(req), pool, q);
    const asked = [q.cursor ?? null, q.page_size, q.sort, q.sort_by];
    return readModelsOf(pool)
      .keptAcrossRestarts<ItemsAnswer>('dpm-items-answers', ANSWERS_KEPT)
      .answer(['items', lookupsKey(lookups), asked], async () => {
        const resolved = await withModel(pool, lookups);
        return {
          ...(await page(resolved, q)),
          page_size: q.page_size,
          currency: resolved.scope.currency,
          mpi_value: resolved.scope.mpiValue,
        };
      });
  };
  type ItemsAnswer = Awaited<ReturnType<typeof page>> & {
    page_size: number;
    currency: string;
    mpi_value: number;
  };
  // The KPIs of a scope are kept across a restart (read-model.ts keptAcrossRestarts): a restarted process
  // answers the first DPM screen asked before from its first moment, its pivot's model loading behind
  // (issue 30, cold start). The key is the whole resolved scope and the model's version.
  const kpi = async (req: FastifyRequest, q: ScopeQuery) => {
    const lookups = await lookupScope(requesterOf(req), pool, q);
    return readModelsOf(pool)
      .keptAcrossRestarts<KpiAnswer>('dpm-kpi-answers', ANSWERS_KEPT)
      .answer(['kpi', lookupsKey(lookups)], async () => {
        const resolved = await withModel(pool, lookups);
        const set = scored(resolved);
        return {
          ...kpiResponse(
            memoOn(set, 'tally', () => tallyOf(set, set.filtered)),
            resolved.scope,
          ),
          skus_not_found: memoOn(set, 'skusNotFound', () => skusNotFound(set)),
        };
      });
  };

  // ───────────────────────────── DPM ─────────────────────────────

  registerRoute(app, defs.brandFilterOptions, async (req) => {
    const pivot = resolvePivot(requesterOf(req), req.query.pivotId ?? null);
    const model = await getPivotModel(pool, pivot);
    const own = new Set(principalOf(req).license.brands);
    const brands = new Map<number, { id: number; name: string; products: number; own: boolean }>();
    for (const row of model.rows) {
      if (!row.published || row.brandId === null) continue;
      const b = brands.get(row.brandId);
      if (b) b.products++;
      else
        brands.set(row.brandId, {
          id: row.brandId,
          name: row.brandName ?? '',
          products: 1,
          own: own.has(row.brandId),
        });
    }
    return [...brands.values()].sort((a, b) => a.name.localeCompare(b.name, 'es') || a.id - b.id);
  });

  registerRoute(app, defs.dpmItems, (req) => items(req, req.query));
  registerRoute(app, defs.dpmKpi, (req) => kpi(req, req.query));

  registerRoute(app, defs.dpmBrands, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const { model } = resolved;
    const set = scored(resolved);
    const names = new Map<number, string>();
    for (const i of set.filtered) {
      const row = model.rows[i];
      if (row.brandId !== null && row.brandName !== null) names.set(row.brandId, row.brandName);
    }
    const items = [...tallyByBrand(set)]
      .map(([id, t]) => ({ id, name: names.get(id) ?? 'Sin marca', ...groupOut(t) }))
      .sort((a, b) => b.products - a.products || a.name.localeCompare(b.name, 'es'));
    return { group: 'brand' as const, ...envelope(set), items };
  });

  registerRoute(app, defs.dpmClassifications, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const set = scored(resolved);
    const groups = memoOn(set, 'classes', () => tallyByTree(set));
    const nodes = new Map(
      (
        await selectClassificationNodes(
          pool,
          [...groups.keys()].filter((id) => id > 0),
        )
      ).map((n) => [n.id, n]),
    );
    const items = [...groups]
      .map(([id, t]) => {
        const n = nodes.get(id);
        return {
          id,
          name: n?.name ?? 'Sin clasificación',
          parent_id: n?.parent_id ?? null,
          level: n?.level ?? 1,
          path: n?.path ?? [id],
          ...groupOut(t),
        };
      })
      .sort((a, b) => a.level - b.level || b.products - a.products || a.name.localeCompare(b.name, 'es'));
    return { group: 'classification' as const, ...envelope(set), items };
  });

  registerRoute(app, defs.dpmSellers, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const set = scored(resolved);
    const items = memoOn(set, 'sellers', () => tallyBySeller(set))
      .map((g) => sellerGroupOut(g, resolved.sellers, set.filtered.length))
      .sort((a, b) => b.products - a.products || a.name.localeCompare(b.name, 'es'));
    return { group: 'seller' as const, ...envelope(set), items };
  });

  // ───────────────────────────── navigation by e-commerce ─────────────────────────────

  registerRoute(app, defs.navigationItems, (req) => items(req, req.body));
  registerRoute(app, defs.navigationOldItems, (req) => items(req, req.body));
  registerRoute(app, defs.navigationKpi, (req) => kpi(req, req.query));
  registerRoute(app, defs.navigationOldKpi, (req) => kpi(req, req.query));

  registerRoute(app, defs.navigationSummary, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const set = scored(resolved);
    return {
      currency: resolved.scope.currency,
      pivot_id: resolved.scope.pivot,
      items: memoOn(set, 'sellers', () => tallyBySeller(set)).map((g) => {
        const out = sellerGroupOut(g, resolved.sellers, set.filtered.length);
        return {
          ...out.head_to_head!,
          seller_id: g.sellerId,
          seller_name: out.name,
          color: out.color!,
          average_index: out.average_index,
        };
      }),
    };
  });

  registerRoute(app, defs.newNavigationPrices, async (req) => {
    const q = req.body;
    const resolved = await resolveScope(requesterOf(req), pool, q);
    const p = await page(resolved, q);
    const sellers = resolved.scope.competitors.map((id) => {
      const s = resolved.sellers.get(id);
      return { id, name: s?.name ?? 'eCommerce no encontrado', color: s?.color ?? '#9e9e9e' };
    });
    return {
      currency: resolved.scope.currency,
      sellers,
      items: p.items.map((it) => ({
        id: it.id,
        product_id: it.product_id,
        name: it.name,
        my_price: it.my_price,
        index: it.index,
        bucket: it.bucket,
        prices: sellers.map(
          (s) => it.competitors.find((c) => c.seller_id === s.id && c.comparable)?.price ?? null,
        ),
      })),
      next_cursor: p.next_cursor,
      total: p.total,
    };
  });

  registerRoute(app, defs.priceRangeScores, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const { scope } = resolved;
    const set = scored(resolved);
    return {
      currency: scope.currency,
      mpi_value: scope.mpiValue,
      ...priceBounds(set, set.pre),
      ...splitOut(memoOn(set, 'tally', () => tallyOf(set, set.filtered))),
      total: set.filtered.length,
    };
  });

  registerRoute(app, defs.priceRangeScoresQmp, async (req) => {
    const resolved = await resolveScope(requesterOf(req), pool, req.query);
    const { scope } = resolved;
    const set = scored(resolved);
    const rs = rankingSummary(set);
    return {
      currency: scope.currency,
      mpi_value: scope.mpiValue,
      ...priceBounds(set, set.pre),
      total: set.filtered.length,
      ranked: rs.ranked,
      icons: rs.icons.map((count, i) => ({ icon: i + 1, count })),
      first: rs.first,
      average_position: round2(rs.averagePosition),
    };
  });
}

function envelope(set: ScoredSet) {
  return {
    currency: set.scope.currency,
    mpi_value: set.scope.mpiValue,
    summary: groupOut(memoOn(set, 'tally', () => tallyOf(set, set.filtered))),
  };
}
