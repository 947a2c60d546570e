import { describe, expect, it } from 'vitest';
import {
  EMPTY_SETTINGS,
  readUserSettings,
  resolveUserSettings,
  type UserSettings,
  writeUserSettings,
} from './settings.js';
import { createJsonStore, MemoryStorage, STORAGE_KEYS } from './storage.js';

const user = { pivot: { id: 116, name: 'Mi tienda' }, currency: 'CLP' };
const limits = { pivots: [116, 5], currencies: ['CLP', 'USD'], sellers: [5, 7, 9, 116] };

describe('settings storage', () => {
  it('keeps settings per user e-mail (case-insensitive)', () => {
    const store = createJsonStore(new MemoryStorage());
    const a: UserSettings = { seller: 116, currency: 'USD', selectedSellers: [7], settedUserSettings: true };
    writeUserSettings(store, 'Ana@Example.com', a);
    writeUserSettings(store, 'luis@example.com', { ...a, seller: 5 });
    expect(readUserSettings(store, 'ana@example.com')).toEqual(a);
    expect(readUserSettings(store, 'luis@example.com')?.seller).toBe(5);
    expect(readUserSettings(store, 'otra@example.com')).toBeNull();
    expect(Object.keys(store.get(STORAGE_KEYS.userSettings, {}))).toEqual([
      'ana@example.com',
      'luis@example.com',
    ]);
  });
});

describe('resolveUserSettings', () => {
  it('defaults: the user pivot and currency, every licensed seller but the pivot', () => {
    expect(resolveUserSettings(null, user, limits)).toEqual({
      seller: 116,
      currency: 'CLP',
      selectedSellers: [5, 7, 9],
      settedUserSettings: false,
    });
  });

  it('keeps stored choices that the license allows', () => {
    const stored = { seller: 5, currency: 'USD', selectedSellers: [7, 116], settedUserSettings: true };
    expect(resolveUserSettings(stored, user, limits)).toEqual({
      seller: 5,
      currency: 'USD',
      selectedSellers: [7, 116],
      settedUserSettings: true,
    });
  });

  it('drops what the license no longer grants', () => {
    const stored = { seller: 999, currency: 'PEN', selectedSellers: [7, 42], settedUserSettings: true };
    const r = resolveUserSettings(stored, user, limits);
    expect(r.seller).toBe(116);
    expect(r.currency).toBe('CLP');
    expect(r.selectedSellers).toEqual([7]);
  });

  it('falls back to every seller when all chosen ones left the license', () => {
    const stored = { seller: 116, currency: 'CLP', selectedSellers: [42], settedUserSettings: true };
    expect(resolveUserSettings(stored, user, limits).selectedSellers).toEqual([5, 7, 9]);
  });

  it('respects an explicit empty choice', () => {
    const stored = { seller: 116, currency: 'CLP', selectedSellers: [], settedUserSettings: true };
    expect(resolveUserSettings(stored, user, limits).selectedSellers).toEqual([]);
  });

  it('without a user pivot/currency uses the first licensed pivot and CLP', () => {
    const r = resolveUserSettings(
      null,
      { pivot: null, currency: null },
      { ...limits, currencies: ['USD', 'CLP'] },
    );
    expect(r.seller).toBe(116);
    expect(r.currency).toBe('CLP');
    const r2 = resolveUserSettings(null, null, { ...limits, currencies: ['USD'] });
    expect(r2.currency).toBe('USD');
  });

  it('filters nothing while the license is unknown', () => {
    const stored = {
      ...EMPTY_SETTINGS,
      seller: 3,
      currency: 'PEN',
      selectedSellers: [8],
      settedUserSettings: true,
    };
    expect(resolveUserSettings(stored, user, { pivots: null, currencies: null, sellers: null })).toEqual(
      stored,
    );
  });
});
