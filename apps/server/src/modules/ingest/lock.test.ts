import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { insertSeller, seedReferenceData } from '../../test/fixtures.js';
import { lockSeller } from './lock.js';

// The seller's row lock of an ingest run (lock.ts) serialises that seller's runs and nothing else: a
// foreign key to the seller (a pivot's first pricing build inserts its pricing_pivots row while holding the
// pricing lock the run's roll-up waits for) must not wait for the run, or the two deadlock (CI,
// 2026-11-29: matching/routes.test.ts's setup failed with "deadlock detected").

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedReferenceData(db.pool);
  await insertSeller(db.pool, { id: 7, name: 'Siete' });
});
afterAll(async () => {
  await db?.close();
});

const run = { sellerId: 7, source: 'test' as const, mode: 'full' as const, observedAt: new Date() };

describe('the ingest run’s seller lock', () => {
  it('lets a row that references the seller be written meanwhile, and holds off a second run', async () => {
    const a = await db.pool.connect();
    const b = await db.pool.connect();
    try {
      await a.query('begin');
      await lockSeller(a, run);
      await b.query('begin');
      await b.query("set local lock_timeout = '2s'");
      // the key-share lock of the foreign key does not wait for the run
      await b.query('insert into pricing_pivots (seller_id) values (7)');
      await b.query('rollback');
      // a second run of the same seller does
      await b.query('begin');
      await b.query("set local lock_timeout = '300ms'");
      await expect(
        lockSeller(b, { ...run, observedAt: new Date(run.observedAt.getTime() + 1000) }),
      ).rejects.toThrow(/lock timeout/);
      await b.query('rollback');
      await a.query('rollback');
    } finally {
      a.release();
      b.release();
    }
  });
});
