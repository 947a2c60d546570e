import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DPM_DEFAULTS, type Filters, routes } from '@vigia/domain';
import { useFilterSearch, useSettingsDefaults } from '../../../components/filters/index.js';
import { callRoute } from '../../../lib/api-client.js';
import { settingsKey } from '../../../lib/settings.js';

// The brand price comparator's call (GET /v2/navigation/dpm/brand-comparator, module dpm; contract in
// packages/domain/src/assortment.ts) and the screen's search: the DPM filters in the URL, completed with
// the user's settings.

const KEY = ['brand-comparator'] as const;

export function fetchBrandComparator(filters: Filters, o: { pivotId: number | null; signal?: AbortSignal }) {
  return callRoute(routes.brandComparator.comparator, { query: filters }, o);
}

export function useBrandComparatorSearch() {
  const { settings, defaults, ready } = useSettingsDefaults(DPM_DEFAULTS.dpmValue);
  const queryClient = useQueryClient();
  const search = useFilterSearch({
    kind: 'pricing',
    defaults,
    ready,
    onResubmit: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const filters = search.filters;
  const query = useQuery({
    queryKey: [...KEY, settingsKey(settings), filters],
    queryFn: ({ signal }) => fetchBrandComparator(filters as Filters, { pivotId: settings.pivotId, signal }),
    enabled: !!filters,
  });
  return {
    search,
    query,
    currency: (filters?.currency as string | undefined) ?? settings.currency,
    preparing: !ready,
  };
}
