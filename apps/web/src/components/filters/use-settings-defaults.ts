import { DEFAULT_PRICE_MODE } from '@vigia/domain';
import { useMemo } from 'react';
import { useLicense } from '../../lib/license.js';
import { type UserSettingsValue, useUserSettings } from '../../lib/settings.js';
import type { SelectionDefaults } from './filter-url.js';

/**
 * What every screen's search completes the URL's filters with: the user's settings (pivot, currency,
 * competitors from the top bar), the default price mode and, for pricing screens, the screen's band.
 * `ready` is false until the license and the pivot are known (nothing is validated or sent before).
 */
export function useSettingsDefaults(mpiValue?: number): {
  settings: UserSettingsValue;
  defaults: SelectionDefaults;
  ready: boolean;
} {
  const settings = useUserSettings();
  const license = useLicense();
  const sellersKey = settings.selectedSellers.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: sellersKey stands for selectedSellers
  const defaults = useMemo(
    () => ({
      currency: settings.currency,
      sellers: settings.selectedSellers,
      pivotId: settings.pivotId,
      priceMode: DEFAULT_PRICE_MODE,
      ...(mpiValue === undefined ? {} : { mpiValue }),
    }),
    [settings.currency, sellersKey, settings.pivotId, mpiValue],
  );
  return { settings, defaults, ready: license.loaded && settings.pivotId !== null };
}
