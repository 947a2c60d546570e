import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/context.js';
import { migrate, vacuumsOf } from './migrate.js';

// A migration that rewrites a large table names it to be vacuumed once applied (migration 520): without
// a visibility map PostgreSQL reads the heap where an index-only scan was planned.

describe('migrate', () => {
  it('reads the tables to vacuum from whole `-- vacuum: table` lines only', () => {
    expect(vacuumsOf('-- vacuum: listing_current\nalter table x;\n-- vacuum: other_t  \n')).toEqual([
      'listing_current',
      'other_t',
    ]);
    expect(
      vacuumsOf('select 1; -- vacuum: a\n--  vacuum: b\n-- vacuum: c; drop table d\n-- vacuum: E\n'),
    ).toEqual([]);
  });

  it('vacuums and analyzes the tables an applied migration names, after its transaction', async () => {
    const db = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'vigia-migrations-'));
    try {
      writeFileSync(
        join(dir, '990_probe.sql'),
        [
          'create table vacuum_probe (id int primary key, v int) with (autovacuum_enabled = false);',
          'insert into vacuum_probe select i, i from generate_series(1, 5000) i;',
          '-- vacuum: vacuum_probe',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, '991_other.sql'),
        // (autovacuum off for it: its own analyze could otherwise reach the table first — the test failed
        // that way once on a loaded machine)
        'create table not_vacuumed (id int) with (autovacuum_enabled = false); insert into not_vacuumed select generate_series(1, 5000);\n',
      );
      expect(await migrate(db.pool, dir)).toEqual(['990_probe.sql', '991_other.sql']);
      const { rows } = await db.pool.query<{ relname: string; visible: boolean; analyzed: boolean }>(
        `select relname, relallvisible > 0 as visible, reltuples > 0 as analyzed
           from pg_class where relname in ('vacuum_probe', 'not_vacuumed') order by relname`,
      );
      expect(rows).toEqual([
        { relname: 'not_vacuumed', visible: false, analyzed: false },
        { relname: 'vacuum_probe', visible: true, analyzed: true },
      ]);
      // applied once: a second start vacuums nothing
      expect(await migrate(db.pool, dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.close();
    }
  });
});
