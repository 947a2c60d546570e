import {
  comparatorSummaryResponse,
  dpmGroupsResponse,
  type Filters,
  filtersToSearchParams,
  PRICING_PRICE_RANGE_MPI_VALUE,
  priceRangeScoresResponse,
  pricingItemsResponse,
  pricingKpisResponse,
} from '@vigia/domain';
import { apiGet, apiPost } from '../../../lib/api-client.js';
import type { DpmGroupKind, ItemsPaging } from './keys.js';

// The pricing calls (seed 001 §7 "Pricing"; contract in packages/domain/src/pricing.ts). Every call
// goes through the shared client with the module header (dpm / ecommerce_navigation) and the pivot
// header; the answers are parsed with the contract's schemas.

interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

const GROUP_PATHS: Record<DpmGroupKind, string> = {
  brand: '/v2/navigation/dpm/brands',
  classification: '/v2/navigation/dpm/classifications',
  seller: '/v2/navigation/dpm/sellers',
};

/** Filters without the price-range keys (the scores describe the whole range). */
function withoutPriceRange(f: Filters): Filters {
  const { minPrice: _a, maxPrice: _b, minSetting: _c, maxSetting: _d, ...rest } = f;
  return rest;
}

export function fetchDpmKpi(filters: Filters, o: CallOptions) {
  return apiGet('/v2/navigation/dpm/kpi', filtersToSearchParams(filters), {
    module: 'dpm',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: pricingKpisResponse,
  });
}

export function fetchDpmGroups(group: DpmGroupKind, filters: Filters, o: CallOptions) {
  return apiGet(GROUP_PATHS[group], filtersToSearchParams(filters), {
    module: 'dpm',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: dpmGroupsResponse,
  });
}

export function fetchDpmItems(filters: Filters, paging: ItemsPaging, o: CallOptions) {
  return apiGet('/v2/navigation/dpm/items', filtersToSearchParams({ ...filters, ...paging }), {
    module: 'dpm',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: pricingItemsResponse,
  });
}

export function fetchNavigationItems(filters: Filters, paging: ItemsPaging, o: CallOptions) {
  return apiPost(
    '/v2/navigation/',
    { ...filters, ...paging },
    { module: 'ecommerce_navigation', pivotId: o.pivotId, signal: o.signal, schema: pricingItemsResponse },
  );
}

export function fetchNavigationKpi(filters: Filters, o: CallOptions) {
  return apiGet('/v2/navigation/kpi', filtersToSearchParams(filters), {
    module: 'ecommerce_navigation',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: pricingKpisResponse,
  });
}

export function fetchComparatorSummary(filters: Filters, o: CallOptions) {
  return apiGet('/v2/navigation/summary', filtersToSearchParams(filters), {
    module: 'ecommerce_navigation',
    pivotId: o.pivotId,
    signal: o.signal,
    schema: comparatorSummaryResponse,
  });
}

/**
 * Price-range scores for the slider (mpi_value 5, seed 001 §9); the selected range itself is left out.
 * Either pricing module grants it; `module` is the one the caller's license has.
 */
export function fetchPriceRangeScores(
  filters: Filters,
  o: CallOptions & { module: 'ecommerce_navigation' | 'dpm' },
) {
  return apiGet(
    '/v2/navigation/price-range-scores',
    filtersToSearchParams({ ...withoutPriceRange(filters), mpi_value: PRICING_PRICE_RANGE_MPI_VALUE }),
    {
      module: o.module,
      pivotId: o.pivotId,
      signal: o.signal,
      schema: priceRangeScoresResponse,
      // The slider is an aid: its failure must not cover the screen's own messages.
      notify: false,
    },
  );
}
