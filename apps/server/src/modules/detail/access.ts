import { PIVOT_HEADER } from '@vigia/domain';
import type { FastifyRequest } from 'fastify';
import { principalOf, resolvePivot } from '../../lib/scope.js';
import type { License } from '../../plugins/auth.js';

// License scoping of the product detail, product list and dashboard (no module code in the seed:
// authentication plus the license's sellers, pivots, currencies and classification subtrees).

/** Every seller the license lets its users see: competitors and pivots. */
export function visibleSellers(license: License): number[] {
  return [...new Set([...license.sellers, ...license.pivots])];
}

/**
 * A listing is inside the license when its seller is licensed (competitor or pivot) and, when the
 * license grants classification subtrees, it is classified under one of them (unclassified listings
 * are not excluded: nothing says they are outside).
 */
export function listingInLicense(
  license: License,
  row: { seller_id: number; classification_path: number[] | null },
): boolean {
  if (!license.sellers.includes(row.seller_id) && !license.pivots.includes(row.seller_id)) return false;
  if (license.classifications.length && row.classification_path?.length) {
    return row.classification_path.some((id) => license.classifications.includes(id));
  }
  return true;
}

/**
 * The pivot when one is requested (body, then X-Pivot-Id) — validated against the license (403) — or
 * the user's pivot when licensed; null when there is none.
 */
export function optionalPivot(req: FastifyRequest, requested?: number | null): number | null {
  const header = req.headers[PIVOT_HEADER];
  if ((requested !== null && requested !== undefined) || (typeof header === 'string' && header !== '')) {
    return resolvePivot(req, requested ?? null);
  }
  const p = principalOf(req);
  return p.pivotId !== null && p.license.pivots.includes(p.pivotId) ? p.pivotId : null;
}
