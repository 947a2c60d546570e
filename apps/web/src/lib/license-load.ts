import type { QueryClient } from '@tanstack/react-query';
import { BRAND_INPUTS, CORE_LICENSE_QUERIES, licenseQueries } from './license.js';
import { getUser } from './session.js';
import { readUserSettings, resolveUserSettings } from './settings.js';
import { localStore } from './storage.js';

// The license data a session starts with (seed 000 §3, §7), asked as early as possible (issue 31 item
// 11): the six lists at once, the brands as soon as the lists they depend on have answered. Login starts
// it as soon as the token is in; /dependencies-loader runs the same requests (joining those in flight)
// and shows their progress.

/**
 * Brands of the user's pivot and competitors (from the settings, completed with the license lists);
 * true once answered (or nothing to ask). Waits for the currencies, pivots and sellers first.
 */
export async function loadBrands(client: QueryClient): Promise<boolean> {
  // a list that failed leaves the settings to their defaults (as the loader always did)
  await Promise.allSettled(BRAND_INPUTS.map((q) => q.fetch(client)));
  const user = getUser();
  const pivots = client.getQueryData(licenseQueries.pivots().queryKey);
  const currencies = client.getQueryData(licenseQueries.currencies().queryKey);
  const sellers = client.getQueryData(licenseQueries.sellers().queryKey);
  const settings = resolveUserSettings(user ? readUserSettings(localStore(), user.email) : null, user, {
    pivots: pivots?.length ? pivots.map((p) => p.id) : null,
    currencies: currencies?.length ? currencies.map((c) => c.acronym) : null,
    sellers: sellers?.length ? sellers.map((s) => s.id) : null,
  });
  const ids = [...(settings.seller !== null ? [settings.seller] : []), ...settings.selectedSellers];
  if (ids.length) await client.fetchQuery(licenseQueries.brands(ids));
  return true;
}

/** Starts every request of the session's license data without waiting (errors: the loader's to show). */
export function startLicenseLoad(client: QueryClient): void {
  for (const q of CORE_LICENSE_QUERIES) q.fetch(client).catch(() => undefined);
  loadBrands(client).catch(() => undefined);
  client.prefetchQuery(licenseQueries.classificationTree()).catch(() => undefined);
}
