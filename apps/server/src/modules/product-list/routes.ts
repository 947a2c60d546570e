import { productListRoutes as defs } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../lib/route.js';
import { principalOf, requesterOf } from '../../lib/scope.js';
import {
  assertClassificationsLicensed,
  resolveCurrency,
  resolvePivot,
  resolveSellers,
  visibleSellers,
} from '../../market/index.js';
import { productList } from './service.js';

/**
 * Product list (seed 001 §2 'product-list'; the seed does not show the call — POST /v1/list-products/,
 * docs/metrics.md "Product list"). No module code: authentication and the license's sellers, pivots,
 * currencies and classification subtrees (requested ones outside it → 403).
 */
export default async function productListRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;

  registerRoute(app, defs.list, async (req) => {
    const b = req.body;
    const { license } = principalOf(req);
    const pivot = resolvePivot(requesterOf(req), b.pivot_id ?? null);
    // the pivot is a licensed seller too here: resolveSellers drops the pivot, so add it back when asked
    const sellers = b.sellers?.length
      ? [
          ...new Set([
            ...resolveSellers(requesterOf(req), b.sellers, pivot),
            ...(b.sellers.includes(pivot) ? [pivot] : []),
          ]),
        ]
      : [pivot];
    const currency = resolveCurrency(requesterOf(req), b.currency);
    await assertClassificationsLicensed(pool, license, b.classificationsIds);
    return productList(pool, {
      sellers,
      visibleSellers: visibleSellers(license),
      roots: license.classifications,
      classificationsIds: b.classificationsIds,
      brands: b.brands,
      search: b.search,
      match: b.match,
      stockOut: b.stockOut,
      includeUnpublished: b.include_unpublished,
      sort: b.sort,
      order: b.order,
      currency,
      page: b.page,
      pageSize: b.page_size,
      zone: principalOf(req).marketZone,
    });
  });
}
