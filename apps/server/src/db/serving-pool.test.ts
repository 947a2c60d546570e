import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createPool, IDLE_CONNECTION_MS, queryOwnClient } from './database.js';

// A pool that serves requests (PoolOptions.servesRequests) plans its queries on one core — starting parallel
// workers cost more than the short queries of a request gained from them on the 2-core machine — and keeps
// its connections however long idle: a new backend's first touch of the shared buffers' pages is what a
// query on it pays again.

const SETTING = 'show max_parallel_workers_per_gather';

afterEach(() => {
  vi.useRealTimers();
});

describe('PoolOptions.servesRequests', () => {
  it('plans on one core on every connection of the pool (several at once, and a client of its own)', async () => {
    const pool = createPool(inject('pgAppUrl'), 3, { servesRequests: true });
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

  it('keeps idle connections open past the time after which another pool closes them', async () => {
    const serving = createPool(inject('pgAppUrl'), 2, { servesRequests: true });
    const other = createPool(inject('pgAppUrl'), 2);
    try {
      const held = [...(await Promise.all([serving.connect(), serving.connect()]))];
      const otherHeld = await Promise.all([other.connect(), other.connect()]);
      // the idle timers start when a connection is released: from here on, on a fake clock
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      for (const c of [...held, ...otherHeld]) c.release();
      vi.advanceTimersByTime(IDLE_CONNECTION_MS + 60_000);
      vi.useRealTimers();
      await vi.waitFor(() => expect(other.totalCount).toBe(0));
      expect(serving.totalCount).toBe(2);
      expect(serving.idleCount).toBe(2);
      expect((await serving.query('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      vi.useRealTimers();
      await Promise.all([serving.end(), other.end()]);
    }
  });
});
