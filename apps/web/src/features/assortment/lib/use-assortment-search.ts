import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PRICE_MODE } from '@vigia/domain';
import { useMemo } from 'react';
import { type FilterSearch, useFilterSearch } from '../../../components/filters/index.js';
import { useLicense } from '../../../lib/license.js';
import { settingsKey, useUserSettings } from '../../../lib/settings.js';
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
  const settings = useUserSettings();
  const license = useLicense();
  const queryClient = useQueryClient();
  const sellersKey = settings.selectedSellers.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: sellersKey stands for selectedSellers
  const defaults = useMemo(
    () => ({
      currency: settings.currency,
      sellers: settings.selectedSellers,
      pivotId: settings.pivotId,
      priceMode: DEFAULT_PRICE_MODE,
    }),
    [settings.currency, sellersKey, settings.pivotId],
  );
  const ready = license.loaded && settings.pivotId !== null;
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
