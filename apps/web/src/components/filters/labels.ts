import {
  DEFAULT_PRICE_RANGE_LABEL,
  FILTER_LABELS,
  MPI_RANGE_LABELS,
  type PriceMode,
  type PricingTypeOption,
  priceTypeLabel,
} from '@vigia/domain';

// Spanish labels of the filter panel's controls (a Filters field's name is the domain's FILTER_LABELS, the
// one validation messages use). The accessible names e2e tests use are these.

export const FILTER_TEXT = {
  panelTitle: 'Filtros',
  search: 'Buscar',
  clear: 'Limpiar',
  /** Said before the panel's title by its toggle ("Mostrar Filtros"), for screen readers only. */
  showFilters: 'Mostrar',
  hideFilters: 'Ocultar',
  classifications: FILTER_LABELS.classificationsIds,
  categories: FILTER_LABELS.categories,
  brands: FILTER_LABELS.brands,
  ownBrands: 'Solo marcas propias',
  sellers: FILTER_LABELS.sellersIds,
  skus: FILTER_LABELS.SKUs,
  skusPlaceholder: 'Pega una columna desde tu planilla',
  metaSearch: FILTER_LABELS.metaSearch,
  metaSearchPlaceholder: 'Nombre, marca, SKU o EAN',
  currency: FILTER_LABELS.currency,
  priceRange: DEFAULT_PRICE_RANGE_LABEL,
  minPrice: FILTER_LABELS.minPrice,
  maxPrice: FILTER_LABELS.maxPrice,
  typedMin: 'Mínimo',
  typedMax: 'Máximo',
  fromDate: FILTER_LABELS.from_date,
  toDate: FILTER_LABELS.to_date,
  priceType: 'Tipo de precio',
  priceIndex: 'Índice de precio',
  priceMode: 'Modo de precio',
  invalidSummary: 'Revisa los filtros marcados; no se hizo la búsqueda.',
  shareHint: 'Los filtros quedan en la dirección de la página: puedes compartirla o recargarla.',
  allSellers: 'Todos los seleccionados',
  noOptions: 'Sin opciones',
  loadingOptions: 'Cargando…',
} as const;

export const PRICE_TYPE_OPTION_LABELS: Record<PricingTypeOption, string> = {
  NORMAL: priceTypeLabel('NORMAL'),
  SALE: priceTypeLabel('SALE'),
  EXCLUSIVE: priceTypeLabel('EXCLUSIVE'),
  BYQUANTITY: priceTypeLabel('BYQUANTITY'),
  MATCH: 'Con match',
  STOCK_OUT: 'Sin stock',
};

export const PRICE_MODE_LABELS: Record<PriceMode, string> = {
  NORMAL_SALE_EXCLUSIVE_PRICE: 'Normal, oferta y exclusivo',
  NORMAL_SALE_PRICE: 'Normal y oferta',
  NORMAL_PRICE: 'Solo precio normal',
};

export { MPI_RANGE_LABELS };
