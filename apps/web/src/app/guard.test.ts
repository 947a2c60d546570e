import { APP_VERSION } from '@vigia/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { completeLogin } from '../lib/session.js';
import { localStore, MemoryStorage, STORAGE_KEYS, setStoresForTesting } from '../lib/storage.js';
import { guardDecision, runGuard } from './guard.js';

const base = {
  storedVersion: APP_VERSION,
  currentVersion: APP_VERSION,
  loggedIn: true,
  requiresAuth: true,
  path: '/app/',
};

describe('guardDecision', () => {
  it('a different stored version is replaced and sends the user to /login', () => {
    expect(guardDecision({ ...base, storedVersion: '1.7.20' })).toEqual({
      storeVersion: true,
      redirectTo: '/login',
    });
  });
  it('a first visit (no stored version) stores it and goes on, so an e-mailed link works on a new device', () => {
    const publicPage = { ...base, storedVersion: null, loggedIn: false, requiresAuth: false };
    expect(guardDecision({ ...publicPage, path: '/password/reset/confirm/' })).toEqual({
      storeVersion: true,
      redirectTo: null,
    });
    // a page that needs login still needs it
    expect(guardDecision({ ...base, storedVersion: null, loggedIn: false })).toEqual({
      storeVersion: true,
      redirectTo: '/login',
    });
  });
  it('at /login a version change only stores the version', () => {
    expect(guardDecision({ ...base, storedVersion: '1.0.0', path: '/login' })).toEqual({
      storeVersion: true,
      redirectTo: null,
    });
  });
  it('a route that needs login sends a signed-out user to /login', () => {
    expect(guardDecision({ ...base, loggedIn: false })).toEqual({
      storeVersion: false,
      redirectTo: '/login',
    });
  });
  it('lets signed-in users and public routes through', () => {
    expect(guardDecision(base)).toEqual({ storeVersion: false, redirectTo: null });
    expect(guardDecision({ ...base, loggedIn: false, requiresAuth: false, path: '/reset-password' })).toEqual(
      {
        storeVersion: false,
        redirectTo: null,
      },
    );
  });
});

describe('runGuard', () => {
  beforeEach(() => setStoresForTesting(new MemoryStorage()));
  it('stores the version on first visit, then checks the session', () => {
    completeLogin({
      token: 't',
      user: { name: 'A', email: 'a@b.cl', timezone: 'America/Santiago', pivot: null, currency: null },
    });
    expect(runGuard('/app/', true)).toBe('/login');
    expect(localStore().getString(STORAGE_KEYS.version)).toBe(APP_VERSION);
    expect(runGuard('/app/', true)).toBeNull();
  });
});
