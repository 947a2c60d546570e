import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// JWT (HS256) with Node's crypto: a few lines, no dependency, constant-time signature check.
//
// Sessions (issue 26, finding 9): a login starts a session — `sid` (random) and `sat` (its start, unix s).
// A refresh keeps both, so every token of one login is one chain: logout revokes the `sid` (table
// revoked_sessions, checked with the user in the one query of every request, in every process), and no
// token of a chain lives past `sat` + MAX_SESSION_SECONDS whatever the refreshes. A password change bumps
// `ver` (users.token_version): every older token of the user is refused everywhere.
//
// Only the canonical spelling verifies (finding 10): each part strict base64url without padding, and
// re-encoding its bytes gives the same text — so one token has exactly one spelling.

export interface TokenClaims {
  sub: number; // user id
  org: number;
  ver: number; // users.token_version
  iat: number;
  exp: number;
  /** session (login) id: shared by the refresh chain; absent on tokens minted before sessions */
  sid?: string;
  /** session start (unix s) */
  sat?: number;
}

/** Longest life of a session, refreshes included: then the user signs in again. */
export const MAX_SESSION_SECONDS = 7 * 86_400;

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const B64URL = /^[A-Za-z0-9_-]+$/;

/** The bytes of a canonical base64url text; null for anything else (padding, stray bits, other chars). */
export function strictBase64url(text: string): Buffer | null {
  if (!B64URL.test(text)) return null;
  const buf = Buffer.from(text, 'base64url');
  return buf.toString('base64url') === text ? buf : null;
}

export const newSessionId = () => randomBytes(16).toString('base64url');

export function signToken(
  claims: Omit<TokenClaims, 'iat' | 'exp'>,
  secret: string,
  ttlSeconds: number,
): string {
  const now = Math.floor(Date.now() / 1000);
  // a session's tokens end with it
  const exp =
    claims.sat !== undefined
      ? Math.min(now + ttlSeconds, claims.sat + MAX_SESSION_SECONDS)
      : now + ttlSeconds;
  const payload = b64(JSON.stringify({ ...claims, iat: now, exp }));
  const sig = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${sig}`;
}

/** Signs the first token of a new session (login). */
export function signSessionToken(
  claims: Pick<TokenClaims, 'sub' | 'org' | 'ver'>,
  secret: string,
  ttlSeconds: number,
): string {
  return signToken(
    { ...claims, sid: newSessionId(), sat: Math.floor(Date.now() / 1000) },
    secret,
    ttlSeconds,
  );
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** Returns the claims of a well-signed, canonical, unexpired token, or null. */
export function verifyToken(token: string, secret: string): TokenClaims | null {
  if (token.length > 4000) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const given = strictBase64url(parts[2]);
  const body = strictBase64url(parts[1]);
  if (!given || !body) return null;
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(body.toString('utf8')) as TokenClaims;
    if (!isInt(claims.sub) || !isInt(claims.exp) || !isInt(claims.ver)) return null;
    if (claims.sid !== undefined && (typeof claims.sid !== 'string' || !strictBase64url(claims.sid)))
      return null;
    if (claims.sat !== undefined && !isInt(claims.sat)) return null;
    const now = Math.floor(Date.now() / 1000);
    if (claims.exp <= now) return null;
    if (claims.sat !== undefined && claims.sat + MAX_SESSION_SECONDS <= now) return null;
    return claims;
  } catch {
    return null;
  }
}
