import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/routes.js';
import exporterPlugin from './exporter/plugin.js';
import jobsPlugin from './jobs/plugin.js';
import licensesRoutes from './licenses/routes.js';
import mailPlugin from './mail/plugin.js';
import usersRoutes from './users/routes.js';

/**
 * Every feature module's routes plugin, registered by app.ts in this order.
 * A feature adds one line here; its routes live in modules/<feature>/routes.ts.
 */
export const modules: FastifyPluginAsync[] = [
  jobsPlugin, // job queue worker (start on ready, stop on close)
  mailPlugin, // 'email' job handler
  exporterPlugin, // socket.io exporter channel on /socket.io
  authRoutes, // login, refresh, password reset
  usersRoutes, // /v1/users/me/
  licensesRoutes, // license data, trees, app-config
];
