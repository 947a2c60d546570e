import { queryOptions } from '@tanstack/react-query';
import { type ProfilePatch, type UserProfile, userPatchBody, usersRoutes } from '@vigia/domain';
import { callRoute } from '../../lib/api-client.js';

// The user's profile (seed 000 §7). The screen shows the seed's own messages, so the client's snackbar
// is silenced here.

export const profileKeys = { me: () => ['users', 'me'] as const };

export const profileQuery = () =>
  queryOptions({
    queryKey: profileKeys.me(),
    queryFn: () => callRoute(usersRoutes.me, {}, { notify: false }),
    staleTime: 0,
  });

/** Profile save: pivot_pk, name, currency, timezone. Returns the updated profile. */
export async function saveProfile(patch: ProfilePatch): Promise<UserProfile | null> {
  const body = userPatchBody.parse(patch);
  return callRoute(usersRoutes.updateMe, { body }, { notify: false });
}

/** Password change: only `password`. Older tokens are revoked, so the answer carries a fresh token. */
export async function changePassword(password: string): Promise<string | null> {
  const res = await callRoute(usersRoutes.updateMe, { body: { password } }, { notify: false });
  return res.token ?? null;
}
