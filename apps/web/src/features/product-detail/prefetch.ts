import { cachedMarketZone } from '../../lib/admin.js';
import { queryClient } from '../../lib/query-client.js';
import { getToken, getUser } from '../../lib/session.js';
import { readUserSettings } from '../../lib/settings.js';
import { localStore } from '../../lib/storage.js';
import { type DetailScope, detailQueries } from './api/queries.js';
import { defaultPeriod } from './period.js';

/**
 * Starts the three loads of product/{id} while the app is still fetching the license and the page's
 * code, so that they do not wait for the first render (on a full page load that is ~300 ms here).
 * It uses the user's settled settings as stored; when those turn out to differ from the ones in force
 * (e.g. a seller left the license), the page's own queries have another key and load as usual. Nothing
 * is done without a session or before the settings were first settled.
 */
export function prefetchProductDetail(id: number): void {
  const user = getUser();
  if (!getToken() || !user || !Number.isInteger(id) || id <= 0) return;
  const stored = readUserSettings(localStore(), user.email);
  if (!stored?.settedUserSettings || stored.seller === null || !stored.currency) return;
  const scope: DetailScope = {
    pivotId: stored.seller,
    currency: stored.currency,
    sellers: stored.selectedSellers,
  };
  void queryClient.prefetchQuery(detailQueries.match(id, scope));
  void queryClient.prefetchQuery(detailQueries.info(id, scope));
  void queryClient.prefetchQuery(
    detailQueries.history(id, defaultPeriod(new Date(), cachedMarketZone(queryClient)), scope),
  );
}
