import type { FastifyPluginAsync } from 'fastify';

/**
 * Every feature module's routes plugin, registered by app.ts in this order.
 * A feature adds one line here; its routes live in modules/<feature>/routes.ts.
 */
export const modules: FastifyPluginAsync[] = [];
