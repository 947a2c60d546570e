import { PIVOT_HEADER } from '@vigia/domain';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../plugins/auth.js';
import { unauthorized } from './errors.js';

// The Fastify side of scoping: who asks. The license rules themselves (pivot, sellers, currency,
// classifications) are the market core's (market/scope.ts) and take what this returns, not a request.

export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** The signed-in principal and the request's X-Pivot-Id header: what market/scope.ts resolves against. */
export function requesterOf(req: FastifyRequest): { principal: Principal; pivotHeader: string | null } {
  const header = req.headers[PIVOT_HEADER];
  return { principal: principalOf(req), pivotHeader: typeof header === 'string' ? header : null };
}
