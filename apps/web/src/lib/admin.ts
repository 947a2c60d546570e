import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { DEFAULT_TIMEZONE, type UserProfile, usersRoutes } from '@vigia/domain';
import { callRoute } from './api-client.js';

// What the shell needs of the signed-in user's profile (GET /v1/users/me/), read once per session (the
// key starts with 'license': a logout clears it): whether the user administers the organisation (the
// menu shows Operaciones to administrators only; the server refuses the others anyway) and the
// organisation's market zone (what "today" is for the periods the screens ask for: the server refuses a
// period that ends after its today).

export const meKeys = { me: () => ['license', 'me'] as const };

const meQuery = () =>
  queryOptions({
    queryKey: meKeys.me(),
    queryFn: (): Promise<UserProfile> => callRoute(usersRoutes.me, {}, { notify: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useIsAdmin(): boolean {
  return useQuery({ ...meQuery(), select: (me) => me.is_admin }).data === true;
}

/** The organisation's market zone (the deployment's default until the profile has answered). */
export function useMarketZone(): string {
  return useQuery({ ...meQuery(), select: (me) => me.market_zone }).data ?? DEFAULT_TIMEZONE;
}

/** The market zone as cached (outside components, e.g. a prefetch); the default when not read yet. */
export function cachedMarketZone(client: QueryClient): string {
  return client.getQueryData<UserProfile>(meKeys.me())?.market_zone ?? DEFAULT_TIMEZONE;
}
