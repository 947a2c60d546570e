import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  type FilterSearch,
  useFilterSearch,
  useSettingsDefaults,
} from '../../../components/filters/index.js';
import { licenseQueries } from '../../../lib/license.js';
import { settingsKey } from '../../../lib/settings.js';
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
  const { settings, defaults, ready } = useSettingsDefaults();
  const queryClient = useQueryClient();
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
  // Until those classifications are in the URL the filters are not judged: 'Clasificaciones' missing
  // for a moment opened the panel on a phone and flashed the invalid-filters notice.
  const arriving = params.toString() === '' && (tree.isPending || roots !== '');
  const settled = ready && !arriving;
  const search = useFilterSearch({
    kind: 'promotions',
    defaults,
    ready: settled,
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
    preparing: !settled,
    invalidFields: settled && !search.filters,
  };
}
