import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Filters, pricingRoutes } from '@vigia/domain';
import {
  type DpmGroupKind,
  type GroupRestriction,
  type ItemsPaging,
  pricingKeys,
  type SettingsKey,
} from './keys.js';
import {
  fetchComparatorSummary,
  fetchDpmGroups,
  fetchDpmItems,
  fetchDpmKpi,
  fetchNavigationItems,
  fetchNavigationKpi,
  fetchPriceRangeScores,
} from './requests.js';

// TanStack Query options and hooks of the pricing screens. `filters` null = not ready or invalid:
// nothing is requested (seed 001 §4: invalid filters send no request).

export interface PricingScope {
  settings: SettingsKey;
  pivotId: number | null;
  filters: Filters | null;
}

/** The filters of one group's products: the group narrows the screen's filters. */
export function groupFilters(
  filters: Filters,
  r: GroupRestriction,
  selectedClassifications?: number[],
): Filters {
  if (r.group === 'brand') return { ...filters, brands: [r.id] };
  if (r.group === 'seller') return { ...filters, sellersIds: [r.id], sellers: [r.id] };
  // A classification node selects its subtree; keep the user's narrower picks inside it.
  return {
    ...filters,
    classificationsIds: selectedClassifications?.length ? selectedClassifications : [r.id],
  };
}

export const pricingQueries = {
  dpmKpi: (s: PricingScope) =>
    queryOptions({
      queryKey: pricingKeys.dpmKpi(s.settings, s.filters as Filters),
      queryFn: ({ signal }) => fetchDpmKpi(s.filters as Filters, { pivotId: s.pivotId, signal }),
      enabled: !!s.filters,
    }),
  dpmGroups: (group: DpmGroupKind, s: PricingScope) =>
    queryOptions({
      queryKey: pricingKeys.dpmGroups(group, s.settings, s.filters as Filters),
      queryFn: ({ signal }) => fetchDpmGroups(group, s.filters as Filters, { pivotId: s.pivotId, signal }),
      enabled: !!s.filters,
    }),
  navigationKpi: (s: PricingScope) =>
    queryOptions({
      queryKey: pricingKeys.navigationKpi(s.settings, s.filters as Filters),
      queryFn: ({ signal }) => fetchNavigationKpi(s.filters as Filters, { pivotId: s.pivotId, signal }),
      enabled: !!s.filters,
    }),
  comparatorSummary: (s: PricingScope) =>
    queryOptions({
      queryKey: pricingKeys.comparatorSummary(s.settings, s.filters as Filters),
      queryFn: ({ signal }) => fetchComparatorSummary(s.filters as Filters, { pivotId: s.pivotId, signal }),
      enabled: !!s.filters,
    }),
  priceRange: (s: PricingScope, module: SliderModule | null) =>
    queryOptions({
      queryKey: pricingKeys.priceRange(s.settings, s.filters as Filters),
      queryFn: ({ signal }) =>
        fetchPriceRangeScores(s.filters as Filters, {
          pivotId: s.pivotId,
          signal,
          module: module ?? 'ecommerce_navigation',
        }),
      enabled: module !== null && !!s.filters,
      staleTime: 5 * 60_000,
      retry: false,
    }),
};

export function useDpmKpi(s: PricingScope) {
  return useQuery(pricingQueries.dpmKpi(s));
}

export function useDpmGroups(group: DpmGroupKind, s: PricingScope) {
  return useQuery(pricingQueries.dpmGroups(group, s));
}

/** One page of a group's products; the page's cursor comes from the cursor list (seed 001 §4). */
export function useDpmItems(r: GroupRestriction, s: PricingScope, paging: ItemsPaging, narrowed?: number[]) {
  const filters = s.filters ? groupFilters(s.filters, r, narrowed) : null;
  return useQuery({
    queryKey: pricingKeys.dpmItems(r, s.settings, filters as Filters, paging),
    queryFn: ({ signal }) => fetchDpmItems(filters as Filters, paging, { pivotId: s.pivotId, signal }),
    enabled: !!filters,
    placeholderData: keepPreviousData,
  });
}

export function useNavigationKpi(s: PricingScope) {
  return useQuery(pricingQueries.navigationKpi(s));
}

export function useComparatorSummary(s: PricingScope, enabled = true) {
  return useQuery({ ...pricingQueries.comparatorSummary(s), enabled: enabled && !!s.filters });
}

/** The module the price slider is requested under (either grants it); null = neither, no slider. */
/** The modules that grant the price slider (either one). */
export type SliderModule = (typeof pricingRoutes.priceRangeScores.module)[number];

export function usePriceRangeScores(s: PricingScope, module: SliderModule | null) {
  return useQuery(pricingQueries.priceRange(s, module));
}

/**
 * Navigation items accumulate page by page with the cursor (id of the last item); a new sort or new
 * filters make a new key, which starts again from the first page (seed 001 §4).
 */
export function useNavigationItems(s: PricingScope, paging: Omit<ItemsPaging, 'cursor'>, sellerId?: number) {
  // The comparator lists only the products matched at that competitor (the ones it can compare).
  const filters =
    s.filters && sellerId
      ? { ...s.filters, sellersIds: [sellerId], sellers: [sellerId], match: true }
      : s.filters;
  return useInfiniteQuery({
    queryKey:
      sellerId !== undefined
        ? pricingKeys.comparatorItems(sellerId, s.settings, filters as Filters, paging)
        : pricingKeys.navigationItems(s.settings, filters as Filters, paging),
    queryFn: ({ pageParam, signal }) =>
      fetchNavigationItems(
        filters as Filters,
        { ...paging, cursor: pageParam },
        { pivotId: s.pivotId, signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: !!filters && (sellerId === undefined || sellerId > 0),
  });
}
