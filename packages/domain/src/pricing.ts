import { z } from 'zod';
import {
  DEFAULT_PRICE_MODE,
  DPM_DEFAULTS,
  PRICE_MODES,
  PRICE_TYPES,
  PRICING_PRICE_RANGE_MPI_VALUE,
  RANKING_STEPS,
} from './constants.js';
import { filtersObject, MPI_RANGES, withFilterChecks } from './filters.js';

// Contract of the pricing endpoints (seed 001 §7 "Pricing"): DPM by brand / classification / e-commerce,
// navigation by e-commerce (+ navigationOld/), the per-e-commerce comparator and the price-range scores.
// Every request carries the shared Filters (filters.ts): GET in the querystring (lists as comma lists),
// POST in the JSON body. Formulas: docs/metrics.md "Pricing" and metrics/pricing.ts.
//
// Endpoints (all scoped to the caller's license and pivot; 403 outside it):
//   module dpm:
//     GET  /v2/navigation/dpm/brandFilterOptions/   brandFilterOptionsQuery → brandFilterOptionsResponse
//     GET  /v2/navigation/dpm/items                 dpmItemsQuery           → pricingItemsResponse
//     GET  /v2/navigation/dpm/kpi                   dpmQuery                → pricingKpisResponse
//     GET  /v2/navigation/dpm/brands                dpmQuery                → dpmGroupsResponse
//     GET  /v2/navigation/dpm/classifications       dpmQuery                → dpmGroupsResponse
//     GET  /v2/navigation/dpm/sellers               dpmQuery                → dpmGroupsResponse
//   module ecommerce_navigation:
//     POST /v2/navigation/          and /v2/navigationOld/      navigationBody  → pricingItemsResponse
//     GET  /v2/navigation/kpi       and /v2/navigationOld/kpi   navigationQuery → pricingKpisResponse
//     GET  /v2/navigation/summary   (comparator: where I win/lose per competitor) navigationQuery → comparatorSummaryResponse
//     POST /v1/new-navigation/prices/                            navigationBody  → newNavigationPricesResponse
//     GET  /v2/navigation/price-range-scores                     priceRangeQuery → priceRangeScoresResponse
//     GET  /v2/navigation/price-range-scores-qmp                 priceRangeQuery → priceRangeScoresQmpResponse

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

// ───────────────────────────── requests ─────────────────────────────

