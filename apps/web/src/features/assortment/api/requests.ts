import {
  ASSORTMENT_FILE,
  type AssortmentBodyInput,
  type AssortmentProductSort,
  type AssortmentStockEvent,
  type Filters,
  routes,
  toAssortmentFilters,
  xlsxFileName,
} from '@vigia/domain';
import { callRoute, downloadRoute } from '../../../lib/api-client.js';

// The assortment calls (seed 001 §7 "Assortment"; route table packages/domain/src/routes/assortment.ts):
// POST with the filters, module header 'assortment' and the pivot header from the table; answers parsed
// with the route's schema.

export type AssortmentKind = 'brand' | 'ecommerce' | 'stock';

interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

/** What a drill-down adds to the filters (seed: brand name or seller_id, and stock for the stock variant). */
export interface DrillDown {
  brand?: string;
  seller_id?: number;
  stock?: AssortmentStockEvent;
}

export interface ProductsPaging {
  page: number;
  page_size: number;
  sort_by: AssortmentProductSort;
  sort: 'asc' | 'desc';
}

const R = routes.assortment;
const TABLE = { brand: R.brand, ecommerce: R.ecommerce, stock: R.stock } as const;
const PRODUCTS = { brand: R.brandProducts, ecommerce: R.ecommerceProducts, stock: R.stockProducts } as const;
const TABLE_XLSX = { brand: R.brandXlsx, ecommerce: R.ecommerceXlsx, stock: R.stockXlsx } as const;
const PRODUCTS_XLSX = {
  brand: R.brandProductsXlsx,
  ecommerce: R.ecommerceProductsXlsx,
  stock: R.stockProductsXlsx,
} as const;

/** The request filters without those assortment does not apply (a 400 otherwise). */
const body = (filters: Filters) => toAssortmentFilters(filters) as AssortmentBodyInput;

export function fetchAssortment(kind: AssortmentKind, filters: Filters, o: CallOptions) {
  return callRoute(TABLE[kind], { body: body(filters) }, o);
}

export function fetchAssortmentProducts(
  kind: AssortmentKind,
  filters: Filters,
  drill: DrillDown,
  paging: ProductsPaging,
  o: CallOptions,
) {
  // the stock variant's `stock` is required by its schema; the screen always sends it there
  return callRoute(
    PRODUCTS[kind] as typeof R.stockProducts,
    { body: { ...body(filters), ...drill, ...paging } as never },
    o,
  );
}

/** The table as XLSX (POST /v1/assortment/{kind}.xlsx). */
export function downloadAssortment(kind: AssortmentKind, filters: Filters, pivotId: number | null) {
  // the server names the file (Content-Disposition); the fallback is its name without the filters
  const name = xlsxFileName(ASSORTMENT_FILE[kind], [], filters.from_date, filters.to_date);
  return downloadRoute(TABLE_XLSX[kind], { body: body(filters) }, name, { pivotId });
}

/** A drill-down's products as XLSX (POST /v1/assortment/{kind}/products.xlsx). */
export function downloadAssortmentProducts(
  kind: AssortmentKind,
  filters: Filters,
  drill: DrillDown,
  sort: Pick<ProductsPaging, 'sort_by' | 'sort'>,
  pivotId: number | null,
) {
  return downloadRoute(
    PRODUCTS_XLSX[kind] as typeof R.stockProductsXlsx,
    { body: { ...body(filters), ...drill, ...sort } as never },
    xlsxFileName(`${ASSORTMENT_FILE[kind]}_productos`, [drill.brand], filters.from_date, filters.to_date),
    { pivotId },
  );
}
