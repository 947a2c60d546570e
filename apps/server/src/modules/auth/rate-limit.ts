import type {} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';

// Rate limits of the unauthenticated account endpoints (ARCHITECTURE.md: login and reset rate-limited).
// Per IP: the route's `config.rateLimit` (@fastify/rate-limit, onRequest, before the body is read).
// Per e-mail: keyBy() below, a preHandler on the validated body. Both are needed on one route, and the
// plugin runs only one `rateLimit` per request, so the second uses `createRateLimit`, which does not.
//
// Counters live in PostgreSQL (lib/pg-rate-limit-store.ts, table rate_limit_counters, migration 222), so several
// API processes count one budget (issue 24 item 5): an attacker spreading guesses over the processes
// behind a proxy gets no more tries. One upsert per attempt; these routes are rare next to the app's.

/**
 * The limits, scaled by LOGIN_RATE_LIMIT_PER_MINUTE (default 10: login 10/min per e-mail and 30/min per
 * IP). Benchmarks and browser tests raise it; production keeps the default.
 */
export function rateLimits(perMinute: number) {
  return {
    loginPerIp: { max: perMinute * 3, timeWindow: 60_000 },
    loginPerEmail: { max: perMinute, timeWindow: 60_000 },
    refreshPerIp: { max: perMinute * 6, timeWindow: 60_000 },
    logoutPerIp: { max: perMinute * 6, timeWindow: 60_000 },
    resetPerIp: { max: perMinute, timeWindow: 60_000 },
    resetPerEmail: { max: Math.max(5, Math.floor(perMinute / 2)), timeWindow: 3_600_000 },
    confirmPerIp: { max: perMinute * 2, timeWindow: 60_000 },
  } as const;
}

export const RATE_LIMITS = rateLimits(10);

export const TOO_MANY = 'Demasiados intentos, espera un momento.';

/**
 * A preHandler limiting requests per key (e.g. the e-mail of the body): over the limit → 429
 * `{ code: 'rate_limited' }` with Retry-After. Requests without a key are not counted.
 */
export function keyBy(
  app: FastifyInstance,
  limit: { max: number; timeWindow: number },
  name: string,
  key: (req: FastifyRequest) => string | null | undefined,
) {
  const check = app.createRateLimit({
    ...limit,
    keyGenerator: (req: FastifyRequest) => key(req) ?? '',
    // the store's key for this limiter (createRateLimit has no route of its own)
    ...({ storeKey: name } as object),
  });
  return async (req: FastifyRequest, reply: { header(name: string, value: unknown): unknown }) => {
    if (!key(req)) return;
    const result = await check(req);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', result.ttlInSeconds);
      throw new AppError(429, 'rate_limited', TOO_MANY);
    }
  };
}
