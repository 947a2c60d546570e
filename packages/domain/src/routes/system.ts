import { z } from 'zod';
import { defineRoute } from './define.js';

export const healthResponse = z.object({
  status: z.literal('ok'),
  version: z.string().max(40),
  database: z.enum(['embedded', 'external']),
});

/** Operations endpoints (public). */
export const systemRoutes = {
  health: defineRoute({
    id: 'system.health',
    method: 'GET',
    path: '/health',
    module: null,
    auth: false,
    response: healthResponse,
    summary: 'Estado del servidor y de su base de datos',
  }),
};
