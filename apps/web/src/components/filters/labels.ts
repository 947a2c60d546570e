import {
  DEFAULT_PRICE_RANGE_LABEL,
  MPI_RANGE_LABELS,
  type PriceMode,
  type PricingTypeOption,
  priceTypeLabel,
} from '@vigia/domain';

// Spanish labels of the filter panel's controls. The accessible names e2e tests use are these.

export const FILTER_TEXT = {
  panelTitle: 'Filtros',
  search: 'Buscar',
  clear: 'Limpiar',
  showFilters: 'Mostrar filtros',
  hideFilters: 'Ocultar filtros',
  classifications: 'Clasificaciones',
  categories: 'Categorías',
  brands: 'Marcas',
  ownBrands: 'Solo marcas propias',
  sellers: 'eCommerce',
  skus: 'SKUs',
  skusPlaceholder: 'Pega una columna desde tu planilla',
  metaSearch: 'Búsqueda',
  metaSearchPlaceholder: 'Nombre, marca, SKU o EAN',
  currency: 'Divisa',
  priceRange: DEFAULT_PRICE_RANGE_LABEL,
  minPrice: 'Precio mínimo',
  maxPrice: 'Precio máximo',
  typedMin: 'Mínimo',
  typedMax: 'Máximo',
  fromDate: 'Desde',
  toDate: 'Hasta',
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
