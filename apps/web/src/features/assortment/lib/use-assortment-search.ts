import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  type FilterSearch,
  useFilterSearch,
  useSettingsDefaults,
} from '../../../components/filters/index.js';
import { settingsKey } from '../../../lib/settings.js';
import { type AssortmentScope, assortmentKeys } from '../api/queries.js';

export interface AssortmentSearch {
  search: FilterSearch;
  scope: AssortmentScope;
  currency: string;
  /** The settings / license are still loading. */
  preparing: boolean;
}

/**
 * Filters of an assortment screen: the URL's filters completed with the user's settings (pivot, currency,
 * competitors from the top bar) and validated as assortment (seed 001 §5: 'Divisa' and 'eCommerce').
 */
export function useAssortmentSearch(opts: { resetKeys?: readonly string[]; onClearItems?: () => void } = {}) {
  const { settings, defaults, ready } = useSettingsDefaults();
  const queryClient = useQueryClient();
  const search = useFilterSearch({
    kind: 'assortment',
    defaults,
    ready,
    resetKeys: opts.resetKeys,
    onClearItems: opts.onClearItems,
    onResubmit: () => void queryClient.invalidateQueries({ queryKey: assortmentKeys.all }),
  });
  const scope: AssortmentScope = useMemo(
    () => ({ settings: settingsKey(settings), pivotId: settings.pivotId, filters: search.filters }),
    [settings, search.filters],
  );
  return {
    search,
    scope,
    currency: (search.filters?.currency as string | undefined) ?? settings.currency,
    preparing: !ready,
  } satisfies AssortmentSearch;
}
