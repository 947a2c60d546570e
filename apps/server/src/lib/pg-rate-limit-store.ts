import type pg from 'pg';

// The store of @fastify/rate-limit's route limits (the sign-in routes: modules/auth/rate-limit.ts) on
// PostgreSQL, table rate_limit_counters (migration 222): every API process counts one budget.

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** How often (1 in N increments) windows that ended an hour ago are deleted. */
const PRUNE_ONE_IN = 200;

/**
 * A @fastify/rate-limit store on PostgreSQL: one fixed window per key (the route's, or the limiter's
 * `storeKey`, and the client's key). `incr` is one upsert returning the count and the window's rest.
 */
export function pgRateLimitStore(pool: pg.Pool) {
  return class PgRateLimitStore {
    scope = '';

    child(routeOptions: object) {
      const o = routeOptions as { storeKey?: string; routeInfo?: { method?: string; url?: string } };
      const store = new PgRateLimitStore();
      store.scope = o.storeKey ?? `${o.routeInfo?.method ?? ''} ${o.routeInfo?.url ?? ''}`;
      return store;
    }

    incr(key: string, cb: StoreCallback, timeWindow: number): void {
      pool
        .query<{ hits: number; ttl: number }>(
          `insert into rate_limit_counters as c (key, window_start, hits) values ($1, now(), 1)
           on conflict (key) do update
             set hits = case when c.window_start + $2 * interval '1 millisecond' <= now() then 1 else c.hits + 1 end,
                 window_start = case when c.window_start + $2 * interval '1 millisecond' <= now() then now()
                                     else c.window_start end
           returning hits,
                     greatest(0, ceil(extract(epoch from (window_start + $2 * interval '1 millisecond' - now())) * 1000))::int as ttl`,
          [`${this.scope}|${key}`, timeWindow],
        )
        .then(({ rows }) => {
          cb(null, { current: rows[0].hits, ttl: rows[0].ttl });
          if (Math.random() * PRUNE_ONE_IN < 1)
            void pool
              .query(`delete from rate_limit_counters where window_start < now() - interval '1 day'`)
              .catch(() => {});
        }, cb);
    }
  };
}
