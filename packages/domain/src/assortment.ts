import { z } from 'zod';
import { DPM_DEFAULTS } from './constants.js';
import { FILTER_LABELS, filtersObject, withFilterChecks } from './filters.js';

// Contract of the assortment endpoints (seed 001 §3 "Assortment result", §5, §7 "Assortment") and of the
// brand price comparator (issue 14; the seed shows only its card). Formulas: docs/metrics.md "Assortment"
// and "Brand price comparator".
//
// Endpoints (module header `assortment`; scoped to the caller's license and pivot; 403 outside it):
//   POST /v1/assortment/brand               assortmentBody         → assortmentResult (brands)
//   POST /v1/assortment/ecommerce           assortmentBody         → assortmentResult (sellers)
//   POST /v1/assortment/stock               assortmentBody         → assortmentResult (sellers, stock figures)
//   POST /v1/assortment/brand/products      assortmentProductsBody → assortmentProductsResponse
//   POST /v1/assortment/ecommerce/products  assortmentProductsBody → assortmentProductsResponse
//   POST /v1/assortment/stock/products      assortmentStockProductsBody → assortmentProductsResponse
// Module dpm:
//   GET  /v2/navigation/dpm/brand-comparator  brandComparatorQuery → brandComparatorResponse

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Summary rows (seed 001 §3): first in the list of brands / of sellers. */
export const ASSORTMENT_ALL_BRANDS = 'Todas';
export const ASSORTMENT_ALL_SELLERS = 'Todos';
/** Name of the brand group of listings without a brand. */
export const NO_BRAND_NAME = 'Sin marca';
/** Period: default the 30 days ending today (America/Santiago); at most 366 days. */
export const ASSORTMENT_DEFAULT_PERIOD_DAYS = 30;
export const ASSORTMENT_MAX_PERIOD_DAYS = 366;
export const ASSORTMENT_PAGE_SIZE = 25;
export const ASSORTMENT_MAX_PAGE_SIZE = 200;

/**
 * Filters that assortment does not apply (its figures come from the daily roll-up, which keeps listings
 * by seller, classification and brand only): sending one is a 400 naming it, never silently ignored.
 */
export const ASSORTMENT_UNSUPPORTED_FILTERS = [
  'categories',
  'SKUs',
  'metaSearch',
  'minSetting',
  'maxSetting',
  'minPrice',
  'maxPrice',
  'price_type',
  'mpi_value',
  'mpi_range',
  'stockOut',
  'match',
  'priceMode',
] as const;

const labelOf = (field: string) => (FILTER_LABELS as Record<string, string>)[field] ?? field;

/** Required fields of assortment (seed 001 §5): currency ('Divisa') and sellers ('eCommerce'). */
function assortmentChecks(f: z.output<typeof filtersObject>, ctx: z.RefinementCtx) {
  if (!f.currency)
    ctx.addIssue({ code: 'custom', path: ['currency'], message: `${labelOf('currency')}: campo requerido` });
  if (!f.sellers?.length && !f.sellersIds?.length)
    ctx.addIssue({ code: 'custom', path: ['sellers'], message: `${labelOf('sellers')}: campo requerido` });
  for (const field of ASSORTMENT_UNSUPPORTED_FILTERS) {
    const v = (f as Record<string, unknown>)[field];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0))
      ctx.addIssue({ code: 'custom', path: [field], message: 'no se aplica a Surtido' });
  }
}

/** The Filters of an assortment call (payload of the three POSTs). */
export const assortmentBody = withFilterChecks(filtersObject).superRefine(assortmentChecks);
export type AssortmentBody = z.output<typeof assortmentBody>;
export type AssortmentBodyInput = z.input<typeof assortmentBody>;

export const ASSORTMENT_STOCK_EVENTS = ['went_out', 'back_in', 'out'] as const;
export type AssortmentStockEvent = (typeof ASSORTMENT_STOCK_EVENTS)[number];
export const ASSORTMENT_STOCK_LABELS: Record<AssortmentStockEvent, string> = {
  went_out: 'Salieron de stock',
  back_in: 'Volvieron a stock',
  out: 'Sin stock al cierre',
};

export const ASSORTMENT_PRODUCT_SORT = ['name', 'price', 'seller', 'brand', 'date'] as const;
export type AssortmentProductSort = (typeof ASSORTMENT_PRODUCT_SORT)[number];

