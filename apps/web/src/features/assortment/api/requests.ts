import {
  type AssortmentProductSort,
  type AssortmentStockEvent,
  assortmentProductsResponse,
  assortmentResult,
  type Filters,
  toAssortmentFilters,
} from '@vigia/domain';
import { apiDownload, apiPost } from '../../../lib/api-client.js';

// The assortment calls (seed 001 §7 "Assortment"; contract packages/domain/src/assortment.ts): POST with
// the filters, module header 'assortment', pivot header; answers parsed with the contract's schemas.

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

export function fetchAssortment(kind: AssortmentKind, filters: Filters, o: CallOptions) {
  return apiPost(`/v1/assortment/${kind}`, toAssortmentFilters(filters), {
    module: 'assortment',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: assortmentResult,
  });
}

export function fetchAssortmentProducts(
  kind: AssortmentKind,
  filters: Filters,
  drill: DrillDown,
  paging: ProductsPaging,
  o: CallOptions,
) {
  return apiPost(
    `/v1/assortment/${kind}/products`,
    { ...toAssortmentFilters(filters), ...drill, ...paging },
    { module: 'assortment', pivotId: o.pivotId, signal: o.signal, schema: assortmentProductsResponse },
  );
}

/** The table as XLSX (POST /v1/assortment/{kind}.xlsx). */
export function downloadAssortment(kind: AssortmentKind, filters: Filters, pivotId: number | null) {
  return apiDownload(
    `/v1/assortment/${kind}.xlsx`,
    { body: toAssortmentFilters(filters) },
    `surtido-${kind}.xlsx`,
    { module: 'assortment', pivotId },
  );
}

/** A drill-down's products as XLSX (POST /v1/assortment/{kind}/products.xlsx). */
export function downloadAssortmentProducts(
  kind: AssortmentKind,
  filters: Filters,
  drill: DrillDown,
  sort: Pick<ProductsPaging, 'sort_by' | 'sort'>,
  pivotId: number | null,
) {
  return apiDownload(
    `/v1/assortment/${kind}/products.xlsx`,
    { body: { ...toAssortmentFilters(filters), ...drill, ...sort } },
    `surtido-${kind}-productos.xlsx`,
    { module: 'assortment', pivotId },
  );
}
