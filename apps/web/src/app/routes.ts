import type { ModuleCode } from '@vigia/domain';
import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import { prefetchProductDetail } from '../features/product-detail/prefetch.js';
import { APP_SCREEN_TITLES, screenTitle } from '../lib/screen-titles.js';

// The route registry: every screen of the app, one entry each. The router, the menu and the page titles
// read it; the /app/ screens' titles come from lib/screen-titles.ts, which the home cards read too (a
// feature never imports app/). To put a real screen in place of a placeholder, change its `lazy` import
// (features/<feature>/pages/<Name>Page.tsx, default export) — nothing else.

export type LazyScreenModule = { default: ComponentType };
export type LazyScreenLoader = () => Promise<LazyScreenModule>;

export interface ScreenRoute {
  /** Path segment: absolute for public routes, relative to /app/ for app routes ('' is Home). */
  path: string;
  /** Route name (seed names where given: Login, ResetPassword, Home). */
  name: string;
  /** Module the license must grant; null when the seed does not gate the screen. */
  module: ModuleCode | null;
  /** Spanish title: page header, document title, menu and home cards. */
  title: string;
  lazy: LazyScreenLoader;
  /**
   * Starts the screen's first loads from the route's loader, in parallel with the license data and the
   * screen's code (a screen whose first paint matters: the product page). Must be safe to skip, and do
   * nothing without a session; a screen gated by a module must not prefetch what the license lacks.
   */
  prefetch?: (params: Params) => void;
}

/** Screens that need no login. */
export const publicRoutes: ScreenRoute[] = [
  {
    path: '/login',
    name: 'Login',
    module: null,
    title: 'Iniciar sesión',
    lazy: () => import('../features/auth/pages/LoginPage.js'),
  },
  {
    path: '/reset-password',
    name: 'ResetPassword',
    module: null,
    title: 'Recuperar contraseña',
    lazy: () => import('../features/auth/pages/ResetPasswordPage.js'),
  },
  {
    path: '/password/reset/confirm/',
    name: 'ResetPasswordConfirm',
    module: null,
    title: 'Reestablecer contraseña',
    lazy: () => import('../features/auth/pages/ResetPasswordConfirmPage.js'),
  },
];

/** Needs login, outside the /app frame: loads the license data, then goes to /app/. */
export const dependenciesLoaderRoute: ScreenRoute = {
  path: '/dependencies-loader',
  name: 'DependenciesLoader',
  module: null,
  title: 'Preparando tu información',
  lazy: () => import('../features/auth/pages/DependenciesLoaderPage.js'),
};

