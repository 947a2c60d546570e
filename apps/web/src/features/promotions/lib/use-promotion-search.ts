import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PRICE_MODE } from '@vigia/domain';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type FilterSearch, useFilterSearch } from '../../../components/filters/index.js';
import { licenseQueries, useLicense } from '../../../lib/license.js';
import { settingsKey, useUserSettings } from '../../../lib/settings.js';
import { type PromotionScope, promotionKeys } from '../api/queries.js';

export interface PromotionSearch {
  search: FilterSearch;
  scope: PromotionScope;
  currency: string;
  /** The settings / license are still loading. */
  preparing: boolean;
  /** invalidFields: the filters are invalid, nothing was requested (seed 001 §4). */
  invalidFields: boolean;
}

/**
 * Filters of a promotions screen: the URL's filters completed with the user's settings (pivot, currency,
 * competitors), validated as promotions filters (currency 'Divisa', sellers 'eCommerce' and
 * classifications 'Clasificaciones' required) before anything is sent.
 */
export function usePromotionSearch(): PromotionSearch {
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
  // Arriving with no filter at all (menu, home or dashboard card): start from the license's root
  // classifications, so that the screen shows something; emptying the field is then 'Clasificaciones'
  // required, and nothing is sent.
  const [params, setParams] = useSearchParams();
  const tree = useQuery(licenseQueries.classifications());
  const roots = (tree.data ?? []).map((n) => n.id).join(',');
  useEffect(() => {
    if (!roots || params.toString() !== '') return;
    setParams(new URLSearchParams({ classificationsIds: roots }), { replace: true });
  }, [roots, params, setParams]);
  const search = useFilterSearch({
    kind: 'promotions',
    defaults,
    ready,
    onResubmit: () => void queryClient.invalidateQueries({ queryKey: promotionKeys.all }),
  });
  const scope = useMemo<PromotionScope>(
    () => ({ settings: settingsKey(settings), pivotId: settings.pivotId, filters: search.filters }),
    [settings, search.filters],
  );
  return {
    search,
    scope,
    currency: (search.filters?.currency as string | undefined) ?? settings.currency,
    preparing: !ready,
    invalidFields: ready && !search.filters,
  };
}
