import type { FastifyPluginAsync } from 'fastify';
import mediaRoutes from '../platform/media/routes.js';
import './crawler/jobs.js';
import './dashboard/jobs.js';
import './feeds/jobs.js';
import './image-verification/jobs.js';
import './ingest/zones.js';
import './matching/jobs.js';
import './notifications/jobs.js';
import assortmentRoutes from './assortment/routes.js';
import authRoutes from './auth/routes.js';
import brandComparatorRoutes from './brand-comparator/routes.js';
import dashboardRoutes from './dashboard/routes.js';
import detailRoutes from './detail/routes.js';
import feedsRoutes from './feeds/routes.js';
import imageVerificationRoutes from './image-verification/routes.js';
import licensesRoutes from './licenses/routes.js';
import matchesRoutes from './matching/routes.js';
import notificationsRoutes from './notifications/routes.js';
import pricingRoutes from './pricing/routes.js';
import productListRoutes from './product-list/routes.js';
import promotionsRoutes from './promotions/routes.js';
import reportsJobs from './reports/jobs.js';
import reportsRoutes from './reports/routes.js';
import usersRoutes from './users/routes.js';

/**
 * Every feature's jobs (modules/<feature>/jobs.ts: its queues with their payload schemas, schedules and
 * start-up work, declared when the file is imported above). Those that need the app (e.g. to reach the
 * exporter channel) export a plugin, registered by app.ts in every role, before the routes.
 */
export const jobModules: FastifyPluginAsync[] = [reportsJobs];

/**
 * Every feature module's routes plugin, registered by app.ts in this order (roles 'api' and 'all').
 * A feature adds one line here; its routes live in modules/<feature>/routes.ts.
 */
export const modules: FastifyPluginAsync[] = [
  authRoutes, // login, refresh, password reset
  usersRoutes, // /v1/users/me/
  licensesRoutes, // license data, trees, app-config
  detailRoutes, // product detail: /v1/new-detail/, /v1/historical/complete/, /v2/detail/qmi*
  pricingRoutes, // pricing: /v2/navigation/dpm/*, /v2/navigation[Old]/, /v1/new-navigation/prices/, price-range-scores*
  brandComparatorRoutes, // brand price comparator: GET /v2/navigation/dpm/brand-comparator
  dashboardRoutes, // dashboard: /v2/general/pre, /v2/dashboard/pre, /v2/quickFind
  promotionsRoutes, // promotions: POST /v1/promotion/{level,duration,type,range,scatter-plot,prices,download}
  assortmentRoutes, // assortment: POST /v1/assortment/{brand,ecommerce,stock}[/products]
  productListRoutes, // product list: POST /v1/list-products/
  reportsRoutes, // reports + subscriptions: /v1/navigation-reports/*, /v1/subscriptions/* ('report' job, scheduler)
  imageVerificationRoutes, // image verification: GET /v1/image-verification/{items,kpis,items.xlsx,check,pictures/:file}, PUT review
  notificationsRoutes, // notifications: /v1/notifications/* (list, read, subscriptions, unsubscribe); dispatch + digest jobs
  feedsRoutes, // Operaciones: /v1/operations/* (sellers, sources, runs, API keys), POST /v1/ingest/observations; 'feed-import' job, scheduler
  matchesRoutes, // matching review: POST /v1/matches/{queue,decide,accept-brand,report}, GET /v1/matches/product/:productId
  mediaRoutes, // product pictures: GET /media/products/:key.svg, /media/reference/:key.svg (public)
];