/** Children of the /app/ layout (requires login). */
export const appRoutes: ScreenRoute[] = [
  {
    path: '',
    name: 'Home',
    module: null,
    title: APP_SCREEN_TITLES[''],
    lazy: () => import('../features/home/pages/HomePage.js'),
  },
  {
    path: 'dashboard',
    name: 'Dashboard',
    module: null,
    title: APP_SCREEN_TITLES.dashboard,
    lazy: () => import('../features/dashboard/pages/DashboardPage.js'),
  },
  // Precios
  {
    path: 'dpm-by-brand',
    name: 'DpmByBrand',
    module: 'dpm',
    title: APP_SCREEN_TITLES['dpm-by-brand'],
    lazy: () => import('../features/pricing/pages/DpmPage.js'),
  },
  {
    path: 'dpm-by-classification',
    name: 'DpmByClassification',
    module: 'dpm',
    title: APP_SCREEN_TITLES['dpm-by-classification'],
    lazy: () => import('../features/pricing/pages/DpmPage.js'),
  },
  {
    path: 'dpm-by-ecommerce',
    name: 'DpmByEcommerce',
    module: 'dpm',
    title: APP_SCREEN_TITLES['dpm-by-ecommerce'],
    lazy: () => import('../features/pricing/pages/DpmPage.js'),
  },
  {
    path: 'navigation-by-ecommerce',
    name: 'NavigationByEcommerce',
    module: 'ecommerce_navigation',
    title: APP_SCREEN_TITLES['navigation-by-ecommerce'],
    lazy: () => import('../features/pricing/pages/NavigationPage.js'),
  },
  {
    path: 'brand-price-comparator',
    name: 'BrandPriceComparator',
    module: 'dpm',
    title: APP_SCREEN_TITLES['brand-price-comparator'],
    lazy: () => import('../features/brand-comparator/pages/BrandComparatorPage.js'),
  },
  {
    path: 'matches',
    name: 'Matches',
    module: 'dpm',
    title: APP_SCREEN_TITLES.matches,
    lazy: () => import('../features/matches/pages/MatchesPage.js'),
  },
  // Surtido
  {
    path: 'assortment-by-brand',
    name: 'AssortmentByBrand',
    module: 'assortment',
    title: APP_SCREEN_TITLES['assortment-by-brand'],
    lazy: () => import('../features/assortment/pages/AssortmentPage.js'),
  },
  {
    path: 'assortment-by-ecommerce',
    name: 'AssortmentByEcommerce',
    module: 'assortment',
    title: APP_SCREEN_TITLES['assortment-by-ecommerce'],
    lazy: () => import('../features/assortment/pages/AssortmentPage.js'),
  },
  {
    path: 'assortment-by-stock',
    name: 'AssortmentByStock',
    module: 'assortment',
    title: APP_SCREEN_TITLES['assortment-by-stock'],
    lazy: () => import('../features/assortment/pages/AssortmentPage.js'),
  },
  // Promociones
  {
    path: 'promotions-by-day',
    name: 'PromotionsByDay',
    module: 'promotions',
    title: APP_SCREEN_TITLES['promotions-by-day'],
    lazy: () => import('../features/promotions/pages/PromotionsByDayPage.js'),
  },
  {
    path: 'promotions-by-duration',
    name: 'PromotionsByDuration',
    module: 'promotions',
    title: APP_SCREEN_TITLES['promotions-by-duration'],
    lazy: () => import('../features/promotions/pages/PromotionsByDurationPage.js'),
  },
  {
    path: 'promotions-by-range',
    name: 'PromotionsByRange',
    module: 'promotions',
    title: APP_SCREEN_TITLES['promotions-by-range'],
    lazy: () => import('../features/promotions/pages/PromotionsByRangePage.js'),
  },
  {
    path: 'promotions-by-scatter-plot',
    name: 'PromotionsByScatterPlot',
    module: 'promotions',
    title: APP_SCREEN_TITLES['promotions-by-scatter-plot'],
    lazy: () => import('../features/promotions/pages/PromotionsByScatterPlotPage.js'),
  },
  {
    path: 'promotions-by-type',
    name: 'PromotionsByType',
    module: 'promotions',
    title: APP_SCREEN_TITLES['promotions-by-type'],
    lazy: () => import('../features/promotions/pages/PromotionsByTypePage.js'),
  },
  // Imágenes
  {
    path: 'image-verification',
    name: 'ImageVerification',
    module: 'image_verification',
    title: APP_SCREEN_TITLES['image-verification'],
    lazy: () => import('../features/image-verification/pages/ImageVerificationPage.js'),
  },
  // Producto
  {
    path: 'product/:id',
    name: 'ProductDetail',
    module: null,
    title: APP_SCREEN_TITLES['product/:id'],
    lazy: () => import('../features/product-detail/pages/ProductDetailPage.js'),
    prefetch: (params) => prefetchProductDetail(Number(params.id)),
  },
  {
    path: 'product-list',
    name: 'ProductList',
    module: null,
    title: APP_SCREEN_TITLES['product-list'],
    lazy: () => import('../features/product-list/pages/ProductListPage.js'),
  },
  {
    path: 'qmi-detail',
    name: 'QmiDetail',
    module: null,
    title: APP_SCREEN_TITLES['qmi-detail'],
    lazy: () => import('../features/product-detail/pages/QmiDetailPage.js'),
  },
  {
    path: 'qmp-detail',
    name: 'QmpDetail',
    module: null,
    title: APP_SCREEN_TITLES['qmp-detail'],
    lazy: () => import('../features/product-detail/pages/QmpDetailPage.js'),
  },
  // Reportes, perfil, notificaciones
  {
    path: 'reports',
    name: 'Reports',
    module: 'reports',
    title: APP_SCREEN_TITLES.reports,
    lazy: () => import('../features/reports/pages/ReportsPage.js'),
  },
  {
    path: 'user-profile',
    name: 'UserProfile',
    module: null,
    title: APP_SCREEN_TITLES['user-profile'],
    lazy: () => import('../features/profile/pages/UserProfilePage.js'),
  },
  {
    path: 'notifications',
    name: 'Notifications',
    module: null,
    title: APP_SCREEN_TITLES.notifications,
    lazy: () => import('../features/notifications/pages/NotificationsPage.js'),
  },
  {
    path: 'operations',
    name: 'Operations',
    module: null,
    title: APP_SCREEN_TITLES.operations,
    lazy: () => import('../features/operations/pages/OperationsPage.js'),
  },
  {
    path: 'notifications-subscriptions',
    name: 'NotificationsSubscriptions',
    module: null,
    title: APP_SCREEN_TITLES['notifications-subscriptions'],
    lazy: () => import('../features/notifications/pages/SubscriptionsPage.js'),
  },
];

/** Registry entry of an /app/ screen by its path segment ('dpm-by-brand'). */
export function appRoute(path: string): ScreenRoute {
  const found = appRoutes.find((r) => r.path === path);
  if (!found) throw new Error(`Ruta no registrada: ${path}`);
  return found;
}

/** Title of an /app/ screen by path segment (lib/screen-titles.ts). */
export const routeTitle = screenTitle;

/** Route metadata available to every screen through useMatches() (see lib/route-meta.ts). */
export type { RouteHandle } from '../lib/route-meta.js';
