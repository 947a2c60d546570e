import type { DpmGroupKind } from '../api/keys.js';

// Spanish texts of the pricing screens (the seed's own texts come from @vigia/domain).

export const PRICING_TEXT = {
  kpis: {
    total: 'Total',
    match: 'Con match',
    normal: 'Normal',
    sale: 'Oferta',
    exclusive: 'Oferta exclusiva',
    publishedMatch: 'Publicados con match',
    split: 'Posición de precios',
  },
  kpiHelp: {
    total: 'Productos de tu pivote que cumplen los filtros.',
    match: 'Productos con al menos un competidor seleccionado que vende el mismo producto.',
    normal: 'Productos cuyo precio actual es el normal.',
    sale: 'Productos con precio de oferta.',
    exclusive: 'Productos con precio exclusivo (tarjeta).',
    publishedMatch: 'Productos con match y un precio comparable hoy: son los que tienen índice de precio.',
  },
  split: { cheapest: 'Más barato', in_range: 'En rango', dearer: 'Más caro' },
  ofTotal: (pct: string) => `${pct} del total`,
  averageIndex: (v: string) => `Índice promedio ${v}`,
  /** Which prices the figures use (the period rule, issue 31 item 1). */
  pricesAt: (day: string | null) =>
    day
      ? `Precios al cierre del ${day} (Hasta): cada producto visto en el período, con el precio, el formato y el stock que tenía ese día.`
      : 'Precios actuales: la última captura de cada eCommerce. Con un período que termina antes de hoy (Hasta), las cifras usan los precios al cierre de ese día.',
  withoutIndex: (n: string) => `${n} sin índice`,
  empty: 'No hay productos para estos filtros.',
  emptyHint:
    'Prueba quitando algún filtro, ampliando el rango de precios o eligiendo más competidores en la barra superior.',
  emptyGroups: 'No hay grupos con productos para estos filtros.',
  preparing: 'Preparando tus filtros…',
  columns: {
    product: 'Producto',
    myPrice: 'Mi precio',
    lowest: 'Precio más bajo',
    difference: 'Diferencia',
    index: 'Índice',
    ranking: 'Ranking',
    products: 'Productos',
    withMatch: 'Con match',
    split: 'Más barato / En rango / Más caro',
    seller: 'eCommerce',
    common: 'En común',
    iWin: 'Más barato yo',
    tie: 'Empate',
    iLose: 'Más caro yo',
    averageDifference: 'Diferencia promedio',
    averageDifferenceShort: 'Dif. promedio',
    headToHead: 'Gano / Empate / Pierdo',
    averageIndex: 'Índice promedio',
    averageIndexShort: 'Índice prom.',
  },
  expand: (name: string) => `Ver detalle de ${name}`,
  collapse: (name: string) => `Ocultar detalle de ${name}`,
  showProducts: 'Ver productos',
  detailColumn: 'Detalle',
  hideProducts: 'Ocultar productos',
  productsOf: (name: string) => `Productos de ${name}`,
  rowsPerPage: 'Filas por página',
  sku: 'SKU',
} as const;

export const DPM_SCREENS: Record<
  DpmGroupKind,
  { path: string; description: string; groupLabel: string; noun: string }
> = {
  brand: {
    path: 'dpm-by-brand',
    description:
      'Cómo están tus precios frente a la competencia en cada marca: productos con match y cuántos están más baratos, en rango o más caros.',
    groupLabel: 'Marca',
    noun: 'marcas',
  },
  classification: {
    path: 'dpm-by-classification',
    description:
      'Tu competitividad de precios en cada clasificación de tu catálogo. Abre una clasificación para ver sus subclasificaciones y productos.',
    groupLabel: 'Clasificación',
    noun: 'clasificaciones',
  },
  seller: {
    path: 'dpm-by-ecommerce',
    description:
      'Tu pivote frente a cada competidor, uno a uno: productos en común, dónde eres más barato y dónde más caro.',
    groupLabel: 'eCommerce',
    noun: 'eCommerce',
  },
};

export const NAVIGATION_TEXT = {
  description:
    'Tus productos con el precio de cada competidor: el más bajo resaltado, el más alto en rojo y los precios históricos en gris.',
  tabs: { products: 'Productos', comparator: 'Comparador' },
  competitor: 'Competidor',
  pickCompetitor: 'Elige un competidor para comparar tus precios uno a uno.',
  theirPrice: 'Su precio',
  result: 'Resultado',
  win: 'Gano',
  lose: 'Pierdo',
  tie: 'Empate',
  noComparison: 'Sin comparación',
  summaryTitle: 'Dónde gano y dónde pierdo',
  summaryOf: (name: string) => `Frente a ${name}`,
  summarySentence: (win: string, lose: string, tie: string, common: string) =>
    `De ${common} productos en común, soy más barato en ${win}, más caro en ${lose} y empato en ${tie}.`,
  allCompetitors: 'Todos los competidores',
  noCompetitors:
    'No tienes competidores seleccionados. Elígelos en la barra superior o en el filtro eCommerce.',
} as const;