const sellerIdParam = z.preprocess(blank, z.coerce.number().int().positive().max(2_147_483_647).optional());
const productsExtension = {
  /** brand name (seed 001 §7); 'Sin marca' = listings without a brand; absent = every brand ('Todas') */
  brand: z.preprocess(blank, z.string().trim().min(1).max(200).optional()),
  /** one seller of the selection; absent = every selected seller ('Todos') */
  seller_id: sellerIdParam,
  page: z.preprocess(blank, z.coerce.number().int().min(1).max(100_000).default(1)),
  page_size: z.preprocess(
    blank,
    z.coerce.number().int().min(1).max(ASSORTMENT_MAX_PAGE_SIZE).default(ASSORTMENT_PAGE_SIZE),
  ),
  sort_by: z.preprocess(blank, z.enum(ASSORTMENT_PRODUCT_SORT).default('name')),
  sort: z.preprocess(blank, z.enum(['asc', 'desc']).default('asc')),
};

/** Drill-down of /brand and /ecommerce: the filters plus brand and/or seller_id, and paging. */
export const assortmentProductsBody = withFilterChecks(filtersObject.extend(productsExtension)).superRefine(
  assortmentChecks,
);
export type AssortmentProductsBody = z.output<typeof assortmentProductsBody>;
export type AssortmentProductsBodyInput = z.input<typeof assortmentProductsBody>;

/** Drill-down of /stock: which availability change (`stock`, required). */
export const assortmentStockProductsBody = withFilterChecks(
  filtersObject.extend({ ...productsExtension, stock: z.enum(ASSORTMENT_STOCK_EVENTS) }),
).superRefine(assortmentChecks);
export type AssortmentStockProductsBody = z.output<typeof assortmentStockProductsBody>;
export type AssortmentStockProductsBodyInput = z.input<typeof assortmentStockProductsBody>;

// ───────────────────────────── answers ─────────────────────────────

const num = z.number();
const nullableNum = z.number().nullable();

/** The figures of the seed's Assortment result, for one row (a brand, a seller or the summary). */
const figures = {
  /** listings published at the end of the period */
  total_products: num,
  /** the same at the end of the previous period of equal length */
  previous_total_products: num,
  /** 100 × (total_products − previous) / previous; null when previous is 0 */
  products_variation: nullableNum,
  /** sum of the effective prices of those listings, in `currency` */
  total_value: num,
  previous_total_value: num,
  total_variation: nullableNum,
  /** total_value / listings with a price; null when none */
  average_value: nullableNum,
  previous_average_value: nullableNum,
  average_variation: nullableNum,
  /** 100 × total_products / the summary row's total_products */
  participation: nullableNum,
  /** of the published at the end, out of stock */
  out_of_stock: num,
  /** 100 × in stock / published at the end; null when none */
  availability: nullableNum,
  /** availability-change events within the period (daily roll-up: see docs/metrics.md) */
  went_out_of_stock: num,
  back_in_stock: num,
  previous_went_out_of_stock: num,
  previous_back_in_stock: num,
};

export const assortmentRow = z.object({
  /** brand id or seller id; null for the summary row and for 'Sin marca' */
  id: z.number().nullable(),
  name: z.string(),
  /** seller colour (sellers); null for brands and the summary row */
  color: z.string().nullable(),
  summary: z.boolean(),
  /** the row is the pivot seller / one of the license's own brands */
  own: z.boolean(),
  ...figures,
});
export type AssortmentRow = z.infer<typeof assortmentRow>;

const resultEnvelope = {
  currency: z.string(),
  pivot_id: z.number(),
  sellers_ids: z.array(z.number()),
  from_date: z.string(),
  to_date: z.string(),
  previous_from_date: z.string(),
  previous_to_date: z.string(),
  /** the seed's top-level figures: those of the summary row */
  total_products: num,
  average_value: nullableNum,
  average_variation: nullableNum,
  participation: nullableNum,
  total_value: num,
  total_variation: nullableNum,
};

/** Assortment result (seed 001 §3): `brands` (by brand) or `sellers` (by e-commerce, by stock), summary first. */
export const assortmentResult = z.object({
  ...resultEnvelope,
  group: z.enum(['brand', 'seller']),
  brands: z.array(assortmentRow).optional(),
  sellers: z.array(assortmentRow).optional(),
});
export type AssortmentResult = z.infer<typeof assortmentResult>;

