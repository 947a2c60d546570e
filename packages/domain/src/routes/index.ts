import { assortmentRoutes, brandComparatorRoutes } from './assortment.js';
import { authRoutes } from './auth.js';
import { dashboardRoutes } from './dashboard.js';
import type { RouteDef } from './define.js';
import { detailRoutes } from './detail.js';
import { imageVerificationRoutes } from './image-verification.js';
import { licensesRoutes } from './licenses.js';
import { mediaRoutes } from './media.js';
import { notificationsRoutes } from './notifications.js';
import { ingestRoutes, operationsRoutes } from './operations.js';
import { pricingRoutes } from './pricing.js';
import { productListRoutes } from './product-list.js';
import { promotionsRoutes } from './promotions.js';
import { reportsRoutes, subscriptionsRoutes } from './reports.js';
import { systemRoutes } from './system.js';
import { usersRoutes } from './users.js';

export * from './define.js';
export { mediaParams } from './media.js';
export { healthResponse } from './system.js';
export {
  assortmentRoutes,
  authRoutes,
  brandComparatorRoutes,
  dashboardRoutes,
  detailRoutes,
  imageVerificationRoutes,
  ingestRoutes,
  licensesRoutes,
  mediaRoutes,
  notificationsRoutes,
  operationsRoutes,
  pricingRoutes,
  productListRoutes,
  promotionsRoutes,
  reportsRoutes,
  subscriptionsRoutes,
  systemRoutes,
  usersRoutes,
};

/** Every route of the API by feature. A new feature adds one file and one line here. */
export const routes = {
  system: systemRoutes,
  auth: authRoutes,
  users: usersRoutes,
  licenses: licensesRoutes,
  detail: detailRoutes,
  pricing: pricingRoutes,
  dashboard: dashboardRoutes,
  productList: productListRoutes,
  promotions: promotionsRoutes,
  media: mediaRoutes,
  assortment: assortmentRoutes,
  brandComparator: brandComparatorRoutes,
  reports: reportsRoutes,
  subscriptions: subscriptionsRoutes,
  imageVerification: imageVerificationRoutes,
  notifications: notificationsRoutes,
  operations: operationsRoutes,
  ingest: ingestRoutes,
};

/** The same routes as one flat list (tests, OpenAPI, the bench). */
export const routeList: readonly RouteDef[] = Object.values(routes).flatMap(
  (feature) => Object.values(feature) as RouteDef[],
);
