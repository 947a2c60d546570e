import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Filters } from '@vigia/domain';
import type { settingsKey } from '../../../lib/settings.js';
import {
  type AssortmentKind,
  type DrillDown,
  fetchAssortment,
  fetchAssortmentProducts,
  type ProductsPaging,
} from './requests.js';

// TanStack Query hooks of the assortment screens. `filters` null = not ready or invalid: nothing is
// requested (seed 001 §4: invalid filters send no request).

export interface AssortmentScope {
  settings: ReturnType<typeof settingsKey>;
  pivotId: number | null;
  filters: Filters | null;
}

export const assortmentKeys = {
  all: ['assortment'] as const,
  result: (kind: AssortmentKind, s: AssortmentScope) => ['assortment', kind, s.settings, s.filters] as const,
  products: (kind: AssortmentKind, s: AssortmentScope, d: DrillDown, p: ProductsPaging) =>
    ['assortment', kind, 'products', s.settings, s.filters, d, p] as const,
};

export function useAssortment(kind: AssortmentKind, scope: AssortmentScope) {
  return useQuery({
    queryKey: assortmentKeys.result(kind, scope),
    queryFn: ({ signal }) =>
      fetchAssortment(kind, scope.filters as Filters, { pivotId: scope.pivotId, signal }),
    enabled: !!scope.filters,
  });
}

export function useAssortmentProducts(
  kind: AssortmentKind,
  scope: AssortmentScope,
  drill: DrillDown | null,
  paging: ProductsPaging,
) {
  return useQuery({
    queryKey: assortmentKeys.products(kind, scope, drill ?? {}, paging),
    queryFn: ({ signal }) =>
      fetchAssortmentProducts(kind, scope.filters as Filters, drill ?? {}, paging, {
        pivotId: scope.pivotId,
        signal,
      }),
    enabled: !!scope.filters && drill !== null,
    placeholderData: keepPreviousData,
  });
}
