import type { RouteDef } from '@vigia/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { AppError } from '../lib/errors.js';
import { countHit } from '../lib/pg-rate-limit-store.js';

// Per-user rate limits of the signed-in routes (issue 26): one user cannot take the server from the
// others. Three classes, sized for a real analyst (a screen fires tens of cheap reads at once; a
// download builds a file; a report request queues a build), scaled by USER_RATE_LIMIT_PER_MINUTE:
//
//   read    N per minute                 (default 1200: 20 a second, every minute)
//   export  N / 40 per minute            (default 30: XLSX/CSV answers built in the request)
//   report  N / 60 per minute            (default 20: report requests and subscriptions)
//
// Over the limit: 429 { code: 'rate_limited' } with Retry-After (seconds to the window's end). Fixed
// one-minute windows per (user, class). Where they are counted (docs/operations.md "Per-user rate limits"):
//
//   export, report   in PostgreSQL (lib/pg-rate-limit-store.ts countHit, the sign-in limits' counters):
//                    one budget for every API process (issue 24). One upsert per request (≈ 0.4 ms),
//                    next to a request that builds a file or queues a build.
//   read             in this process's memory (an LRU of at most 100,000 windows): each API process grants
//                    the budget, so N processes allow a user N × it. The upsert would be about a tenth of
//                    the cheapest read's own time; the read limit only has to keep a flood bounded.

export type RateClass = 'read' | 'export' | 'report';

/** Routes that queue work in the background (a build, a schedule of e-mails). */
const REPORT_ROUTES = new Set(['reports.create', 'subscriptions.subscribe']);
const FILE_TYPES = /spreadsheetml|text\/csv|octet-stream/;

/** The class of one request of a route: the def's, or 'export' when a JSON route is asked for its file. */
export function rateClassOf(def: Pick<RouteDef, 'id' | 'produces'>, body?: unknown): RateClass {
  if (REPORT_ROUTES.has(def.id)) return 'report';
  if (def.produces && FILE_TYPES.test(def.produces)) return 'export';
  if (
    body &&
    typeof body === 'object' &&
    (body as { downloadablePipeline?: unknown }).downloadablePipeline === true
  )
    return 'export';
  return 'read';
}

export function userRateLimits(perMinute: number): Record<RateClass, number> {
  return {
    read: perMinute,
    export: Math.max(1, Math.floor(perMinute / 40)),
    report: Math.max(1, Math.floor(perMinute / 60)),
  };
}

export const USER_RATE_WINDOW_MS = 60_000;
export const TOO_MANY_REQUESTS = 'Demasiadas solicitudes; espere un momento e intente de nuevo.';

declare module 'fastify' {
  interface FastifyInstance {
    /** preValidation factory: the per-user limit of a signed-in route (after authentication). */
    limitUser: (
      def: Pick<RouteDef, 'id' | 'produces'>,
    ) => (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The classes whose windows are counted in PostgreSQL, for every API process at once. */
export const SHARED_RATE_CLASSES: ReadonlySet<RateClass> = new Set(['export', 'report']);

async function userRateLimitPlugin(app: FastifyInstance, opts: { perMinute: number; pool: pg.Pool }) {
  const limits = userRateLimits(opts.perMinute);
  const windows = new LRUCache<string, { start: number; hits: number }>({ max: 100_000 });
  /** This process's window of a cheap-read budget: hits so far and milliseconds left. */
  const countHere = (key: string) => {
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.start >= USER_RATE_WINDOW_MS) {
      w = { start: now, hits: 0 };
      windows.set(key, w);
    }
    w.hits++;
    return { hits: w.hits, ttlMs: w.start + USER_RATE_WINDOW_MS - now };
  };
  app.decorate(
    'limitUser',
    (def: Pick<RouteDef, 'id' | 'produces'>) => async (req: FastifyRequest, reply: FastifyReply) => {
      const userId = req.principal?.userId;
      if (userId === undefined) return;
      const cls = rateClassOf(def, req.body);
      const key = `${userId}:${cls}`;
      const { hits, ttlMs } = SHARED_RATE_CLASSES.has(cls)
        ? await countHit(opts.pool, `user|${key}`, USER_RATE_WINDOW_MS)
        : countHere(key);
      if (hits > limits[cls]) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(ttlMs / 1000))));
        throw new AppError(429, 'rate_limited', TOO_MANY_REQUESTS);
      }
    },
  );
}

export default fp(userRateLimitPlugin, { name: 'vigia-user-rate-limit' });
