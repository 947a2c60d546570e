import { beforeEach, describe, expect, it } from 'vitest';
import { completeLogin, getSession, getToken, getUser, isLoggedIn, logout } from './session.js';
import { localStore, MemoryStorage, STORAGE_KEYS, setStoresForTesting } from './storage.js';

const user = {
  name: 'Ana',
  email: 'ana@example.com',
  timezone: 'America/Santiago',
  pivot: { id: 116, name: 'Mi tienda' },
  currency: 'CLP',
};

beforeEach(() => setStoresForTesting(new MemoryStorage()));

describe('session', () => {
  it('a login needs both token and user', () => {
    expect(completeLogin({ token: 'abc' })).toBe(false);
    expect(completeLogin({ user })).toBe(false);
    expect(isLoggedIn()).toBe(false);
    expect(getSession().loginStatus).toBe('error');

    expect(completeLogin({ token: 'abc', user })).toBe(true);
    expect(isLoggedIn()).toBe(true);
    expect(getToken()).toBe('abc');
    expect(getUser()).toEqual(user);
    expect(getSession().loginStatus).toBe('successful');
  });

  it('logout removes token, brands, sellers and the user profile', () => {
    completeLogin({ token: 'abc', user });
    localStore().set(STORAGE_KEYS.brands, [1]);
    localStore().set(STORAGE_KEYS.sellers, [2]);
    logout();
    expect(isLoggedIn()).toBe(false);
    expect(getToken()).toBeNull();
    expect(localStore().getString(STORAGE_KEYS.brands)).toBeNull();
    expect(localStore().getString(STORAGE_KEYS.sellers)).toBeNull();
    expect(localStore().getString(STORAGE_KEYS.user)).toBeNull();
    expect(getUser()).toBeNull();
    expect(getSession().loginStatus).toBe('logout');
  });
});
