import type { AssortmentKind } from '../api/requests.js';

// Spanish texts of the assortment screens.

export const ASSORTMENT_SCREENS: Record<AssortmentKind, { path: string; description: string; noun: string }> =
  {
    brand: {
      path: 'assortment-by-brand',
      description:
        'Cuántos productos de cada marca publican los eCommerce seleccionados, su valor y su participación, frente al período anterior de igual duración.',
      noun: 'Marca',
    },
    ecommerce: {
      path: 'assortment-by-ecommerce',
      description:
        'Cuántos productos publica cada eCommerce, su valor total y promedio y su participación, frente al período anterior de igual duración.',
      noun: 'eCommerce',
    },
    stock: {
      path: 'assortment-by-stock',
      description:
        'Qué productos salieron de stock o volvieron en el período, dónde y cuándo, y cuáles siguen sin stock al cierre.',
      noun: 'eCommerce',
    },
  };

export const ASSORTMENT_TEXT = {
  columns: {
    products: 'Productos',
    productsVariation: 'Var.',
    totalValue: 'Valor total',
    totalVariation: 'Var.',
    averageValue: 'Valor promedio',
    averageVariation: 'Var.',
    participation: 'Participación',
    outOfStock: 'Sin stock al cierre',
    availability: 'Disponibilidad',
    wentOut: 'Salieron de stock',
    backIn: 'Volvieron a stock',
    previousWentOut: 'Salieron (período anterior)',
  },
  variationHelp: 'Variación frente al período anterior de igual duración',
  pivot: 'Pivote',
  ownBrand: 'Marca propia',
  download: 'Descargar XLSX',
  openProducts: 'Ver productos',
  period: (from: string, to: string, pf: string, pt: string) =>
    `Período ${from} a ${to}; comparado con ${pf} a ${pt}.`,
  empty: 'No hay productos publicados para estos filtros en el período.',
  emptyHint: 'Prueba con otro período, más eCommerce o menos clasificaciones y marcas.',
  error: 'No se pudo cargar el surtido.',
  chartTitle: 'Participación en productos',
  stockChartTitle: 'Cambios de disponibilidad en el período',
  /** The bars' key in words: the two series differ by texture as well as colour (issue 31 item 10). */
  stockChartKey: 'Barras rayadas: salieron de stock · barras lisas: volvieron a stock.',
  productsTitle: (name: string) => `Productos de ${name}`,
  productsEmpty: 'No hay productos en esta fila para el período.',
  eventDate: 'Fecha',
  outSince: 'Sin stock desde',
  backDate: 'Volvió',
  daysOut: 'Días sin stock',
  price: 'Precio',
  seller: 'eCommerce',
  brand: 'Marca',
  product: 'Producto',
  close: 'Cerrar',
};
