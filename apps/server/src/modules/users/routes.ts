import { usersRoutes as defs, type UserProfile } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import { withTransaction } from '../../db/database.js';
import { forbidden, unauthorized } from '../../lib/errors.js';
import { signSessionToken } from '../../lib/jwt.js';
import { hashPassword } from '../../lib/password.js';
import { registerRoute } from '../../lib/route.js';
import { principalOf } from '../../lib/scope.js';
import { disconnectUser } from '../../platform/exporter/index.js';
import { retireResetTokens, setPasswordHash } from '../auth/index.js';
import { getProfile, type ProfileRow, updateProfile } from './queries.js';

function profileOf(u: ProfileRow): UserProfile {
  return {
    pivot: u.pivot_id !== null ? { pk: u.pivot_id, name: u.pivot_name ?? '' } : null,
    pivot_pk: u.pivot_id,
    name: u.name,
    email: u.email,
    currency: u.currency,
    timezone: u.timezone,
    is_admin: u.is_admin,
    market_zone: u.market_zone,
  };
}

/** The signed-in user's profile (seed 000 §3 "User profile fields", §7). */
export default async function usersRoutes(app: FastifyInstance) {
  const { config, db } = app.deps;

  const load = async (userId: number) => {
    const row = await getProfile(db.pool, userId);
    if (!row) throw unauthorized();
    return row;
  };

  registerRoute(app, defs.me, async (req) => profileOf(await load(principalOf(req).userId)));

  registerRoute(app, defs.updateMe, async (req) => {
    const p = principalOf(req);
    const body = req.body;

    if (body.password !== undefined) {
      const passwordHash = await hashPassword(body.password);
      const updated = await withTransaction(db.pool, async (client) => {
        const u = await setPasswordHash(client, p.userId, passwordHash);
        await retireResetTokens(client, p.userId);
        return u;
      });
      // Connections opened with the old tokens end; the client reconnects with the new token.
      disconnectUser(app, p.userId);
      // a new session: its token can be ended by a logout like a login's (a token without one could not)
      const token = signSessionToken(
        { sub: p.userId, org: updated.org_id, ver: updated.token_version },
        config.JWT_SECRET,
        config.TOKEN_TTL_SECONDS,
      );
      return { ...profileOf(await load(p.userId)), token };
    }

    if (body.pivot_pk !== undefined && body.pivot_pk !== null && !p.license.pivots.includes(body.pivot_pk)) {
      throw forbidden(`Pivote no incluido en la licencia: ${body.pivot_pk}`, 'pivot_not_licensed');
    }
    if (body.currency !== undefined && !p.license.currencies.includes(body.currency)) {
      throw forbidden(`Divisa no incluida en la licencia: ${body.currency}`, 'currency_not_licensed');
    }
    await updateProfile(db.pool, p.userId, {
      pivotId: body.pivot_pk,
      name: body.name,
      currency: body.currency,
      timezone: body.timezone,
    });
    return profileOf(await load(p.userId));
  });
}
