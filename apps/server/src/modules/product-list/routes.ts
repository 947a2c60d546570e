import { productListRoutes as defs } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../lib/errors.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf, resolveCurrency, resolvePivot, resolveSellers } from '../../lib/scope.js';
import { visibleSellers } from '../detail/access.js';
import { classificationsOutside } from '../pricing/queries.js';
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
    const pivot = resolvePivot(req, b.pivot_id ?? null);
    // the pivot is a licensed seller too here: resolveSellers drops the pivot, so add it back when asked
    const sellers = b.sellers?.length
      ? [
          ...new Set([
            ...resolveSellers(req, b.sellers, pivot),
            ...(b.sellers.includes(pivot) ? [pivot] : []),
          ]),
        ]
      : [pivot];
    const currency = resolveCurrency(req, b.currency);
    const outside = await classificationsOutside(pool, b.classificationsIds ?? [], license.classifications);
    if (outside.length) {
      throw forbidden(
        `Clasificación no incluida en la licencia: ${outside.join(', ')}`,
        'classification_not_licensed',
      );
    }
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
    });
  });
}
