import { routes } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type {} from '../../app.js'; // FastifyInstance.deps
import { registerRoute } from '../../lib/route.js';
import { requesterOf } from '../../lib/scope.js';
import { acceptBrand, decide, findQueue, history, report } from './service.js';

// Coincidencias (issue 29; contract packages/domain/src/matches.ts): module dpm, pairs of the caller's
// licensed sellers only (service.ts).

const defs = routes.matches;

export default async function matchesRoutes(app: FastifyInstance) {
  const { pool } = app.deps.db;
  registerRoute(app, defs.queue, (req) => findQueue(pool, requesterOf(req), req.body));
  registerRoute(app, defs.decide, (req) => decide(pool, requesterOf(req), req.body));
  registerRoute(app, defs.acceptBrand, (req) => acceptBrand(pool, requesterOf(req), req.body));
  registerRoute(app, defs.report, (req) => report(pool, requesterOf(req), req.body));
  registerRoute(app, defs.history, (req) => history(pool, requesterOf(req), req.body.listingId));
}
