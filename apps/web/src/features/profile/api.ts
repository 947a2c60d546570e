import { queryOptions } from '@tanstack/react-query';
import { type UserProfile, userPatchBody, userPatchResponse, userProfile } from '@vigia/domain';
import { apiGet, apiPatch } from '../../lib/api-client.js';

// GET/PATCH /v1/users/me/ (seed 000 §7). The screen shows the seed's own messages, so the client's
// snackbar is silenced here.

export const profileKeys = { me: () => ['users', 'me'] as const };

export const profileQuery = () =>
  queryOptions({
    queryKey: profileKeys.me(),
    queryFn: () => apiGet('/v1/users/me/', undefined, { schema: userProfile, notify: false }),
    staleTime: 0,
  });

export type ProfilePatch = {
  pivot_pk: number | null;
  name: string;
  currency: string | null;
  timezone: string;
};

/** Profile save: pivot_pk, name, currency, timezone. Returns the updated profile when the server sends it. */
export async function saveProfile(patch: ProfilePatch): Promise<UserProfile | null> {
  const body = userPatchBody.parse({
    pivot_pk: patch.pivot_pk,
    name: patch.name,
    timezone: patch.timezone,
    ...(patch.currency ? { currency: patch.currency } : {}),
  });
  const res = await apiPatch('/v1/users/me/', body, { notify: false });
  const parsed = userPatchResponse.safeParse(res);
  return parsed.success ? parsed.data : null;
}

/** Password change: only `password`. Older tokens are revoked, so the answer carries a fresh token. */
export async function changePassword(password: string): Promise<string | null> {
  const res = await apiPatch('/v1/users/me/', { password }, { notify: false });
  const parsed = userPatchResponse.safeParse(res);
  return parsed.success ? (parsed.data.token ?? null) : null;
}
