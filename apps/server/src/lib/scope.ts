import { PIVOT_HEADER } from '@vigia/domain';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../plugins/auth.js';
import { badRequest, forbidden, unauthorized } from './errors.js';

// License scoping used by every analysis endpoint: a seller, pivot or currency outside the license
// is refused with 403, never silently dropped or shown (PRODUCT.md "license").

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** The pivot of the request: explicit value, else the X-Pivot-Id header, else the user's pivot. */
export function resolvePivot(req: FastifyRequest, requested?: number | null): number {
  const p = principalOf(req);
  const header = req.headers[PIVOT_HEADER];
  const pivot = requested ?? (typeof header === 'string' && header ? Number(header) : null) ?? p.pivotId;
  if (pivot === null || pivot === undefined || Number.isNaN(pivot)) {
    throw badRequest('pivot_id: no hay un pivote seleccionado', 'pivot_id');
  }
  if (!p.license.pivots.includes(pivot))
    throw forbidden(`Pivote no incluido en la licencia: ${pivot}`, 'pivot_not_licensed');
  return pivot;
}

/**
 * The competitor sellers of the request. Any requested seller outside the license → 403.
 * None requested → every licensed seller except the pivot.
 */
export function resolveSellers(
  req: FastifyRequest,
  requested: number[] | null | undefined,
  pivot?: number,
): number[] {
  const p = principalOf(req);
  if (requested && requested.length > 0) {
    const outside = requested.filter((s) => !p.license.sellers.includes(s) && !p.license.pivots.includes(s));
    if (outside.length)
      throw forbidden(`eCommerce no incluido en la licencia: ${outside.join(', ')}`, 'seller_not_licensed');
    return [...new Set(requested)].filter((s) => s !== pivot);
  }
  return p.license.sellers.filter((s) => s !== pivot);
}

/** The currency of the request: explicit, else the user's, else the license's first. Outside → 403. */
export function resolveCurrency(req: FastifyRequest, requested?: string | null): string {
  const p = principalOf(req);
  const currency = (requested || p.currency || p.license.currencies[0] || 'CLP').toUpperCase();
  if (!p.license.currencies.includes(currency)) {
    throw forbidden(`Divisa no incluida en la licencia: ${currency}`, 'currency_not_licensed');
  }
  return currency;
}
