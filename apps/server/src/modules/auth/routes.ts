import { authRoutes as defs, MESSAGES, type SessionUser } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { withTransaction } from '../../db/database.js';
import { badRequest, unauthorized } from '../../lib/errors.js';
import {
  MAX_SESSION_SECONDS,
  newSessionId,
  signSessionToken,
  signToken,
  verifyToken,
} from '../../lib/jwt.js';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from '../../lib/password.js';
import { registerRoute } from '../../lib/route.js';
import { disconnectSession, disconnectUser } from '../../platform/exporter/index.js';
import { enqueueEmail } from '../../platform/mail/index.js';
import { loadPrincipal } from '../../plugins/auth.js';
import {
  findUsableResetToken,
  findUserByEmail,
  insertResetToken,
  type LoginUserRow,
  retireResetTokens,
  setPasswordHash,
} from './queries.js';
import { keyBy, rateLimits } from './rate-limit.js';
import {
  hashResetToken,
  newResetToken,
  passwordResetEmail,
  RESET_TOKEN_TTL_SECONDS,
  resetLink,
} from './reset-email.js';

export function sessionUserOf(
  u: Pick<LoginUserRow, 'name' | 'email' | 'timezone' | 'currency' | 'pivot_id' | 'pivot_name'>,
): SessionUser {
  return {
    name: u.name,
    email: u.email,
    timezone: u.timezone,
    pivot: u.pivot_id !== null ? { id: u.pivot_id, name: u.pivot_name ?? '' } : null,
    currency: u.currency,
  };
}

const invalidCredentials = () => badRequest(MESSAGES.wrongCredentials, undefined, 'invalid_credentials');
const invalidResetToken = () => badRequest(MESSAGES.resetFailed, 'token', 'invalid_token');

/** Parses the `uid` of a reset link (the user id); anything else is no user. */
function parseUid(uid: string): number | null {
  if (!/^\d{1,10}$/.test(uid)) return null;
  const id = Number(uid);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/**
 * Session endpoints of seed 000 §7 (no Authorization header): login, token refresh, password-reset
 * request and confirmation.
 */
export default async function authRoutes(app: FastifyInstance) {
  const { config, db } = app.deps;
  const RATE_LIMITS = rateLimits(config.LOGIN_RATE_LIMIT_PER_MINUTE);
  const tokenFor = (u: { id: number; org_id: number; token_version: number }) =>
    signSessionToken(
      { sub: u.id, org: u.org_id, ver: u.token_version },
      config.JWT_SECRET,
      config.TOKEN_TTL_SECONDS,
    );
  const bodyEmail = (req: { body: unknown }) =>
    (req.body as { email?: string } | undefined)?.email?.toLowerCase();

  registerRoute(
    app,
    defs.login,
    async (req) => {
      const { email, password } = req.body;
      const user = await findUserByEmail(db.pool, email);
      // An unknown address costs the same scrypt as a known one: timing does not reveal accounts.
      const matches = await verifyPassword(password, user?.password_hash ?? (await DUMMY_HASH_PROMISE));
      if (!user || !matches || !user.is_active) throw invalidCredentials();
      return { token: tokenFor(user), user: sessionUserOf(user) };
    },
    {
      config: { rateLimit: RATE_LIMITS.loginPerIp },
      preHandler: [keyBy(app, RATE_LIMITS.loginPerEmail, 'login-email', bodyEmail)],
    },
  );

  registerRoute(
    app,
    defs.refresh,
    async (req) => {
      const claims = verifyToken(req.body.token, config.JWT_SECRET);
      if (!claims) throw unauthorized();
      // Revoked (password changed → token_version bumped; session ended by logout) or inactive users
      // get no new token.
      const principal = await loadPrincipal(db.pool, claims);
      if (!principal) throw unauthorized();
      // The same session (sid) and its start: the chain ends with it, MAX_SESSION_SECONDS after login
      // (verifyToken refuses older ones; signToken caps the expiry).
      return {
        token: signToken(
          {
            sub: principal.userId,
            org: principal.orgId,
            ver: claims.ver,
            sid: claims.sid ?? newSessionId(),
            sat: claims.sat ?? claims.iat,
          },
          config.JWT_SECRET,
          config.TOKEN_TTL_SECONDS,
        ),
      };
    },
    { config: { rateLimit: RATE_LIMITS.refreshPerIp } },
  );

  registerRoute(
    app,
    defs.logout,
    async (req) => {
      const claims = verifyToken(req.body.token, config.JWT_SECRET);
      // An expired or unknown token has nothing left to revoke (no refresh accepts it).
      if (claims?.sid) {
        await db.pool.query(
          `insert into revoked_sessions (sid, user_id, expires_at)
           values ($1, $2, to_timestamp($3)) on conflict (sid) do nothing`,
          [claims.sid, claims.sub, (claims.sat ?? claims.iat) + MAX_SESSION_SECONDS],
        );
        await db.pool.query('delete from revoked_sessions where expires_at < now()');
        disconnectSession(app, claims.sub, claims.sid);
      }
      return { detail: 'Sesión cerrada' };
    },
    { config: { rateLimit: RATE_LIMITS.logoutPerIp } },
  );

  registerRoute(
    app,
    defs.passwordReset,
    async (req) => {
      const user = await findUserByEmail(db.pool, req.body.email);
      if (user?.is_active) {
        const { token, hash } = newResetToken();
        await withTransaction(db.pool, async (client) => {
          await insertResetToken(client, user.id, hash, RESET_TOKEN_TTL_SECONDS);
          await enqueueEmail(client, passwordResetEmail(user, resetLink(config.PUBLIC_URL, user.id, token)));
        });
      }
      return { detail: MESSAGES.recoverySentBody };
    },
    {
      config: { rateLimit: RATE_LIMITS.resetPerIp },
      preHandler: [keyBy(app, RATE_LIMITS.resetPerEmail, 'reset-email', bodyEmail)],
    },
  );

  registerRoute(
    app,
    defs.passwordResetConfirm,
    async (req) => {
      const { password, uid, token } = req.body;
      const userId = parseUid(uid);
      if (userId === null) throw invalidResetToken();
      const tokenHash = hashResetToken(token);
      // Check first, so that a wrong token costs no scrypt; check again under lock in the transaction.
      if (!(await findUsableResetToken(db.pool, userId, tokenHash))) throw invalidResetToken();
      const passwordHash = await hashPassword(password);
      const done = await withTransaction(db.pool, async (client) => {
        const tokenId = await findUsableResetToken(client, userId, tokenHash, true);
        if (!tokenId) return false;
        await setPasswordHash(client, userId, passwordHash);
        await retireResetTokens(client, userId);
        return true;
      });
      if (!done) throw invalidResetToken();
      disconnectUser(app, userId);
      return { detail: MESSAGES.resetDoneBody };
    },
    { config: { rateLimit: RATE_LIMITS.confirmPerIp } },
  );
}
