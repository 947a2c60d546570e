import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { fullCollection } from '../platform/memory.js';
import { createPool, queryOwnClient } from './database.js';

// queryOwnClient: a large result must not stay reachable after its caller dropped it (the pricing model's
// load, model.ts), which pool.query on a connection the pool opened for it does not guarantee.

const gc = fullCollection();

const SQL = 'select i, md5(i::text) as h from generate_series(1, 20000) i';

/** Whether the rows of `run`'s result are still reachable once dropped (a fresh pool each time). */
async function kept(run: (pool: pg.Pool) => Promise<{ rows: unknown[] }>): Promise<boolean> {
  const pool = createPool(inject('pgAppUrl'), 2);
  try {
    let ref: WeakRef<object> | undefined;
    await (async () => {
      const r = await run(pool);
      expect(r.rows).toHaveLength(20000);
      ref = new WeakRef(r.rows);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    gc();
    return ref?.deref() !== undefined;
  } finally {
    await pool.end();
  }
}

describe('queryOwnClient', () => {
  it("drops the result with the caller, where pool.query's first result on a new connection stays", async () => {
    // pg-pool 3.14's behaviour that queryOwnClient avoids (if a pg-pool release changes it, this says so)
    expect(await kept((pool) => pool.query(SQL))).toBe(true);
    expect(await kept((pool) => queryOwnClient(pool, { text: SQL }))).toBe(false);
    expect(await kept((pool) => queryOwnClient(pool, { text: SQL, rowMode: 'array' }))).toBe(false);
  });

  it('answers in array mode, releases its client after an error, and runs on a given client as it is', async () => {
    const pool = createPool(inject('pgAppUrl'), 1);
    try {
      const r = await queryOwnClient<[number, string]>(pool, {
        text: 'select $1::int, $2::text',
        values: [7, 'x'],
        rowMode: 'array',
      });
      expect(r.rows).toEqual([[7, 'x']]);
      await expect(queryOwnClient(pool, { text: 'select nope' })).rejects.toThrow(/nope/);
      // the pool's only connection came back
      expect((await queryOwnClient(pool, { text: 'select 1 as one' })).rows).toEqual([{ one: 1 }]);
      const client = await pool.connect();
      try {
        await client.query('create temp table t_own (x int)');
        // the same session: its temporary table is visible
        expect((await queryOwnClient(client, { text: 'select count(*)::int as n from t_own' })).rows).toEqual(
          [{ n: 0 }],
        );
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
