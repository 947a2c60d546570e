import { type AppConfig, type ModuleCode, type PivotListKey, screenShownForPivot } from '@vigia/domain';
import { screenTitle } from '../../lib/screen-titles.js';

// Home cards (seed 000 §2, §6): one per module view, named by its route. A card is enabled when the
// role has its module; a disabled card links to the application root and reads 'En construcción'.
// brand-price-comparator is shown only for the configured pivots (seed: 5; BRAND_COMPARATOR_SELLERS); the
// seed's card was always disabled, issue 14 made the screen real: enabled like any card, by its module (dpm);
// image-verification is shown only for the configured pivots (seed: 116, 125).

export type HomeCardGroup = 'prices' | 'promotions' | 'assortment' | 'images' | 'reports';

export type HomeCardIcon =
  | 'brand'
  | 'classification'
  | 'ecommerce'
  | 'navigation'
  | 'comparator'
  | 'reports'
  | 'calendar'
  | 'timer'
  | 'tag'
  | 'range'
  | 'scatter'
  | 'stock'
  | 'store'
  | 'label'
  | 'image';

export interface HomeCardDef {
  /** Route name = route path under /app/ (seed). */
  name: string;
  group: HomeCardGroup;
  module: ModuleCode;
  description: string;
  icon: HomeCardIcon;
}

export interface HomeCard extends HomeCardDef {
  title: string;
  enabled: boolean;
}

export const HOME_GROUP_LABELS: Record<HomeCardGroup, string> = {
  prices: 'Precios',
  promotions: 'Promociones',
  assortment: 'Surtido',
  images: 'Imágenes',
  reports: 'Reportes',
};

export const HOME_GROUP_ORDER: HomeCardGroup[] = ['prices', 'promotions', 'assortment', 'images', 'reports'];

/** The seed's cards, in its order. */
export const HOME_CARDS: HomeCardDef[] = [
  {
    name: 'dpm-by-brand',
    group: 'prices',
    module: 'dpm',
    icon: 'brand',
    description: 'Índice de precios y posición frente a la competencia, marca por marca.',
  },
  {
    name: 'dpm-by-ecommerce',
    group: 'prices',
    module: 'dpm',
    icon: 'ecommerce',
    description: 'Tu catálogo cara a cara con cada competidor.',
  },
  {
    name: 'dpm-by-classification',
    group: 'prices',
    module: 'dpm',
    icon: 'classification',
    description: 'Dónde estás más caro o más barato en cada categoría de tu árbol.',
  },
  {
    name: 'navigation-by-ecommerce',
    group: 'prices',
    module: 'ecommerce_navigation',
    icon: 'navigation',
    description: 'Tus productos y el precio de cada competidor, lado a lado.',
  },
  {
    name: 'brand-price-comparator',
    group: 'prices',
    module: 'dpm',
    icon: 'comparator',
    description: 'Los precios de tus marcas en todos los eCommerce.',
  },
  {
    name: 'reports',
    group: 'reports',
    module: 'reports',
    icon: 'reports',
    description: 'Descarga reportes XLSX o CSV y recíbelos por correo.',
  },
  {
    name: 'promotions-by-day',
    group: 'promotions',
    module: 'promotions',
    icon: 'calendar',
    description: 'Porcentaje de productos en promoción, semana a semana.',
  },
  {
    name: 'promotions-by-duration',
    group: 'promotions',
    module: 'promotions',
    icon: 'timer',
    description: 'Cuántos días duran las promociones de cada competidor.',
  },
  {
    name: 'promotions-by-type',
    group: 'promotions',
    module: 'promotions',
    icon: 'tag',
    description: 'Oferta, oferta exclusiva y por cantidad, por eCommerce.',
  },
  {
    name: 'promotions-by-range',
    group: 'promotions',
    module: 'promotions',
    icon: 'range',
    description: 'Cómo se reparten las promociones en cuatro rangos de precio.',
  },
  {
    name: 'promotions-by-scatter-plot',
    group: 'promotions',
    module: 'promotions',
    icon: 'scatter',
    description: 'Precio frente a cantidad de productos de cada eCommerce.',
  },
  {
    name: 'assortment-by-stock',
    group: 'assortment',
    module: 'assortment',
    icon: 'stock',
    description: 'Productos que salieron o volvieron a estar disponibles.',
  },
  {
    name: 'assortment-by-ecommerce',
    group: 'assortment',
    module: 'assortment',
    icon: 'store',
    description: 'Productos, valor y participación de cada competidor.',
  },
  {
    name: 'assortment-by-brand',
    group: 'assortment',
    module: 'assortment',
    icon: 'label',
    description: 'Qué marcas lleva cada eCommerce y cómo varían.',
  },
  {
    name: 'image-verification',
    group: 'images',
    module: 'image_verification',
    icon: 'image',
    description: 'Compara las imágenes publicadas con tus imágenes de referencia.',
  },
];

/** The cards the user sees, each with its enabled flag. */
export function visibleHomeCards(
  modules: readonly ModuleCode[],
  pivotId: number | null,
  appConfig: Pick<AppConfig, PivotListKey>,
): HomeCard[] {
  const cards: HomeCard[] = [];
  for (const def of HOME_CARDS) {
    const enabled = modules.includes(def.module);
    // the same rule as the menu item (nav-model.ts): PIVOT_GATED_SCREENS
    if (!screenShownForPivot(def.name, pivotId, appConfig)) continue;
    cards.push({ ...def, title: screenTitle(def.name), enabled });
  }
  return cards;
}
