import { APP_VERSION } from '@vigia/domain';
import { redirect } from 'react-router';
import { CORE_LICENSE_QUERIES, licenseQueries } from '../lib/license.js';
import { PATHS, withReturnPath } from '../lib/paths.js';
import { queryClient } from '../lib/query-client.js';
import { isLoggedIn } from '../lib/session.js';
import { localStore, STORAGE_KEYS } from '../lib/storage.js';

// Navigation guard (seed 000 §2): a stored version other than 1.7.21 is replaced and the user goes to
// /login; otherwise a route that needs login sends a signed-out user to /login.

export interface GuardInput {
  storedVersion: string | null;
  currentVersion: string;
  loggedIn: boolean;
  requiresAuth: boolean;
  /** Path being opened. */
  path: string;
}

export interface GuardDecision {
  /** Store currentVersion as the new stored version. */
  storeVersion: boolean;
  /** Where to send the user instead, or null to let the navigation through. */
  redirectTo: string | null;
}

export function guardDecision(input: GuardInput): GuardDecision {
  // First visit (nothing stored, no session): nothing stale can exist, so the version is stored and the
  // navigation goes on — otherwise a recovery link opened on a new device would land on /login.
  // A session without a stored version comes from an older build and is treated as a version change.
  if (input.storedVersion === null && !input.loggedIn) {
    const blocked = input.requiresAuth && !input.loggedIn;
    return { storeVersion: true, redirectTo: blocked ? PATHS.login : null };
  }
  if (input.storedVersion !== input.currentVersion) {
    return { storeVersion: true, redirectTo: input.path === PATHS.login ? null : PATHS.login };
  }
  if (input.requiresAuth && !input.loggedIn) return { storeVersion: false, redirectTo: PATHS.login };
  return { storeVersion: false, redirectTo: null };
}

/** Applies the guard to the browser state; returns the redirect path or null. */
export function runGuard(path: string, requiresAuth: boolean): string | null {
  const store = localStore();
  const decision = guardDecision({
    storedVersion: store.getString(STORAGE_KEYS.version),
    currentVersion: APP_VERSION,
    loggedIn: isLoggedIn(),
    requiresAuth,
    path,
  });
  if (decision.storeVersion) store.setString(STORAGE_KEYS.version, APP_VERSION);
  return decision.redirectTo;
}

function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

/** Loader of the routes without login: only the version check. */
export function publicLoader({ request }: { request: Request }) {
  const to = runGuard(pathOf(request), false);
  return to ? redirect(to) : null;
}

/** Loader of /dependencies-loader: login required. */
export function authLoader({ request }: { request: Request }) {
  const to = runGuard(pathOf(request), true);
  return to ? redirect(to) : null;
}

/**
 * Loader of the /app/ layout: login required, then the license data the frame needs (from the cache when
 * /dependencies-loader already fetched it). Loading errors are only logged (seed 000 §8).
 */
export async function appLoader({ request }: { request: Request }) {
  const to = runGuard(pathOf(request), true);
  if (to) {
    // A shared link opened while signed out: /login remembers it and login comes back to it.
    const url = new URL(request.url);
    return redirect(to === PATHS.login ? withReturnPath(to, `${url.pathname}${url.search}`) : to);
  }
  // the licensed classifications every filtered screen judges its link with: asked with the lists, not
  // once they have answered (a reload of Promociones por duración sent its calls 0.76 s in; issue 31 item 11)
  queryClient.prefetchQuery(licenseQueries.classificationTree()).catch(() => undefined);
  const results = await Promise.allSettled(CORE_LICENSE_QUERIES.map((q) => q.ensure(queryClient)));
  for (const r of results)
    if (r.status === 'rejected') console.error('Error cargando datos de la licencia', r.reason);
  return null;
}
