import { z } from 'zod';
import { idSchema, shortText } from './common.js';
import { PRICE_TYPES } from './constants.js';
import { calendarDate } from './dates.js';

// Contract of the product detail endpoints (seed 001 §3 "Product match info", "Price-history result",
// §7 "Dashboard and product detail"). Server routes, the web client and the tests import these.
//
// Identifiers, everywhere in these answers:
//   `_id` / `id`   = Vigía's listing id (products.id) — the product/{id} route parameter;
//   `product_id`   = in ANSWERS, the seller's own id of the listing (text); qmi-detail is opened with
//                    (productId = that text, sellerId). In the REQUESTS of /v1/new-detail/,
//                    /v1/new-detail/info and /v1/historical/complete/, `product_id` is the Vigía listing id.
// Prices are in the requested currency (converted through CLP with fx_rates, latest rate on or before
// the day); null when the listing has no price or no rate exists.

const currencyField = z.string().trim().toUpperCase().length(3);
const sellersField = z.array(idSchema).max(500);

/** Arrow of a price variation (seed 001 §9). */
export const VARIATION_ARROWS = ['up', 'down', 'none'] as const;
export type VariationArrow = (typeof VARIATION_ARROWS)[number];

export const priceVariationSchema = z.object({
  /** 100 × (1 − current / previous); null when either is missing or previous is 0. */
  variation: z.number().nullable(),
  arrow: z.enum(VARIATION_ARROWS),
  /** signed text with es-CL decimals: one decimal when |v| > 10, else three ('+12,5%', '-3,333%', '0,000%'). */
  text: z.string(),
});
export type PriceVariation = z.infer<typeof priceVariationSchema>;

export const AVAILABILITY_TEXTS = ['Disponible', 'No Disponible', 'No disponible'] as const;
export type AvailabilityText = (typeof AVAILABILITY_TEXTS)[number];

export const categoryRefSchema = z.object({ name: z.string(), url: z.string().nullable() });
export type CategoryRef = z.infer<typeof categoryRefSchema>;

export const sellerRefSchema = z.object({ id: z.number(), name: z.string(), color: z.string() });

// ───────────────────────────── POST /v1/new-detail/ ─────────────────────────────

export const newDetailBody = z.object({
  currency: currencyField.optional(),
  pivot_id: idSchema.optional(),
  /** Vigía listing id (products.id) of the product whose detail is shown. */
  product_id: idSchema,
  /** competitor sellers; none = every licensed seller. Any seller outside the license → 403. */
  sellers: sellersField.optional(),
  /** accepted for compatibility; no effect on this answer. */
  non_linear: z.boolean().optional(),
});
export type NewDetailBody = z.infer<typeof newDetailBody>;

