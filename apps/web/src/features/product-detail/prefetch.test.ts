import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.js';
import { completeLogin } from '../../lib/session.js';
import { resolveUserSettings, writeUserSettings } from '../../lib/settings.js';
import { localStore, MemoryStorage, setStoresForTesting } from '../../lib/storage.js';
import { detailKeys } from './api/queries.js';
import { defaultPeriod } from './period.js';
import { prefetchProductDetail } from './prefetch.js';

const user = {
  name: 'Demo',
  email: 'demo@example.com',
  timezone: 'America/Santiago',
  pivot: { id: 5, name: 'Mercado Central' },
  currency: 'CLP',
};
const keysInCache = () =>
  queryClient
    .getQueryCache()
    .getAll()
    .map((q) => JSON.stringify(q.queryKey));

describe('prefetchProductDetail', () => {
  beforeEach(() => {
    setStoresForTesting(new MemoryStorage());
    queryClient.clear();
    // no server here: the loads fail, quietly; what matters is which queries were started
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('sin red en la prueba'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    queryClient.clear();
  });

  it('does nothing without a session, or before the settings were first settled', () => {
    prefetchProductDetail(42);
    expect(keysInCache()).toEqual([]);
    completeLogin({ token: 't', user });
    prefetchProductDetail(42);
    expect(keysInCache()).toEqual([]);
  });

  it("starts the page's three loads under the keys the page itself will use", () => {
    completeLogin({ token: 't', user });
    const stored = { seller: 5, currency: 'CLP', selectedSellers: [125, 116, 7], settedUserSettings: true };
    writeUserSettings(localStore(), user.email, stored);
    prefetchProductDetail(42);
    // the page's scope: the settings in force once the license is known (here it grants them all)
    const s = resolveUserSettings(stored, user, {
      pivots: [5, 116],
      currencies: ['CLP'],
      sellers: [5, 7, 116, 125],
    });
    const scope = { pivotId: s.seller, currency: s.currency ?? 'CLP', sellers: s.selectedSellers };
    expect(keysInCache().sort()).toEqual(
      [
        detailKeys.match(42, scope),
        detailKeys.info(42, scope),
        detailKeys.history(42, defaultPeriod(), scope),
      ]
        .map((k) => JSON.stringify(k))
        .sort(),
    );
  });

  it('ignores an id that is not a listing id', () => {
    completeLogin({ token: 't', user });
    writeUserSettings(localStore(), user.email, {
      seller: 5,
      currency: 'CLP',
      selectedSellers: [7],
      settedUserSettings: true,
    });
    prefetchProductDetail(Number('abc'));
    prefetchProductDetail(0);
    expect(keysInCache()).toEqual([]);
  });
});
