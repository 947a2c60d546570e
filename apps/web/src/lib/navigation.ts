// Lets non-React code (the API client) navigate inside the SPA. The router registers itself at start;
// before that (or in tests) a full-page navigation is used.

type Navigator = (to: string, opts?: { replace?: boolean }) => void;
let navigator: Navigator | null = null;

export function setNavigator(fn: Navigator | null): void {
  navigator = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean }): void {
  if (navigator) navigator(to, opts);
  else if (typeof window !== 'undefined') window.location.assign(to);
}

/** Full reload at a path (the seed's "go to Home and reload"). */
export function reloadAt(path: string): void {
  if (typeof window !== 'undefined') window.location.assign(path);
}

export function currentPath(): string {
  return typeof window !== 'undefined' ? window.location.pathname : '/';
}

/** Path and query of the current page ('/app/dpm-by-brand?brands=18'). */
export function currentPathAndQuery(): string {
  return typeof window !== 'undefined' ? `${window.location.pathname}${window.location.search}` : '/';
}
