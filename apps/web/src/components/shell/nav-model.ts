import { type AppConfig, type ModuleCode, type PivotListKey, screenShownForPivot } from '@vigia/domain';
import { appPath } from '../../lib/paths.js';

// The left navigation (seed 000 §2 "Menu"): Inicio, Dashboard, the module groups gated exactly as the
// seed's table, Lista de productos, Notificaciones. Pure data so the gating is unit-tested.

export type NavIcon =
  | 'home'
  | 'dashboard'
  | 'prices'
  | 'promotions'
  | 'assortment'
  | 'images'
  | 'reports'
  | 'productList'
  | 'notifications'
  | 'operations';

export interface NavLinkItem {
  kind: 'link';
  label: string;
  /** Absolute path, possibly with a query. */
  to: string;
  icon?: NavIcon;
  module: ModuleCode | null;
  /** Other /app/ path segments that also mark this item as current. */
  alsoActiveOn?: string[];
  /**
   * The screen (route name) when it is pivot-gated (PIVOT_GATED_SCREENS in the domain): shown only when
   * the selected pivot is in its app-config list, exactly as its home card.
   */
  pivotGated?: string;
  /** Shown to the organisation's administrators only (Operaciones). */
  adminOnly?: boolean;
}

/** What a pivot-gated item is checked against: the selected pivot and the app config. */
export interface MenuPivotGate {
  pivotId: number | null;
  appConfig: Pick<AppConfig, PivotListKey>;
  /** The user administers the organisation (admin-only items). */
  isAdmin?: boolean;
}

export interface NavGroup {
  kind: 'group';
  id: string;
  label: string;
  icon: NavIcon;
  items: NavLinkItem[];
}

export type NavEntry = NavLinkItem | NavGroup;

const link = (
  label: string,
  path: string,
  module: ModuleCode | null,
  extra: Partial<NavLinkItem> = {},
): NavLinkItem => ({
  kind: 'link',
  label,
  to: appPath(path),
  module,
  ...extra,
});

/** The whole menu, before gating. */
export const MENU: NavEntry[] = [
  link('Inicio', '', null, { icon: 'home' }),
  link('Dashboard', 'dashboard', null, { icon: 'dashboard' }),
  {
    kind: 'group',
    id: 'prices',
    label: 'Precios',
    icon: 'prices',
    items: [
      link('DPM por marca', 'dpm-by-brand', 'dpm'),
      link('DPM por clasificación', 'dpm-by-classification', 'dpm'),
      link('DPM por eCommerce', 'dpm-by-ecommerce', 'dpm'),
      // DPM family, for the pivots of BRAND_COMPARATOR_SELLERS only (as its home card).
      link('Comparador de precios de marca', 'brand-price-comparator', 'dpm', {
        pivotGated: 'brand-price-comparator',
      }),
      link('Precios por eCommerce', 'navigation-by-ecommerce', 'ecommerce_navigation'),
      // The per-e-commerce comparator is a view of the navigation screen.
      link('Comparador por eCommerce', 'navigation-by-ecommerce?view=comparator', 'ecommerce_navigation'),
    ],
  },
  {
    kind: 'group',
    id: 'promotions',
    label: 'Promociones',
    icon: 'promotions',
    items: [
      link('Por día', 'promotions-by-day', 'promotions'),
      link('Por duración', 'promotions-by-duration', 'promotions'),
      link('Por formato', 'promotions-by-type', 'promotions'),
      link('Por rango de precios', 'promotions-by-range', 'promotions'),
      link('Dispersión de precios', 'promotions-by-scatter-plot', 'promotions'),
    ],
  },
  {
    kind: 'group',
    id: 'assortment',
    label: 'Surtido',
    icon: 'assortment',
    items: [
      link('Cambio de disponibilidad', 'assortment-by-stock', 'assortment'),
      link('Por eCommerce', 'assortment-by-ecommerce', 'assortment'),
      link('Por marca', 'assortment-by-brand', 'assortment'),
    ],
  },
  {
    kind: 'group',
    id: 'images',
    label: 'Imágenes',
    icon: 'images',
    // for the pivots of IMAGE_VERIFICATION_SELLERS only (as its home card)
    items: [
      link('Verificación de imágenes', 'image-verification', 'image_verification', {
        pivotGated: 'image-verification',
      }),
    ],
  },
  {
    kind: 'group',
    id: 'reports',
    label: 'Reportes',
    icon: 'reports',
    items: [link('Reportes', 'reports', 'reports')],
  },
  link('Lista de productos', 'product-list', null, { icon: 'productList' }),
  link('Notificaciones', 'notifications', null, {
    icon: 'notifications',
    alsoActiveOn: ['notifications-subscriptions'],
  }),
  link('Operaciones', 'operations', null, { icon: 'operations', adminOnly: true }),
];

/**
 * The menu the user sees: items whose module is granted (and, for a pivot-gated item, whose list holds
 * the selected pivot: without `gate` such items are hidden); groups with no item left disappear.
 */
export function visibleMenu(
  modules: readonly ModuleCode[],
  gate?: MenuPivotGate,
  menu: NavEntry[] = MENU,
): NavEntry[] {
  const granted = (i: { module: ModuleCode | null; pivotGated?: string; adminOnly?: boolean }) =>
    (i.module === null || modules.includes(i.module)) &&
    (!i.adminOnly || gate?.isAdmin === true) &&
    (!i.pivotGated || (!!gate && screenShownForPivot(i.pivotGated, gate.pivotId, gate.appConfig)));
  const out: NavEntry[] = [];
  for (const entry of menu) {
    if (entry.kind === 'link') {
      if (granted(entry)) out.push(entry);
      continue;
    }
    const items = entry.items.filter(granted);
    // A group of one (Imágenes, Reportes) is a plain link named after the group.
    if (items.length === 1 && entry.items.length === 1)
      out.push({ ...items[0], label: entry.label, icon: entry.icon });
    else if (items.length > 0) out.push({ ...entry, items });
  }
  return out;
}

/** Whether a menu link is the current location (path and, when the link has one, its query). */
export function isActiveLink(item: NavLinkItem, pathname: string, search: string): boolean {
  const [path, query] = item.to.split('?');
  const norm = (p: string) => p.replace(/\/+$/, '') || '/';
  const current = norm(pathname);
  const sameQuery = (q: string | undefined) => {
    const params = new URLSearchParams(search);
    if (!q) return !params.has('view');
    for (const [k, v] of new URLSearchParams(q)) if (params.get(k) !== v) return false;
    return true;
  };
  if (norm(path) === current) return sameQuery(query);
  return (item.alsoActiveOn ?? []).some((p) => norm(appPath(p)) === current);
}
