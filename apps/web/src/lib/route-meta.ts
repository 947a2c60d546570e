import type { ModuleCode } from '@vigia/domain';
import { useMatches } from 'react-router';

// Route metadata is data the router hands to every screen (its `handle`); shared UI (page header, shell)
// reads it through this hook, so it depends on lib, not on the app's route registry (app/routes.ts fills
// the handles).

/** Route metadata available to every screen through useMatches(). */
export interface RouteHandle {
  name: string;
  title: string;
  module: ModuleCode | null;
}

/** Metadata (name, title, module) of the deepest matched route that has it. */
export function useRouteMeta(): RouteHandle | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.name) return handle;
  }
  return null;
}
