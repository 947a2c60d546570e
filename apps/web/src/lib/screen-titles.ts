// The titles of the /app/ screens by their path segment (seed 000 §2): the route registry (app/routes.ts)
// takes its page headers, document titles and menu entries from here, and the home cards (features/home)
// their titles — a feature reads this table, never app/ (scripts/import-graph.ts).

export const APP_SCREEN_TITLES = {
  '': 'Inicio',
  dashboard: 'Dashboard',
  'dpm-by-brand': 'Competitividad por marca',
  'dpm-by-classification': 'Competitividad por clasificación',
  'dpm-by-ecommerce': 'Competitividad por eCommerce',
  'navigation-by-ecommerce': 'Precios por eCommerce',
  'brand-price-comparator': 'Comparador de precios de marca',
  matches: 'Coincidencias',
  'assortment-by-brand': 'Surtido por marca',
  'assortment-by-ecommerce': 'Surtido por eCommerce',
  'assortment-by-stock': 'Cambio de disponibilidad',
  'promotions-by-day': 'Promociones por día',
  'promotions-by-duration': 'Promociones por duración',
  'promotions-by-range': 'Promociones por rango de precios',
  'promotions-by-scatter-plot': 'Dispersión de precios',
  'promotions-by-type': 'Promociones por formato',
  'image-verification': 'Verificación de imágenes',
  'product/:id': 'Detalle de producto',
  'product-list': 'Lista de productos',
  'qmi-detail': 'Detalle de producto (QMI)',
  'qmp-detail': 'Detalle de producto (QMP)',
  reports: 'Reportes',
  'user-profile': 'Perfil de usuario',
  notifications: 'Notificaciones',
  operations: 'Operaciones',
  'notifications-subscriptions': 'Suscripciones a notificaciones',
} as const satisfies Record<string, string>;

export type AppScreenPath = keyof typeof APP_SCREEN_TITLES;

/** Title of an /app/ screen by its path segment ('dpm-by-brand'); '' when there is none. */
export function screenTitle(path: string): string {
  return (APP_SCREEN_TITLES as Record<string, string>)[path] ?? '';
}
