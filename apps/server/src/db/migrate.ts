import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from './database.js';

/** apps/server/migrations, found from both src/db and dist/db. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/**
 * The SQL between a migration's `-- NAME:begin` and `-- NAME:end` markers: a backfill query that a read
 * model's check (a module's check.ts) runs again to recompute the model from the history.
 */
export function migrationSection(file: string, name: string): string {
  const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
  const m = new RegExp(`-- ${name}:begin[^\\n]*\\n([\\s\\S]*?)-- ${name}:end`).exec(sql);
  if (!m) throw new Error(`${file}: ${name} markers not found`);
  return m[1].trim();
}

/**
 * `with RUNS as (…), history as (…)`: a migration's `recompute-spans` section over the CTE it reads, the last
 * succeeded run of each seller's day numbered per seller (`RUNS`, as the migration names it), for every
 * seller or for seller $1 only.
 */
export function recomputeSpansFrom(file: string, runs: string, zone = `'${DEFAULT_TIMEZONE}'`): string {
  return `
with ${runs} as (
  select seller_id, day, t, row_number() over (partition by seller_id order by day) as rn
    from (select seller_id, (observed_at at time zone ${zone})::date as day, max(observed_at) as t
            from ingest_runs where status = 'succeeded' and ($1::int is null or seller_id = $1)
           group by 1, 2) x
),
history as (${migrationSection(file, 'recompute-spans')})`;
}

/**
 * The tables a migration names to vacuum once it is applied (lines `-- vacuum: table`): a table it rewrote
 * has neither a visibility map (no index-only scans: PostgreSQL reads the heap instead) nor statistics until
 * then, which autovacuum may not give it before the next ingest (issue 30: migration 520).
 */
export function vacuumsOf(sql: string): string[] {
  return [...sql.matchAll(/^-- vacuum: ([a-z_][a-z0-9_]*)[ \t]*$/gm)].map((m) => m[1]);
}

/**
 * Applies every not-yet-applied `NNN_name.sql` in order, each inside a transaction, recorded in
 * schema_migrations; then vacuums (and analyzes) the tables the applied ones name (vacuumsOf: VACUUM
 * cannot run in a transaction). An advisory lock lets several server processes start at once.
 */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  const vacuums = new Set<string>();
  await withTransaction(pool, async (client) => {
    await client.query('select pg_advisory_xact_lock(727274)');
    // a migration may rewrite a large table: no statement timeout for it (DB_TIMEOUTS is for requests)
    await client.query('set local statement_timeout = 0');
    await client.query(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      await client.query(sql);
      await client.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
      for (const t of vacuumsOf(sql)) vacuums.add(t);
    }
  });
  for (const t of vacuums) await pool.query(`vacuum (analyze) ${t}`);
  return applied;
}
