import type pg from 'pg';
import { allowLongStatements, withTransaction } from './database.js';

// A bulk load's secondary indexes dropped while it writes and built once at its end (migration 530): a
// B-tree built from sorted rows costs a fraction of the same entries inserted one by one, and the writes
// in between touch only the table (and the indexes that back constraints, kept). The definitions are
// written down in the transaction that drops the indexes, so that nothing is lost if the load dies:
// restoreDeferredIndexes builds whatever is still listed, at the end of the load or at the next start.

/**
 * Drops the secondary indexes of `table` (not those backing a primary key or unique constraint) after
 * writing their definitions to deferred_indexes; returns their names. Nothing to drop (already deferred
 * by a load that was interrupted): [].
 */
export async function deferIndexes(pool: pg.Pool, table: string): Promise<string[]> {
  return withTransaction(pool, async (c) => {
    const { rows } = await c.query<{ name: string; definition: string }>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
         from pg_index i
        where i.indrelid = $1::regclass
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
        order by 1`,
      [table],
    );
    for (const r of rows) {
      await c.query(
        'insert into deferred_indexes (name, definition) values ($1, $2) on conflict (name) do nothing',
        [r.name, r.definition],
      );
      await c.query(`drop index ${r.name}`); // regclass text: quoted where it must be
    }
    return rows.map((r) => r.name);
  });
}

/**
 * Builds every index listed in deferred_indexes (the missing ones: `if not exists`), `parallel` at a time,
 * each dropped from the list once built; returns the names built. Each build may use PostgreSQL's
 * parallel maintenance workers as well.
 */
export async function restoreDeferredIndexes(pool: pg.Pool, parallel = 2): Promise<string[]> {
  const { rows } = await pool.query<{ name: string; definition: string }>(
    'select name, definition from deferred_indexes order by name',
  );
  const queue = [...rows];
  const built: string[] = [];
  const lane = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const { name, definition } = r;
      await withTransaction(pool, async (c) => {
        await allowLongStatements(c);
        await c.query(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
        await c.query('delete from deferred_indexes where name = $1', [name]);
      });
      built.push(name);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, lane));
  return built.sort();
}
