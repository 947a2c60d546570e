/** Fixed paths of the shell (seed 000 §2). Screen paths live in app/routes.ts. */
export const PATHS = {
  login: '/login',
  resetPassword: '/reset-password',
  resetPasswordConfirm: '/password/reset/confirm/',
  dependenciesLoader: '/dependencies-loader',
  home: '/app/',
} as const;

/** Absolute path of a screen under /app/ ('dpm-by-brand' → '/app/dpm-by-brand'). */
export function appPath(path: string): string {
  return path === '' ? PATHS.home : `/app/${path.replace(/^\/+/, '')}`;
}

/** Query parameter of /login (and /dependencies-loader) holding where to go back after login. */
export const RETURN_PARAM = 'next';

/**
 * The path+query to go back to after login, or null: only a same-origin path inside the app frame
 * (/app/…) is accepted — never another origin (//evil.example, https://…), a scheme or another page.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, 'http://vigia.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://vigia.invalid') return null;
  if (url.pathname !== '/app' && !url.pathname.startsWith('/app/')) return null;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Home is where login goes anyway: no parameter needed.
  return target === PATHS.home || target === '/app' ? null : target;
}

/** `base` (/login, /dependencies-loader) carrying the page to return to, when there is one worth keeping. */
export function withReturnPath(base: string, target: string | null | undefined): string {
  const safe = safeReturnPath(target);
  return safe ? `${base}?${new URLSearchParams({ [RETURN_PARAM]: safe })}` : base;
}
