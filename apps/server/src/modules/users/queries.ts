import type { Queryable } from '../../db/database.js';

// SQL of the user profile (GET/PATCH /v1/users/me/).

export interface ProfileRow {
  id: number;
  org_id: number;
  name: string;
  email: string;
  timezone: string;
  currency: string | null;
  pivot_id: number | null;
  pivot_name: string | null;
  token_version: number;
  is_admin: boolean;
  market_zone: string;
}

/** A user's profile with the name of the pivot seller. */
export async function getProfile(db: Queryable, userId: number): Promise<ProfileRow | null> {
  const { rows } = await db.query<ProfileRow>(
    `select u.id, u.org_id, u.name, u.email, u.timezone, u.currency, u.pivot_id, s.name as pivot_name,
            u.token_version, u.is_admin, o.market_zone
       from users u
       join organisations o on o.id = u.org_id
       left join sellers s on s.id = u.pivot_id
      where u.id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

export interface ProfileChanges {
  /** undefined = unchanged; null = no pivot. */
  pivotId?: number | null;
  name?: string;
  currency?: string;
  timezone?: string;
}

/** Updates the given profile fields only. */
export async function updateProfile(db: Queryable, userId: number, changes: ProfileChanges): Promise<void> {
  await db.query(
    `update users
        set pivot_id = case when $2 then $3::integer else pivot_id end,
            name = coalesce($4, name),
            currency = coalesce($5, currency),
            timezone = coalesce($6, timezone),
            updated_at = now()
      where id = $1`,
    [
      userId,
      changes.pivotId !== undefined,
      changes.pivotId ?? null,
      changes.name ?? null,
      changes.currency ?? null,
      changes.timezone ?? null,
    ],
  );
}
