import type { Queryable } from '../../db/database.js';

// SQL of the auth module (login, refresh, password reset). Parameterised; one function per question.

export interface LoginUserRow {
  id: number;
  org_id: number;
  email: string;
  name: string;
  password_hash: string;
  timezone: string;
  currency: string | null;
  pivot_id: number | null;
  pivot_name: string | null;
  token_version: number;
  is_active: boolean;
}

/** The user of an e-mail address (case-insensitive, as the unique index), with the pivot's name. */
export async function findUserByEmail(db: Queryable, email: string): Promise<LoginUserRow | null> {
  const { rows } = await db.query<LoginUserRow>(
    `select u.id, u.org_id, u.email, u.name, u.password_hash, u.timezone, u.currency, u.pivot_id,
            s.name as pivot_name, u.token_version, u.is_active
       from users u
       left join sellers s on s.id = u.pivot_id
      where lower(u.email) = lower($1)`,
    [email],
  );
  return rows[0] ?? null;
}

/**
 * Issues a password-reset token (only its sha256 is stored). Any earlier unused token of the user is
 * retired, so only the latest e-mailed link works.
 */
export async function insertResetToken(
  db: Queryable,
  userId: number,
  tokenHash: string,
  ttlSeconds: number,
): Promise<void> {
  await retireResetTokens(db, userId);
  await db.query(
    `insert into password_reset_tokens (user_id, token_hash, expires_at)
     values ($1, $2, now() + $3 * interval '1 second')`,
    [userId, tokenHash, ttlSeconds],
  );
}

/**
 * The id of a usable reset token: this user's, unused, unexpired, and the user still active.
 * With `lock`, the row stays locked until the end of the caller's transaction (single use under races).
 */
export async function findUsableResetToken(
  db: Queryable,
  userId: number,
  tokenHash: string,
  lock = false,
): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `select t.id
       from password_reset_tokens t
       join users u on u.id = t.user_id
      where t.user_id = $1 and t.token_hash = $2
        and t.used_at is null and t.expires_at > now() and u.is_active
      ${lock ? 'for update of t' : ''}`,
    [userId, tokenHash],
  );
  return rows[0]?.id ?? null;
}

/** Marks every unused reset token of a user used (after a reset or any password change). */
export async function retireResetTokens(db: Queryable, userId: number): Promise<void> {
  await db.query('update password_reset_tokens set used_at = now() where user_id = $1 and used_at is null', [
    userId,
  ]);
}

/**
 * Sets a user's password hash and revokes every token issued before (token_version + 1).
 * Returns the new token_version and org.
 */
export async function setPasswordHash(
  db: Queryable,
  userId: number,
  passwordHash: string,
): Promise<{ token_version: number; org_id: number }> {
  const { rows } = await db.query<{ token_version: number; org_id: number }>(
    `update users
        set password_hash = $2, token_version = token_version + 1, updated_at = now()
      where id = $1
      returning token_version, org_id`,
    [userId, passwordHash],
  );
  return rows[0];
}
