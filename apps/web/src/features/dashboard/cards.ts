import {
  type DashboardCard,
  type DashboardCardKey,
  formatNumber,
  formatPercent,
  formatPrice,
  type ModuleCode,
} from '@vigia/domain';

// How each dashboard card reads: its figure by unit, its change against the previous period, whether
// a rise is good news, and the screen that explains it (seed 001 §2 dashboard 'list' module).

export interface CardMeta {
  /** What the figure means (tooltip). */
  help: string;
  /** The screen that explains it, relative to /app/, and the module it needs. */
  link: { path: string; label: string; module: ModuleCode };
  /** 'up': a rise is good for the user; 'down': a fall is; null: neither. */
  good: 'up' | 'down' | null;
}

export const CARD_META: Record<DashboardCardKey, CardMeta> = {
  availability: {
    help: 'Porcentaje de las publicaciones que están con stock, al cierre de cada día; promedio de los días del período.',
    link: { path: 'assortment-by-stock', label: 'Ver surtido por stock', module: 'assortment' },
    good: 'up',
  },
  new: {
    help: 'Publicaciones nuevas detectadas en el período en los eCommerce seleccionados.',
    link: { path: 'assortment-by-ecommerce', label: 'Ver surtido por eCommerce', module: 'assortment' },
    good: null,
  },
  unpublished: {
    help: 'Publicaciones que dejaron de estar publicadas en el período.',
    link: { path: 'assortment-by-brand', label: 'Ver surtido por marca', module: 'assortment' },
    good: 'down',
  },
  price_index: {
    help: 'Índice de precios promedio: 100 × mi precio / precio más bajo de la competencia (bajo 100 soy más barato), al cierre de cada día; promedio de los días del período.',
    link: { path: 'dpm-by-brand', label: 'Ver competitividad por marca', module: 'dpm' },
    good: 'down',
  },
  deviation: {
    help: 'Diferencia porcentual promedio entre mi precio y el de la competencia, al cierre de cada día; promedio de los días del período.',
    link: { path: 'dpm-by-classification', label: 'Ver competitividad por categoría', module: 'dpm' },
    good: 'down',
  },
  monetary_discount: {
    help: 'Descuento promedio en dinero de los productos en promoción, al cierre de cada día; promedio de los días del período.',
    link: { path: 'promotions-by-type', label: 'Ver promociones por tipo', module: 'promotions' },
    good: null,
  },
  average_discount: {
    help: 'Descuento porcentual promedio de los productos en promoción, al cierre de cada día; promedio de los días del período.',
    link: { path: 'promotions-by-range', label: 'Ver promociones por rango', module: 'promotions' },
    good: null,
  },
  mode_discount: {
    help: 'Descuento más frecuente (en tramos de 5 puntos) de los productos en promoción, contando cada producto cada día del período.',
    link: {
      path: 'promotions-by-scatter-plot',
      label: 'Ver dispersión de promociones',
      module: 'promotions',
    },
    good: null,
  },
  in_discount: {
    help: 'Porcentaje de las publicaciones en promoción al cierre de cada día; promedio de los días del período.',
    link: { path: 'promotions-by-day', label: 'Ver promociones por día', module: 'promotions' },
    good: null,
  },
};

/** The card's figure in its unit. */
export function formatCardValue(card: Pick<DashboardCard, 'unit' | 'value'>, currency: string): string {
  if (card.value === null) return '—';
  switch (card.unit) {
    case 'percent':
      return formatPercent(card.value);
    case 'index':
      return formatNumber(card.value, 1);
    case 'money':
      return formatPrice(card.value, currency);
    default:
      return formatNumber(card.value);
  }
}

export type ChangeTone = 'good' | 'bad' | 'neutral';

export interface CardChange {
  text: string;
  direction: 'up' | 'down' | 'none';
  tone: ChangeTone;
}

/** The change against the previous period: signed, in points for percentages and indices. */
export function formatCardChange(
  card: Pick<DashboardCard, 'unit' | 'change' | 'key'>,
  currency: string,
): CardChange | null {
  if (card.change === null) return null;
  // Rounded to what is shown first: a change that shows as 0 has no sign and no direction ("-0,0 pts").
  const decimals = card.unit === 'percent' || card.unit === 'index' ? 1 : card.unit === 'money' ? 2 : 0;
  const c = Math.round(card.change * 10 ** decimals) / 10 ** decimals || 0;
  const direction = c > 0 ? 'up' : c < 0 ? 'down' : 'none';
  const sign = c > 0 ? '+' : c < 0 ? '-' : '';
  const abs = Math.abs(c);
  let text: string;
  switch (card.unit) {
    case 'percent':
    case 'index':
      text = `${sign}${formatNumber(abs, 1)} pts`;
      break;
    case 'money':
      text = `${sign}${formatPrice(abs, currency)}`;
      break;
    default:
      text = `${sign}${formatNumber(abs)}`;
  }
  const good = CARD_META[card.key].good;
  const tone: ChangeTone =
    direction === 'none' || good === null ? 'neutral' : direction === good ? 'good' : 'bad';
  return { text, direction, tone };
}
