import { useQuery } from '@tanstack/react-query';
import { usersRoutes } from '@vigia/domain';
import { callRoute } from './api-client.js';

// Whether the signed-in user administers the organisation (profile's is_admin): the menu shows
// Operaciones to administrators only (the server refuses the others anyway).

export const adminKeys = { me: () => ['license', 'is-admin'] as const };

export function useIsAdmin(): boolean {
  const q = useQuery({
    queryKey: adminKeys.me(),
    queryFn: async () => (await callRoute(usersRoutes.me, {}, { notify: false })).is_admin,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return q.data === true;
}