export const PRICING_SORT_FIELDS = ['index', 'difference', 'name', 'price'] as const;
export type PricingSortField = (typeof PRICING_SORT_FIELDS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Navigation page size: default and maximum (DPM uses DPM_DEFAULTS). */
export const NAVIGATION_PAGE_SIZE = 50;
export const NAVIGATION_MAX_PAGE_SIZE = 200;

/** Cursor = `id` of the last item received; absent = first page. A sort change must drop it. */
const cursorParam = z
  .preprocess(
    blank,
    z.coerce
      .string()
      .max(18)
      .regex(/^\d{1,18}$/, 'cursor inválido (id del último ítem)')
      .optional(),
  )
  .optional();
const sortParam = z.preprocess(blank, z.enum(SORT_DIRECTIONS).default(DPM_DEFAULTS.sort));
const sortByParam = z.preprocess(blank, z.enum(PRICING_SORT_FIELDS).default('index'));
const mpiValueParam = (def: number) => z.preprocess(blank, z.coerce.number().min(0).max(1000).default(def));
const priceModeParam = z.preprocess(blank, z.enum(PRICE_MODES).default(DEFAULT_PRICE_MODE));

const PAGE_SIZE_MESSAGE = `tamaño de página inválido (${DPM_DEFAULTS.pageSizeOptions.join(', ')})`;
/** DPM page size: one of DPM_DEFAULTS.pageSizeOptions (5, 10, 15, 20, 25, 50), default 10. */
const dpmPageSize = z.preprocess(
  blank,
  z.coerce
    .number()
    .int()
    .min(Math.min(...DPM_DEFAULTS.pageSizeOptions), PAGE_SIZE_MESSAGE)
    .max(Math.max(...DPM_DEFAULTS.pageSizeOptions), PAGE_SIZE_MESSAGE)
    .refine((n) => (DPM_DEFAULTS.pageSizeOptions as readonly number[]).includes(n), {
      message: PAGE_SIZE_MESSAGE,
    })
    .default(DPM_DEFAULTS.pageSize),
);

/** DPM filters (querystring): mpi_value defaults to the dpm value 10, priceMode to NORMAL_SALE_EXCLUSIVE_PRICE. */
export const dpmQuery = withFilterChecks(
  filtersObject.extend({ mpi_value: mpiValueParam(DPM_DEFAULTS.dpmValue), priceMode: priceModeParam }),
);
export type DpmQuery = z.output<typeof dpmQuery>;
export type DpmQueryInput = z.input<typeof dpmQuery>;

/** DPM items (querystring): filters + cursor paging; page_size 10, sort desc by index by default. */
export const dpmItemsQuery = withFilterChecks(
  filtersObject.extend({
    mpi_value: mpiValueParam(DPM_DEFAULTS.dpmValue),
    priceMode: priceModeParam,
    cursor: cursorParam,
    page_size: dpmPageSize,
    sort: sortParam,
    sort_by: sortByParam,
  }),
);
export type DpmItemsQuery = z.output<typeof dpmItemsQuery>;
export type DpmItemsQueryInput = z.input<typeof dpmItemsQuery>;

/** Navigation filters (querystring of GET /kpi, /summary): mpi_value defaults to 5. */
export const navigationQuery = withFilterChecks(
  filtersObject.extend({
    mpi_value: mpiValueParam(PRICING_PRICE_RANGE_MPI_VALUE),
    priceMode: priceModeParam,
  }),
);
export type NavigationQuery = z.output<typeof navigationQuery>;
export type NavigationQueryInput = z.input<typeof navigationQuery>;

/**
 * Navigation items (JSON body of POST /v2/navigation/, /v2/navigationOld/, /v1/new-navigation/prices/):
 * filters + cursor paging (page_size 1–200, default 50). One seller in sellersIds = the comparator.
 */
export const navigationBody = withFilterChecks(
  filtersObject.extend({
    mpi_value: mpiValueParam(PRICING_PRICE_RANGE_MPI_VALUE),
    priceMode: priceModeParam,
    cursor: cursorParam,
    page_size: z.preprocess(
      blank,
      z.coerce.number().int().min(1).max(NAVIGATION_MAX_PAGE_SIZE).default(NAVIGATION_PAGE_SIZE),
    ),
    sort: sortParam,
    sort_by: sortByParam,
  }),
);
export type NavigationBody = z.output<typeof navigationBody>;
export type NavigationBodyInput = z.input<typeof navigationBody>;

/** Price-range scores (querystring): mpi_value 5 by default (seed 001 §9). */
export const priceRangeQuery = navigationQuery;
export type PriceRangeQuery = NavigationQuery;

/** GET /v2/navigation/dpm/brandFilterOptions/?pivotId=… (default: the request's pivot). */
export const brandFilterOptionsQuery = z.object({
  pivotId: z.preprocess(blank, z.coerce.number().int().positive().max(2_147_483_647).optional()).optional(),
});

// ───────────────────────────── responses ─────────────────────────────

const count = z.number().int().nonnegative();
const money = z.number().nullable();
const mpiBucket = z.enum(MPI_RANGES).nullable();

/** Pricing KPIs (seed 001 §3), counted over the pivot's listings that pass the filters. */
export const pricingKpis = z.object({
  total: count,
  match: count,
  publishedMatch: count,
  normal: count,
  sale: count,
  exclusive: count,
  stock_out: count,
});
export type PricingKpis = z.infer<typeof pricingKpis>;

/** Price-index split of the products with an index (docs/metrics.md "Price index split"). */
export const priceSplit = z.object({
  cheapest: count,
  in_range: count,
  dearer: count,
  /** products that passed the filters but have no index (no comparable competitor price) */
  without_index: count,
  /** arithmetic mean of the indexes; null when no product has one */
  average_index: z.number().nullable(),
});
export type PriceSplit = z.infer<typeof priceSplit>;

export const pricingKpisResponse = pricingKpis.extend({
  currency: z.string(),
  mpi_value: z.number(),
  /**
   * Which prices the figures use: the closing prices of this day (yyyy-MM-dd, the period's Hasta when it
   * is a closed day), or null for each listing's latest prices (no period, or a period ending today).
   */
  prices_at: z.string().nullable(),
  split: priceSplit,
  /**
   * The pasted SKUs (filter `SKUs`, as understood) that no pivot product of the selection has as its
   * SKU or the seller's product id — the selection being the pivot's listings under the license and the
   * descriptive filters (classification, category, brand, text, price type, stock); empty without SKUs.
   */
  skus_not_found: z.array(z.string()),
});
export type PricingKpisResponse = z.infer<typeof pricingKpisResponse>;

/** One competitor's offer for a pivot product: its cheapest comparable matched listing there, else its cheapest. */
export const competitorPrice = z.object({
  seller_id: z.number(),
  seller_name: z.string(),
  color: z.string(),
  /** listing id (products.id) of the competitor's listing */
  listing_id: z.string(),
  product_id: z.string(),
  url: z.string().nullable(),
  /** effective price in the requested currency for the price mode */
  price: money,
  normal_price: money,
  sale_price: money,
  exclusive_price: money,
  price_type: z.enum(PRICE_TYPES),
  stock_out: z.boolean(),
  last_seen: z.string(),
  /** seen before today (America/Santiago) or out of stock: shown grey (seed 001 §4) */
  historical: z.boolean(),
  /** counts for the index: in stock and seen in the window */
  comparable: z.boolean(),
  /** 100 × (my price − this price) / this price; null without both prices */
  difference_pct: z.number().nullable(),
});
export type CompetitorPrice = z.infer<typeof competitorPrice>;

/** One pivot product row (DPM items and navigation by e-commerce). */
export const pricingItem = z.object({
  /** pivot listing id (products.id): the cursor of the next page when last */
  id: z.string(),
  product_id: z.string(),
  sku: z.string().nullable(),
  ean: z.string().nullable(),
  name: z.string(),
  brand: z.object({ id: z.number(), name: z.string() }).nullable(),
  classification_id: z.number().nullable(),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
  price_type: z.enum(PRICE_TYPES),
  stock_out: z.boolean(),
  last_seen: z.string(),
  historical: z.boolean(),
  /** 'Mi precio': the pivot's effective price in the requested currency */
  my_price: money,
  normal_price: money,
  sale_price: money,
  exclusive_price: money,
  /** lowest / highest comparable competitor price */
  min_price: money,
  max_price: money,
  /** my_price − min_price */
  difference: money,
  /** 100 × (my_price − min_price) / min_price = index − 100 */
  difference_pct: z.number().nullable(),
  /** price index = 100 × my_price / min_price */
  index: z.number().nullable(),
  bucket: mpiBucket,
  /** 1-based position of the pivot among the comparable sellers sorted by price asc; null without index */
  position: z.number().int().nullable(),
  /** sellers ranked (comparable competitors + pivot) */
  ranked: z.number().int(),
  /** ranking icon 1 ('Más bajo') … 9 ('Más alto') */
  ranking_icon: z.number().int().min(1).max(RANKING_STEPS).nullable(),
  /** selected competitors with a matched listing seen in the window: comparable ones first, by price */
  competitors: z.array(competitorPrice),
});
export type PricingItem = z.infer<typeof pricingItem>;

export const pricingItemsResponse = z.object({
  items: z.array(pricingItem),
  /** id of the last item when more follow, else null */
  next_cursor: z.string().nullable(),
  /** products matching the filters (all pages) */
  total: count,
  page_size: z.number().int(),
  currency: z.string(),
  mpi_value: z.number(),
});
export type PricingItemsResponse = z.infer<typeof pricingItemsResponse>;

/** Head-to-head of the pivot against one competitor (DPM by e-commerce and the comparator). */
export const headToHead = z.object({
  /** pivot products with a comparable price at both */
  common: count,
  /** where my price is lower / equal / higher than theirs */
  cheaper: count,
  equal: count,
  more_expensive: count,
  /** mean of 100 × (mine − theirs) / theirs over the common products */
  average_difference_pct: z.number().nullable(),
});
export type HeadToHead = z.infer<typeof headToHead>;

/** One DPM group: a brand, a classification node or a competitor seller. */
export const dpmGroup = pricingKpis.extend(priceSplit.shape).extend({
  id: z.number(),
  name: z.string(),
  /** = total: pivot products in the group */
  products: count,
  /** 100 × match / total */
  match_pct: z.number().nullable(),
  /** classifications only: parent node, level (1–3) and ids root→self, to build the tree */
  parent_id: z.number().nullable().optional(),
  level: z.number().int().optional(),
  path: z.array(z.number()).optional(),
  /** sellers only */
  color: z.string().optional(),
  head_to_head: headToHead.optional(),
});
export type DpmGroup = z.infer<typeof dpmGroup>;

export const dpmGroupsResponse = z.object({
  group: z.enum(['brand', 'classification', 'seller']),
  currency: z.string(),
  mpi_value: z.number(),
  /** groups sorted by products desc, then name */
  items: z.array(dpmGroup),
  /** the 'Todos' row: every product of the filters once */
  summary: pricingKpis.extend(priceSplit.shape).extend({ products: count, match_pct: z.number().nullable() }),
});
export type DpmGroupsResponse = z.infer<typeof dpmGroupsResponse>;

export const brandFilterOption = z.object({
  id: z.number(),
  name: z.string(),
  /** the pivot's listings of this brand */
  products: count,
  /** one of the license's own brands */
  own: z.boolean(),
});
export const brandFilterOptionsResponse = z.array(brandFilterOption);
export type BrandFilterOption = z.infer<typeof brandFilterOption>;

export const comparatorSummaryResponse = z.object({
  currency: z.string(),
  pivot_id: z.number(),
  items: z.array(
    headToHead.extend({
      seller_id: z.number(),
      seller_name: z.string(),
      color: z.string(),
      average_index: z.number().nullable(),
    }),
  ),
});
export type ComparatorSummaryResponse = z.infer<typeof comparatorSummaryResponse>;

/** Side-by-side matrix: my price and each selected competitor's price (aligned with `sellers`). */
export const newNavigationPricesResponse = z.object({
  currency: z.string(),
  sellers: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  items: z.array(
    z.object({
      id: z.string(),
      product_id: z.string(),
      name: z.string(),
      my_price: money,
      index: z.number().nullable(),
      bucket: mpiBucket,
      /** prices[i] = comparable price at sellers[i], null when none */
      prices: z.array(money),
    }),
  ),
  next_cursor: z.string().nullable(),
  total: count,
});
export type NewNavigationPricesResponse = z.infer<typeof newNavigationPricesResponse>;

/** Price range (slider settings) and index split of the filtered products. */
export const priceRangeScoresResponse = priceSplit.extend({
  currency: z.string(),
  mpi_value: z.number(),
  /** lowest / highest of my prices over the filters (ignoring the price range), floored / ceiled */
  min_price: z.number().nullable(),
  max_price: z.number().nullable(),
  total: count,
});
export type PriceRangeScoresResponse = z.infer<typeof priceRangeScoresResponse>;

/** Ranking (qmp) view: how many products sit at each ranking icon. */
export const priceRangeScoresQmpResponse = z.object({
  currency: z.string(),
  mpi_value: z.number(),
  min_price: z.number().nullable(),
  max_price: z.number().nullable(),
  total: count,
  /** products with a position (at least one comparable competitor) */
  ranked: count,
  /** icon 1 ('Más bajo') … 9 ('Más alto') with its product count; always 9 entries */
  icons: z.array(z.object({ icon: z.number().int(), count })),
  /** products where I am first (position 1) */
  first: count,
  average_position: z.number().nullable(),
});
export type PriceRangeScoresQmpResponse = z.infer<typeof priceRangeScoresQmpResponse>;

// ───────────────────────────── client paging helpers ─────────────────────────────

/** Navigation paging state: items accumulate page by page with the cursor; sorting resets it. */
export interface CursorPaging {
  cursor?: string;
  sort: SortDirection;
  sort_by: PricingSortField;
}

/** Next paging state after a page arrived: the cursor becomes the id of the last item. */
export function nextPage(state: CursorPaging, page: { next_cursor: string | null }): CursorPaging | null {
  return page.next_cursor ? { ...state, cursor: page.next_cursor } : null;
}

/** Changing the sort resets the cursor (seed 001 §4). */
export function changeSort(sort_by: PricingSortField, sort: SortDirection): CursorPaging {
  return { sort, sort_by };
}

/**
 * DPM pages reuse a cursor list: cursors[n] is the cursor that fetches page n (cursors[0] undefined).
 * Returns the list after page `n` arrived.
 */
export function rememberPageCursor(
  cursors: readonly (string | undefined)[],
  n: number,
  nextCursor: string | null,
): (string | undefined)[] {
  const out = cursors.slice(0, n + 1);
  if (out.length === 0) out.push(undefined);
  if (nextCursor) out[n + 1] = nextCursor;
  return out;
}
