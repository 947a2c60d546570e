import { MODULE_CODES, MODULE_HEADER, type ModuleCode, PIVOT_HEADER } from '@vigia/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import type { Queryable } from '../db/database.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { verifyToken } from '../lib/jwt.js';

/** What a user's organisation may see (PRODUCT.md "license"). Loaded once per request. */
export interface License {
  id: number;
  sellers: number[];
  pivots: number[];
  currencies: string[];
  modules: ModuleCode[];
  brands: number[]; // own brands
  classifications: number[]; // granted roots; empty = whole tree
}

export interface Principal {
  userId: number;
  orgId: number;
  email: string;
  name: string;
  timezone: string;
  currency: string | null;
  pivotId: number | null;
  /** Administers the organisation (Operaciones). */
  isAdmin: boolean;
  license: License;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** preHandler: requires a valid `JWT <token>` (or `Bearer`) and loads the principal and license. */
    authenticate: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * preHandler factory: the license must grant `code` (or one of the codes given, for an endpoint that
     * serves the screens of several modules), whatever headers the request sends.
     */
    requireModule: (
      ...codes: [ModuleCode, ...ModuleCode[]]
    ) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export function readBearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(?:JWT|Bearer)\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

/** A user as stored now: active or not, the token generation, and the organisation's license today. */
export interface UserAccess extends Principal {
  isActive: boolean;
  tokenVersion: number;
  /** the session asked about (a token's sid) was revoked by a logout */
  sessionRevoked: boolean;
}

/**
 * Loads a user and the license of their organisation as they are now (null when the user does not
 * exist). Requests (loadPrincipal) and every background delivery (issue 26: reports, digests, socket
 * events) read access through this one function.
 */
export async function loadUserAccess(
  pool: Queryable,
  userId: number,
  sid: string | null = null,
): Promise<UserAccess | null> {
  const { rows } = await pool.query(
    `select u.id, u.org_id, u.email, u.name, u.timezone, u.currency, u.pivot_id, u.token_version, u.is_active, u.is_admin,
            ($2::text is not null and exists (select 1 from revoked_sessions r where r.sid = $2)) as session_revoked,
            l.id as license_id,
            coalesce((select array_agg(seller_id order by seller_id) from license_sellers where license_id = l.id), '{}') as sellers,
            coalesce((select array_agg(seller_id order by seller_id) from license_pivots where license_id = l.id), '{}') as pivots,
            coalesce((select array_agg(currency order by currency) from license_currencies where license_id = l.id), '{}') as currencies,
            coalesce((select array_agg(module_code order by module_code) from license_modules where license_id = l.id), '{}') as modules,
            coalesce((select array_agg(brand_id order by brand_id) from license_brands where license_id = l.id), '{}') as brands,
            coalesce((select array_agg(classification_id order by classification_id) from license_classifications where license_id = l.id), '{}') as classifications
       from users u
       left join licenses l on l.org_id = u.org_id
            and (l.starts_on is null or l.starts_on <= current_date)
            and (l.ends_on is null or l.ends_on >= current_date)
      where u.id = $1`,
    [userId, sid],
  );
  const u = rows[0];
  if (!u) return null;
  const empty: License = {
    id: 0,
    sellers: [],
    pivots: [],
    currencies: [],
    modules: [],
    brands: [],
    classifications: [],
  };
  return {
    userId: u.id,
    orgId: u.org_id,
    email: u.email,
    name: u.name,
    timezone: u.timezone,
    currency: u.currency,
    pivotId: u.pivot_id,
    isActive: u.is_active,
    tokenVersion: u.token_version,
    sessionRevoked: u.session_revoked,
    isAdmin: u.is_admin === true,
    license: u.license_id
      ? {
          id: u.license_id,
          sellers: u.sellers,
          pivots: u.pivots,
          currencies: u.currencies,
          modules: (u.modules as string[]).filter((m): m is ModuleCode =>
            (MODULE_CODES as readonly string[]).includes(m),
          ),
          brands: u.brands,
          classifications: u.classifications,
        }
      : empty,
  };
}

/**
 * Loads user and license for a token's claims; null when the user is gone or inactive, or the token is
 * revoked (older than a password change, or of a session ended by logout). One query, every request, in
 * every process: revocation needs no cache.
 */
export async function loadPrincipal(
  pool: Queryable,
  claims: { sub: number; ver: number; sid?: string },
): Promise<Principal | null> {
  const access = await loadUserAccess(pool, claims.sub, claims.sid ?? null);
  if (!access?.isActive || access.tokenVersion !== claims.ver || access.sessionRevoked) return null;
  const { isActive: _a, tokenVersion: _v, sessionRevoked: _r, ...principal } = access;
  return principal;
}

async function authPlugin(app: FastifyInstance, opts: { pool: pg.Pool; secret: string }) {
  app.decorateRequest('principal', null);

  app.decorate('authenticate', async (req: FastifyRequest) => {
    const token = readBearer(req.headers.authorization);
    if (!token) throw unauthorized('Falta el encabezado Authorization: JWT <token>');
    const claims = verifyToken(token, opts.secret);
    if (!claims) throw unauthorized();
    const principal = await loadPrincipal(opts.pool, claims);
    if (!principal) throw unauthorized();
    req.principal = principal;

    // The seed's module and pivot headers are checked against the license when present.
    const moduleHeader = req.headers[MODULE_HEADER];
    if (typeof moduleHeader === 'string' && moduleHeader !== '') {
      if (!principal.license.modules.includes(moduleHeader as ModuleCode)) {
        throw forbidden(`Módulo no incluido en la licencia: ${moduleHeader}`, 'module_not_licensed');
      }
    }
    const pivotHeader = req.headers[PIVOT_HEADER];
    if (typeof pivotHeader === 'string' && pivotHeader !== '') {
      const pivot = Number(pivotHeader);
      if (!Number.isInteger(pivot) || !principal.license.pivots.includes(pivot)) {
        throw forbidden(`Pivote no incluido en la licencia: ${pivotHeader}`, 'pivot_not_licensed');
      }
    }
  });

  app.decorate('requireModule', (...codes: [ModuleCode, ...ModuleCode[]]) => async (req: FastifyRequest) => {
    if (!req.principal) throw unauthorized();
    const modules = req.principal.license.modules;
    if (!codes.some((code) => modules.includes(code))) {
      throw forbidden(`Módulo no incluido en la licencia: ${codes.join(' o ')}`, 'module_not_licensed');
    }
  });
}

export default fp(authPlugin, { name: 'vigia-auth' });
