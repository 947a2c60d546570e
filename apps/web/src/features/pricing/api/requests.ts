import { type Filters, PRICING_PRICE_RANGE_MPI_VALUE, pricingRoutes } from '@vigia/domain';
import { callRoute } from '../../../lib/api-client.js';
import type { DpmGroupKind, ItemsPaging } from './keys.js';

// The pricing calls (seed 001 §7 "Pricing"), through the route table: each def carries its path, its
// module header (dpm / ecommerce_navigation) and its response schema; the pivot header is sent too.

interface CallOptions {
  pivotId: number | null;
  signal?: AbortSignal;
}

const GROUP_ROUTES = {
  brand: pricingRoutes.dpmBrands,
  classification: pricingRoutes.dpmClassifications,
  seller: pricingRoutes.dpmSellers,
} as const satisfies Record<DpmGroupKind, unknown>;

/** Filters without the price-range keys (the scores describe the whole range). */
function withoutPriceRange(f: Filters): Filters {
  const { minPrice: _a, maxPrice: _b, minSetting: _c, maxSetting: _d, ...rest } = f;
  return rest;
}

export function fetchDpmKpi(filters: Filters, o: CallOptions) {
  return callRoute(pricingRoutes.dpmKpi, { query: filters }, o);
}

export function fetchDpmGroups(group: DpmGroupKind, filters: Filters, o: CallOptions) {
  return callRoute(GROUP_ROUTES[group], { query: filters }, o);
}

export function fetchDpmItems(filters: Filters, paging: ItemsPaging, o: CallOptions) {
  return callRoute(pricingRoutes.dpmItems, { query: { ...filters, ...paging } }, o);
}

export function fetchNavigationItems(filters: Filters, paging: ItemsPaging, o: CallOptions) {
  return callRoute(pricingRoutes.navigationItems, { body: { ...filters, ...paging } }, o);
}

export function fetchNavigationKpi(filters: Filters, o: CallOptions) {
  return callRoute(pricingRoutes.navigationKpi, { query: filters }, o);
}

export function fetchComparatorSummary(filters: Filters, o: CallOptions) {
  return callRoute(pricingRoutes.navigationSummary, { query: filters }, o);
}

/**
 * Price-range scores for the slider (mpi_value 5, seed 001 §9); the selected range itself is left out.
 * Either pricing module grants it; `module` is the one the caller's license has.
 */
export function fetchPriceRangeScores(
  filters: Filters,
  o: CallOptions & { module: (typeof pricingRoutes.priceRangeScores.module)[number] },
) {
  return callRoute(
    pricingRoutes.priceRangeScores,
    { query: { ...withoutPriceRange(filters), mpi_value: PRICING_PRICE_RANGE_MPI_VALUE } },
    // The slider is an aid: its failure must not cover the screen's own messages.
    { ...o, notify: false },
  );
}