/** One listing of the match group at one seller (the 'Competidores' table row; the pivot is one of them). */
export const qmItemSchema = z.object({
  id: z.number(),
  /** the seller's own id of the listing (opens qmi-detail with seller_id) */
  product_id: z.string(),
  seller_id: z.number(),
  seller_name: z.string(),
  seller_color: z.string(),
  is_pivot: z.boolean(),
  /** match of this listing to the group: 'confirmed' (EAN or a person) or 'suggested' (awaiting review) */
  match_status: z.enum(['confirmed', 'suggested']).nullable(),
  name: z.string().nullable(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  url: z.string().nullable(),
  thumbnail: z.string().nullable(),
  /** the seller's breadcrumb, root first */
  categories: z.array(categoryRefSchema),
  normal_price: z.number().nullable(),
  sale_price: z.number().nullable(),
  exclusive_price: z.number().nullable(),
  price_type: z.enum(PRICE_TYPES),
  /** effective price now (lowest of normal, sale, exclusive present) */
  min_price: z.number().nullable(),
  /** effective price before its last change */
  previous_price: z.number().nullable(),
  /** min_price − the pivot's min_price (same currency); null when either is missing */
  difference: z.number().nullable(),
  /** 100 × (min_price − pivot min_price) / pivot min_price */
  difference_percent: z.number().nullable(),
  stock_out: z.boolean(),
  /** ISO instant (docs/architecture.md "Last seen") */
  last_seen: z.string(),
  published: z.boolean(),
  /** seed rule, evaluated on today in the organisation's market zone */
  availability: z.enum(AVAILABILITY_TEXTS),
  /** shown grey: out of stock or last seen before today (Santiago) */
  historical: z.boolean(),
  /** 1-based position among qm_items sorted by min_price ascending (no price → null) */
  position: z.number().nullable(),
  /** 'cheapest' (accent), 'dearest' (red) or 'none' (white) */
  highlight: z.enum(['cheapest', 'dearest', 'none']),
});
export type QmItem = z.infer<typeof qmItemSchema>;

export const priceExtremeSchema = z.object({
  seller_id: z.number(),
  seller_name: z.string(),
  price: z.number(),
});

export const productMatchInfoSchema = z.object({
  _id: z.number(),
  /** raw name; null → show NO_NAME_PRODUCT ('Producto registrado sin nombre') — see productDisplayName */
  name: z.string().nullable(),
  image: z.string().nullable(),
  seller_id: z.number(),
  seller_name: z.string(),
  product_id: z.string(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  brand: z.string().nullable(),
  url: z.string().nullable(),
  currency: z.string(),
  /** sorted by min_price ascending (no price last); the pivot listing is included */
  qm_items: z.array(qmItemSchema),
  // enrichment (seed 001 §3)
  pivotPriceVariation: priceVariationSchema,
  min_price: z.number().nullable(),
  pivotPreviousPrice: z.number().nullable(),
  /** 1-based index of the pivot listing in qm_items sorted by min_price (null when it has no price) */
  pivotQmItemPosition: z.number().nullable(),
  qmitemsQuantity: z.number(),
  // pricing item derivations (seed 001 §3 "Pricing item")
  cheaper: priceExtremeSchema.nullable(),
  expensive: priceExtremeSchema.nullable(),
  cheaper_price: z.number().nullable(),
  expensive_price: z.number().nullable(),
  /** 1 ('Más bajo') … 9 ('Más alto'); null when the pivot has no price */
  ranking_icon: z.number().int().min(1).max(9).nullable(),
});
export type ProductMatchInfo = z.infer<typeof productMatchInfoSchema>;

/** A product outside the license or unknown: no `_id`, so the page shows its not-found view. */
export const detailNotFoundSchema = z.object({ detail: z.string() });
export type DetailNotFound = z.infer<typeof detailNotFoundSchema>;

export const newDetailResponse = z.union([productMatchInfoSchema, detailNotFoundSchema]);
export type NewDetailResponse = z.infer<typeof newDetailResponse>;

/** Seed 001 §4: a product is 'not found' when the response has no _id. */
export function isFound<T extends object>(
  r: T | DetailNotFound | null | undefined,
): r is T & { _id: number } {
  return !!r && typeof (r as { _id?: unknown })._id === 'number';
}

// ───────────────────────────── POST /v1/new-detail/info ─────────────────────────────

export const newDetailInfoBody = z.object({
  product_id: idSchema,
  currency: currencyField.optional(),
  pivot_id: idSchema.optional(),
});
export type NewDetailInfoBody = z.infer<typeof newDetailInfoBody>;

/** The detail panel of one listing: descriptive data, current price and match group. */
export const productInfoSchema = z.object({
  _id: z.number(),
  product_id: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  brand: z.string().nullable(),
  url: z.string().nullable(),
  seller: sellerRefSchema,
  categories: z.array(categoryRefSchema),
  /** categories joined with ' > ' */
  breadcrumb: z.string(),
  /** v2_classification names, root first */
  classification: z.array(z.string()),
  first_seen: z.string(),
  last_seen: z.string(),
  published: z.boolean(),
  currency: z.string(),
  normal_price: z.number().nullable(),
  sale_price: z.number().nullable(),
  exclusive_price: z.number().nullable(),
  price_type: z.enum(PRICE_TYPES),
  min_price: z.number().nullable(),
  previous_price: z.number().nullable(),
  variation: priceVariationSchema,
  stock_out: z.boolean(),
  availability: z.enum(AVAILABILITY_TEXTS),
  /** live match group; members counts every seller's listing in it, this one included */
  match: z.object({ group_id: z.number(), status: z.string(), members: z.number() }).nullable(),
});
export type ProductInfo = z.infer<typeof productInfoSchema>;

export const newDetailInfoResponse = z.union([productInfoSchema, detailNotFoundSchema]);
export type NewDetailInfoResponse = z.infer<typeof newDetailInfoResponse>;

// ───────────────────────────── POST /v1/historical/complete/ ─────────────────────────────

/** Longest history period one request may ask for (days, inclusive). */
export const MAX_HISTORY_DAYS = 731;

export const historicalCompleteBody = z.object({
  currency: currencyField.optional(),
  /** yyyy-MM-dd (longer strings are cut to 10 characters); default one month before to_date */
  from_date: calendarDate.optional(),
  /** yyyy-MM-dd; default today in the organisation's market zone */
  to_date: calendarDate.optional(),
  /** Vigía listing id of the product (the pivot listing of product/{id}) */
  product_id: idSchema,
  /** the listing's seller; when given it must be the listing's seller */
  seller_id: idSchema.optional(),
  sellers: sellersField.optional(),
  non_linear: z.boolean().optional(),
});
export type HistoricalCompleteBody = z.infer<typeof historicalCompleteBody>;

export const historyPointSchema = z.object({
  /** calendar day of the organisation's market zone, yyyy-MM-dd */
  date: z.string(),
  /** effective price at the end of that day (or now, for today), in the requested currency */
  price: z.number().nullable(),
  price_type: z.enum(PRICE_TYPES),
  stock_out: z.boolean(),
  /** 1-based rank of this seller's price that day among the series' sellers with a price */
  position: z.number().nullable(),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;

export const historySellerSchema = sellerRefSchema.extend({
  is_pivot: z.boolean(),
  prices: z.array(historyPointSchema),
});
export type HistorySeller = z.infer<typeof historySellerSchema>;

export const historicalCompleteResponse = z.object({
  from_date: z.string(),
  to_date: z.string(),
  currency: z.string(),
  /** pivot first, then competitors by name; empty when the product is unknown or outside the license */
  sellers: z.array(historySellerSchema),
});
export type HistoricalCompleteResponse = z.infer<typeof historicalCompleteResponse>;

// ───────────────────────────── POST /v2/detail/qmi ─────────────────────────────

export const qmiBody = z.object({
  currency: currencyField.optional(),
  /** the seller's own id of the listing (qm_items[].product_id, product list item product_id) */
  productId: z.union([shortText(200).min(1), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]),
  sellerId: idSchema,
});
export type QmiBody = z.infer<typeof qmiBody>;

export const qmiResponse = z.union([productInfoSchema, detailNotFoundSchema]);
export type QmiResponse = z.infer<typeof qmiResponse>;

// ───────────────────────────── POST /v2/detail/qmi/history ─────────────────────────────

export const HISTORY_DOWNLOAD_FORMATS = ['xlsx', 'csv'] as const;

export const qmiHistoryBody = z.object({
  productId: z.union([shortText(200).min(1), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]),
  sellerId: idSchema,
  currency: currencyField.optional(),
  fromDate: calendarDate.optional(),
  toDate: calendarDate.optional(),
  /** with downloadablePipeline: answer only the file */
  justPipeline: z.boolean().optional(),
  /** true → the answer is a file (XLSX by default, CSV with format 'csv'), not JSON */
  downloadablePipeline: z.boolean().optional(),
  format: z.enum(HISTORY_DOWNLOAD_FORMATS).optional(),
});
export type QmiHistoryBody = z.infer<typeof qmiHistoryBody>;

export const qmiHistoryPointSchema = z.object({
  date: z.string(),
  price: z.number().nullable(),
  normal_price: z.number().nullable(),
  sale_price: z.number().nullable(),
  exclusive_price: z.number().nullable(),
  price_type: z.enum(PRICE_TYPES),
  stock_out: z.boolean(),
});
export type QmiHistoryPoint = z.infer<typeof qmiHistoryPointSchema>;

export const qmiHistoryResponse = z.object({
  _id: z.number().optional(),
  product_id: z.string(),
  seller_id: z.number(),
  currency: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  /** one point per day the listing existed in the period; empty when unknown / outside the license */
  prices: z.array(qmiHistoryPointSchema),
});
export type QmiHistoryResponse = z.infer<typeof qmiHistoryResponse>;

/** Column headers of the downloadable history (XLSX and CSV). */
export const QMI_HISTORY_COLUMNS = [
  'Fecha',
  'eCommerce',
  'ID producto',
  'Nombre',
  'Precio',
  'Precio normal',
  'Precio oferta',
  'Precio exclusivo',
  'Tipo de precio',
  'Disponibilidad',
  'Divisa',
] as const;
