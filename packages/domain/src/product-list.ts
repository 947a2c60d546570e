import { z } from 'zod';
import { idSchema, shortText } from './common.js';
import { PRICE_TYPES, PRODUCT_LIST_PAGE_SIZE } from './constants.js';
import { categoryRefSchema } from './detail.js';
import { MESSAGES } from './messages.js';

// Contract of the product list (seed 001 §2 'product-list', §3 "Product list item", §4 pagination).
// The seed does not show the call; Vigía's is POST /v1/list-products/ (docs/metrics.md "Product list").

export const PRODUCT_LIST_MAX_PAGE_SIZE = 100;
export const PRODUCT_LIST_SORTS = ['name', 'price', 'updated', 'seller'] as const;

export const productListBody = z.object({
  pivot_id: idSchema.optional(),
  /** sellers whose listings are listed; none = the pivot only. Outside the license → 403. */
  sellers: z.array(idSchema).max(500).optional(),
  currency: z.string().trim().toUpperCase().length(3).optional(),
  /** 1-based */
  page: z.number().int().min(1).max(100_000).default(1),
  page_size: z.number().int().min(1).max(PRODUCT_LIST_MAX_PAGE_SIZE).default(PRODUCT_LIST_PAGE_SIZE),
  /** free text on name, sku, ean and the seller's product id (case- and accent-insensitive) */
  search: shortText(200).optional(),
  /** v2_classification ids; a listing under any of them (subtrees included) */
  classificationsIds: z.array(idSchema).max(500).optional(),
  /** brand ids */
  brands: z.array(idSchema).max(500).optional(),
  /** true: only listings with ≥ 1 matched listing at another seller; false: only without */
  match: z.boolean().optional(),
  /** true: only out of stock; false: only in stock */
  stockOut: z.boolean().optional(),
  /** default: published listings only */
  include_unpublished: z.boolean().optional(),
  sort: z.enum(PRODUCT_LIST_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type ProductListBody = z.input<typeof productListBody>;

export const productListItemSchema = z.object({
  /** Vigía listing id: product/{id} */
  id: z.number(),
  ean: z.string().nullable(),
  sku: z.string().nullable(),
  /** the seller's own id (qmi-detail productId) */
  product_id: z.string(),
  seller_id: z.number(),
  seller_name: z.string(),
  brand: z.string().nullable(),
  url: z.string().nullable(),
  name: z.string().nullable(),
  /** effective price in `currency` */
  price: z.number().nullable(),
  normal_price: z.number().nullable(),
  price_type: z.enum(PRICE_TYPES),
  stock_out: z.boolean(),
  /** the seller's breadcrumb, root first */
  categories: z.array(categoryRefSchema),
  /** ISO instant of the last effective-price change (or first observation) */
  updated: z.string(),
  /** ISO instant the listing was last seen */
  extracted: z.string(),
  currency: z.string(),
  image: z.string().nullable(),
  /** URL of the seller's category page (product listing page) holding it, when known */
  plp: z.string().nullable(),
  observation: z.object({
    tag: z.enum(['stock_out', 'promotion', 'new', 'price_up', 'price_down', 'unpublished']).nullable(),
    text: z.string().nullable(),
  }),
  /** Spanish weekday of `updated` in America/Santiago ('lunes' … 'domingo') */
  day_name_spa: z.string(),
  /** whole weeks the current promotion has lasted (0 in its first week); null when not on promotion */
  sale_duration_in_weeks: z.number().nullable(),
  /** listings of other sellers in its live match group */
  matches: z.number(),
  published: z.boolean(),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

export const productListResponse = z.object({
  items: z.array(productListItemSchema),
  totalItems: z.number(),
  page: z.number(),
  page_size: z.number(),
  listTitle: z.string(),
});
export type ProductListResponse = z.infer<typeof productListResponse>;

export const DEFAULT_PRODUCT_LIST_TITLE = MESSAGES.productListTitle;

/** Observation texts of the product list (Spanish). */
export const PRODUCT_LIST_OBSERVATIONS = {
  stock_out: 'Sin stock',
  promotion: 'En promoción',
  new: 'Nuevo',
  price_up: 'Subió de precio',
  price_down: 'Bajó de precio',
  unpublished: 'Despublicado',
} as const;
