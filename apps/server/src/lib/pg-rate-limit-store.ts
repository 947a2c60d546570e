import type pg from 'pg';

// Rate-limit counters on PostgreSQL, table rate_limit_counters (migration 222): every API process counts
// one budget. Used by the sign-in routes' limits (@fastify/rate-limit's store below: modules/auth/rate-limit.ts)
// and by the per-user limits of the exports and report requests (plugins/user-rate-limit.ts).

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** How often (1 in N increments) windows that ended an hour ago are deleted. */
const PRUNE_ONE_IN = 200;

/**
 * Counts one hit of `key` in its fixed window of `windowMs` (the window starts at its first hit): one upsert
 * returning the hits so far in the window and the milliseconds left of it. Windows ended a day ago are
 * pruned now and then.
 */
export async function countHit(
  pool: pg.Pool,
  key: string,
  windowMs: number,
): Promise<{ hits: number; ttlMs: number }> {
  const { rows } = await pool.query<{ hits: number; ttl: number }>(
    `insert into rate_limit_counters as c (key, window_start, hits) values ($1, now(), 1)
     on conflict (key) do update
       set hits = case when c.window_start + $2 * interval '1 millisecond' <= now() then 1 else c.hits + 1 end,
           window_start = case when c.window_start + $2 * interval '1 millisecond' <= now() then now()
                               else c.window_start end
     returning hits,
               greatest(0, ceil(extract(epoch from (window_start + $2 * interval '1 millisecond' - now())) * 1000))::int as ttl`,
    [key, windowMs],
  );
  if (Math.random() * PRUNE_ONE_IN < 1)
    void pool
      .query(`delete from rate_limit_counters where window_start < now() - interval '1 day'`)
      .catch(() => {});
  return { hits: rows[0].hits, ttlMs: rows[0].ttl };
}

/**
 * A @fastify/rate-limit store on PostgreSQL: one fixed window per key (the route's, or the limiter's
 * `storeKey`, and the client's key). `incr` is countHit.
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
      countHit(pool, `${this.scope}|${key}`, timeWindow).then(
        ({ hits, ttlMs }) => cb(null, { current: hits, ttl: ttlMs }),
        cb,
      );
    }
  };
}
