import { z } from 'zod';
import { defineRoute } from './define.js';

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string().max(40),
  database: z.enum(['embedded', 'external']),
  /** 'down' (with status 503 and Retry-After) while the database does not answer. */
  databaseStatus: z.enum(['up', 'down']),
});

/** Operations endpoints (public). */
export const systemRoutes = {
  health: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/health',
    module: null,
    auth: false,
    response: { 200: healthResponse, 503: healthResponse },
    summary: 'Estado del servidor y de su base de datos',
  }),
};
