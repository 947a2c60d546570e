import { useMatches } from 'react-router';
import type { RouteHandle } from './routes.js';

/** Metadata (name, title, module) of the deepest matched route that has it. */
export function useRouteMeta(): RouteHandle | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.name) return handle;
  }
  return null;
}
