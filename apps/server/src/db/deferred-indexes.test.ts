import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/context.js';
import type { Database } from './database.js';
import { deferIndexes, restoreDeferredIndexes } from './deferred-indexes.js';

// A bulk load's secondary indexes dropped and built again (migration 530): the constraint's indexes stay,
// the others come back with the same definitions, and a load that died between the two leaves them listed
// for the next call to build.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`
    create table bulk_t (id int primary key, code text unique, a int, b int, note text);
    create index bulk_t_a_idx on bulk_t (a, b);
    create index bulk_t_note_idx on bulk_t (lower(note)) where a > 0;
    create index "bulk_T_b idx" on bulk_t (b desc) include (note);
    insert into bulk_t select g, 'c' || g, g % 7, g % 11, 'n' || g from generate_series(1, 2000) g;`);
});
afterAll(async () => {
  await db?.close();
});

const definitions = async () =>
  (
    await db.pool.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes where tablename = 'bulk_t' order by 1`,
    )
  ).rows;

describe('deferred indexes', () => {
  it('drops only the secondary indexes, keeps their definitions, builds them again the same', async () => {
    const before = await definitions();
    expect(before.map((r) => r.name)).toEqual([
      'bulk_T_b idx',
      'bulk_t_a_idx',
      'bulk_t_code_key',
      'bulk_t_note_idx',
      'bulk_t_pkey',
    ]);
    const dropped = await deferIndexes(db.pool, 'bulk_t');
    expect(dropped.sort()).toEqual(['"bulk_T_b idx"', 'bulk_t_a_idx', 'bulk_t_note_idx']);
    expect((await definitions()).map((r) => r.name)).toEqual(['bulk_t_code_key', 'bulk_t_pkey']);
    // a second deferral (a resumed load) finds nothing more to drop and loses nothing listed
    expect(await deferIndexes(db.pool, 'bulk_t')).toEqual([]);
    const listed = await db.pool.query('select name from deferred_indexes order by name');
    expect(listed.rows.map((r) => r.name)).toEqual(dropped.sort());

    // writes meanwhile go to the table; the constraints still hold
    await db.pool.query(
      `insert into bulk_t select g, 'c' || g, g % 5, g % 3, 'm' || g from generate_series(2001, 3000) g`,
    );
    await expect(db.pool.query(`insert into bulk_t values (1, 'x', 1, 1, 'x')`)).rejects.toThrow(
      /bulk_t_pkey/,
    );

    // "the next start": a new call reads the list from the table, builds every index, empties the list
    expect(await restoreDeferredIndexes(db.pool)).toEqual(dropped.sort());
    expect(await definitions()).toEqual(before);
    expect((await db.pool.query('select count(*)::int as n from deferred_indexes')).rows[0].n).toBe(0);
    expect(await restoreDeferredIndexes(db.pool)).toEqual([]);
  });

  it('an index already there again is not built twice (listed, but present)', async () => {
    await db.pool.query('create table bulk_u (id int primary key, a int)');
    await db.pool.query('create index bulk_u_a_idx on bulk_u (a)');
    await deferIndexes(db.pool, 'bulk_u');
    await db.pool.query('create index bulk_u_a_idx on bulk_u (a)');
    expect(await restoreDeferredIndexes(db.pool)).toEqual(['bulk_u_a_idx']);
    const n = await db.pool.query(`select count(*)::int as n from pg_indexes where tablename = 'bulk_u'`);
    expect(n.rows[0].n).toBe(2);
  });
});
