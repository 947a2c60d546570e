import type { SessionUser } from '@vigia/domain';
import {
  createContext,
  createElement,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { type LicensePivot, useLicense } from './license.js';
import { useSession } from './session.js';
import { type JsonStore, localStore, STORAGE_KEYS } from './storage.js';

// User settings (seed 000 §3), kept per user e-mail in localStorage: the selected pivot seller, the
// currency and the competitors to compare against. The top bar changes them; every screen reads them
// with useUserSettings() and puts them in its query keys, so a change re-runs the current search.
// Kept after logout on purpose (the seed's "per user e-mail"): the next login on this browser finds its
// choices again; the e-mail stays only as a key. See docs/architecture.md "Decisions".

export interface UserSettings {
  /** Selected pivot seller id. */
  seller: number | null;
  currency: string | null;
  /** Competitor seller ids. */
  selectedSellers: number[];
  /** True once the user (or the first start) has settled the settings. */
  settedUserSettings: boolean;
}

export const EMPTY_SETTINGS: UserSettings = {
  seller: null,
  currency: null,
  selectedSellers: [],
  settedUserSettings: false,
};

export const FALLBACK_CURRENCY = 'CLP';

type SettingsByEmail = Record<string, UserSettings>;

function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function readUserSettings(store: JsonStore, email: string): UserSettings | null {
  const all = store.get<SettingsByEmail>(STORAGE_KEYS.userSettings, {});
  const found = all[emailKey(email)];
  return found ? { ...EMPTY_SETTINGS, ...found } : null;
}

export function writeUserSettings(store: JsonStore, email: string, settings: UserSettings): void {
  const all = store.get<SettingsByEmail>(STORAGE_KEYS.userSettings, {});
  all[emailKey(email)] = settings;
  store.set(STORAGE_KEYS.userSettings, all);
}

/** What the license allows; a null list means "not loaded", and then nothing is filtered. */
export interface LicenseLimits {
  pivots: number[] | null;
  currencies: string[] | null;
  sellers: number[] | null;
}

/**
 * The settings in force: the stored ones kept within the license, defaults otherwise
 * (pivot: the user's, else the first licensed; currency: the user's, else CLP, else the first licensed;
 * competitors: every licensed seller but the pivot). The pivot is never its own competitor.
 */
export function resolveUserSettings(
  stored: UserSettings | null,
  user: Pick<SessionUser, 'pivot' | 'currency'> | null,
  limits: LicenseLimits,
): UserSettings {
  const s = stored ?? EMPTY_SETTINGS;
  const allowPivot = (id: number | null | undefined): id is number =>
    typeof id === 'number' && (limits.pivots === null || limits.pivots.includes(id));
  const allowCurrency = (c: string | null | undefined): c is string =>
    typeof c === 'string' && c !== '' && (limits.currencies === null || limits.currencies.includes(c));

  const seller = allowPivot(s.seller)
    ? s.seller
    : allowPivot(user?.pivot?.id)
      ? (user?.pivot?.id as number)
      : (limits.pivots?.[0] ?? null);

  const currency = allowCurrency(s.currency)
    ? s.currency
    : allowCurrency(user?.currency)
      ? (user?.currency as string)
      : allowCurrency(FALLBACK_CURRENCY)
        ? FALLBACK_CURRENCY
        : (limits.currencies?.[0] ?? null);

  const inLicense = (id: number) => (limits.sellers === null || limits.sellers.includes(id)) && id !== seller;
  const kept = s.selectedSellers.filter(inLicense);
  const everyone = (limits.sellers ?? []).filter(inLicense);
  // Never settled, or everything chosen fell out of the license: compare against every licensed seller.
  const selectedSellers =
    !s.settedUserSettings || (kept.length === 0 && s.selectedSellers.length > 0) ? everyone : kept;

  return { seller, currency, selectedSellers, settedUserSettings: s.settedUserSettings };
}

export interface UserSettingsValue {
  pivotId: number | null;
  /** The selected pivot as the license describes it. */
  pivot: LicensePivot | null;
  currency: string;
  selectedSellers: number[];
  settedUserSettings: boolean;
  setPivotId: (id: number) => void;
  setCurrency: (currency: string) => void;
  setSelectedSellers: (ids: number[]) => void;
}

const SettingsContext = createContext<UserSettingsValue | null>(null);

/** Provides the settings of the signed-in user (mounted by the /app layout). */
export function UserSettingsProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const license = useLicense();
  const email = user?.email ?? '';
  const [stored, setStored] = useState<UserSettings | null>(() =>
    email ? readUserSettings(localStore(), email) : null,
  );

  useEffect(() => {
    setStored(email ? readUserSettings(localStore(), email) : null);
  }, [email]);

  const limits: LicenseLimits = useMemo(
    () =>
      license.loaded
        ? {
            pivots: license.pivots.length ? license.pivots.map((p) => p.id) : null,
            currencies: license.currencies.length ? license.currencies.map((c) => c.acronym) : null,
            sellers: license.sellers.length ? license.sellers.map((s) => s.id) : null,
          }
        : { pivots: null, currencies: null, sellers: null },
    [license.loaded, license.pivots, license.currencies, license.sellers],
  );

  const resolved = useMemo(() => resolveUserSettings(stored, user, limits), [stored, user, limits]);

  // First start with the license known: settle the defaults so they stay put.
  useEffect(() => {
    if (email && license.loaded && !resolved.settedUserSettings && limits.sellers !== null) {
      const settled = { ...resolved, settedUserSettings: true };
      writeUserSettings(localStore(), email, settled);
      setStored(settled);
    }
  }, [email, license.loaded, resolved, limits.sellers]);

  const update = useCallback(
    (patch: Partial<UserSettings>) => {
      if (!email) return;
      const next = { ...resolved, ...patch, settedUserSettings: true };
      writeUserSettings(localStore(), email, next);
      setStored(next);
    },
    [email, resolved],
  );

  const value = useMemo<UserSettingsValue>(
    () => ({
      pivotId: resolved.seller,
      pivot: license.pivots.find((p) => p.id === resolved.seller) ?? null,
      currency: resolved.currency ?? FALLBACK_CURRENCY,
      selectedSellers: resolved.selectedSellers,
      settedUserSettings: resolved.settedUserSettings,
      setPivotId: (id) =>
        update({ seller: id, selectedSellers: resolved.selectedSellers.filter((s) => s !== id) }),
      setCurrency: (currency) => update({ currency }),
      setSelectedSellers: (ids) => update({ selectedSellers: [...new Set(ids)] }),
    }),
    [resolved, license.pivots, update],
  );

  return createElement(SettingsContext.Provider, { value }, children);
}

/** The signed-in user's settings. Include `settingsKey(settings)` in query keys. */
export function useUserSettings(): UserSettingsValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error('useUserSettings() must be used inside the /app layout (UserSettingsProvider)');
  return value;
}

/** The part of the settings a search depends on, for query keys: [pivotId, currency, selectedSellers]. */
export function settingsKey(s: Pick<UserSettingsValue, 'pivotId' | 'currency' | 'selectedSellers'>) {
  return [s.pivotId, s.currency, [...s.selectedSellers].sort((a, b) => a - b)] as const;
}