export const assortmentProduct = z.object({
  /** products.id (listing id): the product detail page is /app/product/{id} */
  id: z.string(),
  product_id: z.string(),
  sku: z.string().nullable(),
  name: z.string().nullable(),
  brand: z.string(),
  seller_id: z.number(),
  seller_name: z.string(),
  color: z.string().nullable(),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
  /** effective price at the end of the period (or at the event, stock variant), in `currency` */
  price: nullableNum,
  price_type: z.string().nullable(),
  stock_out: z.boolean().nullable(),
  /** stock variant: day of the event (went_out / back_in), or since when it is out (out); yyyy-MM-dd */
  event_date: z.string().nullable(),
  /** stock variant, went_out / out: day it came back within the period, null when still out */
  back_date: z.string().nullable(),
  /** stock variant, went_out / out: days out of stock (until it came back, else until the period's end) */
  days_out: z.number().nullable(),
});
export type AssortmentProduct = z.infer<typeof assortmentProduct>;

export const assortmentProductsResponse = z.object({
  currency: z.string(),
  from_date: z.string(),
  to_date: z.string(),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  items: z.array(assortmentProduct),
});
export type AssortmentProductsResponse = z.infer<typeof assortmentProductsResponse>;

// ───────────────────────────── brand price comparator ─────────────────────────────

/** Brands shown when none is picked: the license's own brands, else the largest this many. */
export const BRAND_COMPARATOR_DEFAULT_BRANDS = 10;
/** Points of the trend line over the period (evenly spaced days, the last one the period's end). */
export const BRAND_COMPARATOR_TREND_POINTS = 6;

export const brandComparatorQuery = withFilterChecks(
  filtersObject.extend({
    mpi_value: z.preprocess(blank, z.coerce.number().min(0).max(1000).default(DPM_DEFAULTS.dpmValue)),
  }),
);
export type BrandComparatorQuery = z.output<typeof brandComparatorQuery>;
export type BrandComparatorQueryInput = z.input<typeof brandComparatorQuery>;

const indexCell = z.object({
  seller_id: z.number(),
  /** pivot products of the brand with a matched listing at this competitor */
  products: num,
  /** average price index of the pivot against this competitor (100 = same price); null when none priced */
  average_index: nullableNum,
  /** the same at the start of the period; null when not computable */
  previous_average_index: nullableNum,
  /** average_index − previous_average_index (index points) */
  change: nullableNum,
  /** index at each trend day (null where no product was comparable) */
  trend: z.array(nullableNum),
});

export const brandComparatorResponse = z.object({
  currency: z.string(),
  pivot_id: z.number(),
  mpi_value: num,
  from_date: z.string(),
  to_date: z.string(),
  /** the trend's days (yyyy-MM-dd) */
  trend_days: z.array(z.string()),
  competitors: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  items: z.array(
    z.object({
      brand_id: z.number(),
      name: z.string(),
      own: z.boolean(),
      /** pivot products of the brand in the selection (DPM by brand `products`) */
      products: num,
      /** against the market (each product's lowest competitor): DPM by brand `average_index` */
      average_index: nullableNum,
      sellers: z.array(indexCell),
    }),
  ),
});
export type BrandComparatorResponse = z.infer<typeof brandComparatorResponse>;

/**
 * The Filters of an assortment call from a screen's validated Filters: the keys assortment does not apply
 * (ASSORTMENT_UNSUPPORTED_FILTERS, e.g. the price mode every panel carries) are left out.
 */
export function toAssortmentFilters<T extends Record<string, unknown>>(filters: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filters))
    if (!(ASSORTMENT_UNSUPPORTED_FILTERS as readonly string[]).includes(k)) out[k] = v;
  return out as T;
}

/** Spreadsheet columns of the assortment tables (XLSX downloads). */
export const ASSORTMENT_XLSX_COLUMNS = {
  brand: 'Marca',
  seller: 'eCommerce',
  total_products: 'Productos',
  previous_total_products: 'Productos período anterior',
  products_variation: 'Variación productos %',
  total_value: 'Valor total',
  total_variation: 'Variación valor total %',
  average_value: 'Valor promedio',
  average_variation: 'Variación valor promedio %',
  participation: 'Participación %',
  out_of_stock: 'Sin stock al cierre',
  availability: 'Disponibilidad %',
  went_out_of_stock: 'Salieron de stock',
  back_in_stock: 'Volvieron a stock',
  previous_went_out_of_stock: 'Salieron de stock período anterior',
} as const;
