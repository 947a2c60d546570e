import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  type FilterSearch,
  useFilterSearch,
  useSettingsDefaults,
} from '../../../components/filters/index.js';
import { useHasModule } from '../../../lib/license.js';
import { settingsKey } from '../../../lib/settings.js';
import { pricingKeys } from '../api/keys.js';
import type { PricingScope } from '../api/queries.js';
import { type SliderModule, usePriceRangeScores } from '../api/queries.js';

export interface PricingSearch {
  search: FilterSearch;
  scope: PricingScope;
  currency: string;
  /** Slider bounds for the filter panel. */
  priceRange: { bounds?: { min: number; max: number }; pending: boolean } | undefined;
  /** The settings / license are still loading. */
  preparing: boolean;
}

/**
 * Filters of a pricing screen: the URL's filters completed with the user's settings (pivot, currency,
 * competitors from the top bar), validated; plus the price-range scores for the slider.
 */
export function usePricingSearch(opts: {
  mpiValue: number;
  resetKeys?: readonly string[];
  onClearItems?: () => void;
}): PricingSearch {
  const { settings, defaults, ready } = useSettingsDefaults(opts.mpiValue);
  const queryClient = useQueryClient();
  const hasNavigation = useHasModule('ecommerce_navigation');
  const hasDpm = useHasModule('dpm');
  const sliderModule: SliderModule | null = hasNavigation ? 'ecommerce_navigation' : hasDpm ? 'dpm' : null;

  const search = useFilterSearch({
    kind: 'pricing',
    defaults,
    ready,
    resetKeys: opts.resetKeys,
    onClearItems: opts.onClearItems,
    onResubmit: () => void queryClient.invalidateQueries({ queryKey: pricingKeys.all }),
  });

  const scope: PricingScope = useMemo(
    () => ({
      settings: settingsKey(settings),
      pivotId: settings.pivotId,
      filters: search.filters,
    }),
    [settings, search.filters],
  );

  const scores = usePriceRangeScores(scope, sliderModule);
  const bounds =
    scores.data && scores.data.min_price !== null && scores.data.max_price !== null
      ? { min: scores.data.min_price, max: scores.data.max_price }
      : undefined;

  return {
    search,
    scope,
    currency: (search.filters?.currency as string | undefined) ?? settings.currency,
    priceRange: sliderModule
      ? { bounds, pending: scores.isPending && scores.fetchStatus !== 'idle' }
      : undefined,
    preparing: !ready,
  };
}
