import { z } from 'zod';
import { idSchema, shortText } from './common.js';
import { calendarDate } from './dates.js';

// Contract of the dashboard and quick find (seed 001 §2 'dashboard', §7 "Dashboard and product detail").
// Every figure is defined in docs/metrics.md ("Dashboard").

const currencyField = z.string().trim().toUpperCase().length(3);

// ───────────────────────────── POST /v2/general/pre — the indicators ─────────────────────────────

export const generalPreBody = z.object({
  pivot_id: idSchema.optional(),
  sellers: z.array(idSchema).max(500).optional(),
  currency: currencyField.optional(),
  /** market-range width of the price index; default 5 */
  mpi_value: z.number().min(0).max(1000).optional(),
});
export type GeneralPreBody = z.infer<typeof generalPreBody>;

export const generalPreResponse = z.object({
  pivot_id: z.number(),
  sellers: z.array(z.number()),
  currency: z.string(),
  /** number of selected competitor sellers */
  competitors: z.number(),
  /** published listings of the pivot */
  monitored_products: z.number(),
  /** monitored products with ≥ 1 matched listing at a selected competitor */
  products_with_match: z.number(),
  /** latest observation of the pivot or a selected competitor (ISO instant) */
  last_update: z.string().nullable(),
  /** matched pivot products with a price on both sides, by price index */
  cheapest: z.number(),
  in_range: z.number(),
  more_expensive: z.number(),
});
export type GeneralPreResponse = z.infer<typeof generalPreResponse>;

// ───────────────────────────── POST /v2/dashboard/pre — the card groups ─────────────────────────────

export const DASHBOARD_DEFAULT_PERIOD_DAYS = 7;
export const DASHBOARD_MAX_PERIOD_DAYS = 366;

export const dashboardPreBody = z.object({
  pivot_id: idSchema.optional(),
  sellers: z.array(idSchema).max(500).optional(),
  currency: currencyField.optional(),
  /** period (yyyy-MM-dd, America/Santiago); default the 7 days ending today */
  from_date: calendarDate.optional(),
  to_date: calendarDate.optional(),
});
export type DashboardPreBody = z.infer<typeof dashboardPreBody>;

export const DASHBOARD_CARD_KEYS = [
  'availability',
  'new',
  'unpublished',
  'price_index',
  'deviation',
  'monetary_discount',
  'average_discount',
  'mode_discount',
  'in_discount',
] as const;
export type DashboardCardKey = (typeof DASHBOARD_CARD_KEYS)[number];

export const dashboardCardSchema = z.object({
  key: z.enum(DASHBOARD_CARD_KEYS),
  title: z.string(),
  /** 'percent' (0–100), 'count', 'index' (100 = market), 'money' (in `currency`) */
  unit: z.enum(['percent', 'count', 'index', 'money']),
  /** value in the period; null when there is nothing to measure */
  value: z.number().nullable(),
  /** value in the previous period of equal length */
  previous: z.number().nullable(),
  /** value − previous (points for percent/index, units otherwise); null when either is null */
  change: z.number().nullable(),
  /** the screen that explains the figure (DASHBOARD_CARD_LINKS) */
  link: z.string(),
  /**
   * Snapshot cards (not new / unpublished): the figure at the end of each day of the period (today: the
   * current state), rounded to 2 decimals — `value` is their average over the days that have one (the
   * mode card: the mode of the days' histograms added up; here each day's own mode).
   */
  days: z.array(z.object({ date: z.string(), value: z.number().nullable() })).optional(),
});
export type DashboardCard = z.infer<typeof dashboardCardSchema>;

export const DASHBOARD_GROUPS = [
  { key: 'assortment', title: 'Surtido', cards: ['availability', 'new', 'unpublished'] },
  { key: 'prices', title: 'Precios', cards: ['price_index', 'deviation'] },
  {
    key: 'promotions',
    title: 'Promociones',
    cards: ['monetary_discount', 'average_discount', 'mode_discount', 'in_discount'],
  },
] as const satisfies readonly { key: string; title: string; cards: readonly DashboardCardKey[] }[];

export const DASHBOARD_CARD_TITLES: Record<DashboardCardKey, string> = {
  availability: 'Disponibilidad',
  new: 'Nuevos',
  unpublished: 'Despublicados',
  price_index: 'Índice de precios',
  deviation: 'Desviación',
  monetary_discount: 'Descuento monetario',
  average_discount: 'Descuento promedio',
  mode_discount: 'Descuento moda',
  in_discount: 'En descuento',
};

/** Screen (route under /app/) that explains each card. */
export const DASHBOARD_CARD_LINKS: Record<DashboardCardKey, string> = {
  availability: '/app/assortment-by-stock',
  new: '/app/assortment-by-ecommerce',
  unpublished: '/app/assortment-by-stock',
  price_index: '/app/dpm-by-ecommerce',
  deviation: '/app/dpm-by-ecommerce',
  monetary_discount: '/app/promotions-by-type',
  average_discount: '/app/promotions-by-type',
  mode_discount: '/app/promotions-by-range',
  in_discount: '/app/promotions-by-day',
};

export const dashboardGroupSchema = z.object({
  key: z.enum(['assortment', 'prices', 'promotions']),
  title: z.string(),
  cards: z.array(dashboardCardSchema),
});
export type DashboardGroup = z.infer<typeof dashboardGroupSchema>;

export const dashboardPreResponse = z.object({
  pivot_id: z.number(),
  sellers: z.array(z.number()),
  currency: z.string(),
  from_date: z.string(),
  to_date: z.string(),
  previous_from_date: z.string(),
  previous_to_date: z.string(),
  /**
   * 'no_data': the previous period starts before monitoring began (`monitoring_since`), so no card has
   * a `previous` or a `change` — the screen says so instead of a number.
   */
  comparison: z.enum(['available', 'no_data']),
  /** first day (yyyy-MM-dd, Santiago) any listing of the scope was seen; null without listings */
  monitoring_since: z.string().nullable(),
  groups: z.array(dashboardGroupSchema),
});
export type DashboardPreResponse = z.infer<typeof dashboardPreResponse>;

// ───────────────────────────── POST /v2/quickFind ─────────────────────────────

export const quickFindBody = z.object({
  /** free text: name words, sku, ean or the seller's product id (case- and accent-insensitive) */
  query: shortText(200).pipe(z.string().min(2, 'al menos 2 caracteres')),
  pivot_id: idSchema.optional(),
  currency: currencyField.optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
export type QuickFindBody = z.infer<typeof quickFindBody>;

export const quickFindItemSchema = z.object({
  /** Vigía listing id: open product/{id} */
  id: z.number(),
  product_id: z.string(),
  seller_id: z.number(),
  name: z.string().nullable(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  brand: z.string().nullable(),
  image: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.string(),
});
export type QuickFindItem = z.infer<typeof quickFindItemSchema>;

/** Pivot listings matching the query, best first (exact sku/ean/id, then name prefix, then name). */
export const quickFindResponse = z.object({ items: z.array(quickFindItemSchema) });
export type QuickFindResponse = z.infer<typeof quickFindResponse>;
