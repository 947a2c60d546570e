import { describe, expect, inject, it } from 'vitest';
import { createPool, queryOwnClient } from './database.js';

// A pool that serves requests plans its queries on one core (PoolOptions.serialQueries): starting parallel
// workers cost more than the short queries of a request gained from them on the 2-core machine.

const SETTING = 'show max_parallel_workers_per_gather';

describe('PoolOptions.serialQueries', () => {
  it('holds on every connection of the pool (several at once, and a client of its own)', async () => {
    const pool = createPool(inject('pgAppUrl'), 3, { serialQueries: true });
    try {
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      try {
        for (const c of clients)
          expect((await c.query(SETTING)).rows[0].max_parallel_workers_per_gather).toBe('0');
      } finally {
        for (const c of clients) c.release();
      }
      const own = await queryOwnClient<{ max_parallel_workers_per_gather: string }>(pool, { text: SETTING });
      expect(own.rows[0].max_parallel_workers_per_gather).toBe('0');
    } finally {
      await pool.end();
    }
  });

  it('leaves the server’s setting to the other pools (the worker role, long work)', async () => {
    for (const opts of [{}, { longWork: true }]) {
      const pool = createPool(inject('pgAppUrl'), 1, opts);
      try {
        expect((await pool.query(SETTING)).rows[0].max_parallel_workers_per_gather).not.toBe('0');
      } finally {
        await pool.end();
      }
    }
  });
});
