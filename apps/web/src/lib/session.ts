import { authRoutes, loginResponse, type SessionUser, sessionUser } from '@vigia/domain';
import { useSyncExternalStore } from 'react';
import { connectExporter, disconnectExporter } from './exporter.js';
import { localStore, STORAGE_KEYS } from './storage.js';

// The signed-in session (seed 000 §3–§4): a session record, the token and the user profile, each kept in
// localStorage. Login succeeds only with both token and user; logout removes token, brands and sellers
// and closes the exporter connection.

export type LoginStatus = 'pending' | 'error' | 'successful' | 'logout';

export interface SessionRecord {
  isLoggedIn: boolean;
  loginStatus: LoginStatus;
  /** The seed names this flag; its use is not shown. Kept for the record. */
  updateRequired: boolean;
}

export interface SessionSnapshot extends SessionRecord {
  token: string | null;
  user: SessionUser | null;
}

const LOGGED_OUT: SessionRecord = { isLoggedIn: false, loginStatus: 'logout', updateRequired: false };

const listeners = new Set<() => void>();
let snapshot: SessionSnapshot | null = null;

function emit(): void {
  snapshot = null;
  for (const l of listeners) l();
}

function readRecord(): SessionRecord {
  return { ...LOGGED_OUT, ...localStore().get<Partial<SessionRecord>>(STORAGE_KEYS.session, {}) };
}

function writeRecord(patch: Partial<SessionRecord>): void {
  localStore().set(STORAGE_KEYS.session, { ...readRecord(), ...patch });
}

export function getToken(): string | null {
  return localStore().getString(STORAGE_KEYS.token);
}

/** Stores a token (login, refresh, password change) and (re)opens the exporter connection with it. */
export function setToken(token: string): void {
  localStore().setString(STORAGE_KEYS.token, token);
  connectExporter(token);
  emit();
}

export function getUser(): SessionUser | null {
  const parsed = sessionUser.safeParse(localStore().get<unknown>(STORAGE_KEYS.user, null));
  return parsed.success ? parsed.data : null;
}

/** Updates the stored user profile (after a profile save). */
export function setUser(user: SessionUser): void {
  localStore().set(STORAGE_KEYS.user, user);
  emit();
}

export function getSession(): SessionSnapshot {
  snapshot ??= { ...readRecord(), token: getToken(), user: getUser() };
  return snapshot;
}

/** Logged in = the record says so and both token and user are present. */
export function isLoggedIn(): boolean {
  const s = getSession();
  return s.isLoggedIn && s.token !== null && s.user !== null;
}

export function setLoginStatus(loginStatus: LoginStatus): void {
  writeRecord({ loginStatus, ...(loginStatus === 'successful' ? {} : { isLoggedIn: false }) });
  emit();
}

/**
 * Completes a login with the server's answer. Succeeds only when it carries both token and user
 * (seed 000 §4); otherwise the login state is reset and false is returned.
 */
export function completeLogin(response: unknown): boolean {
  const parsed = loginResponse.safeParse(response);
  if (!parsed.success || !parsed.data.token || !parsed.data.user) {
    writeRecord({ isLoggedIn: false, loginStatus: 'error' });
    emit();
    return false;
  }
  localStore().set(STORAGE_KEYS.user, parsed.data.user);
  writeRecord({ isLoggedIn: true, loginStatus: 'successful' });
  setToken(parsed.data.token);
  return true;
}

/**
 * Logout: removes token, brands and sellers and closes the exporter connection. The query cache is
 * emptied by the login screen once the signed-in screens are gone (clearing it under them would make
 * them refetch without a token).
 */
export function logout(): void {
  // The server revokes the token and its refresh chain (a copy of it stolen meanwhile stops working):
  // fire and forget, kept alive across the navigation to /login; the token is in the body, so this
  // never triggers a refresh.
  const token = getToken();
  if (token && typeof fetch === 'function')
    void fetch(authRoutes.logout.path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      keepalive: true,
    }).catch(() => {});
  // The seed's token, brands and sellers — and the user's profile (name, e-mail): nothing personal is
  // left in the browser after logout.
  localStore().remove(STORAGE_KEYS.token, STORAGE_KEYS.brands, STORAGE_KEYS.sellers, STORAGE_KEYS.user);
  writeRecord(LOGGED_OUT);
  disconnectExporter();
  emit();
}

/** A session that can no longer be refreshed: same clean-up as a logout. */
export function clearSession(): void {
  logout();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** React view of the session; re-renders on login, logout, token or profile changes. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

// Another tab logging in or out changes the same storage.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key.startsWith('vigia.')) emit();
  });
}
