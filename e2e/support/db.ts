import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { DATA_DIR } from '../playwright.config.js';

// The e2e server's own database, so that a spec can recompute a screen's number from the data
// (issue 31: numbers checked against a recomputation, never against literals copied from the screen).
// The embedded PostgreSQL of DATA_DIR: its port from postmaster.pid, its password from secrets/.
// Read-only use: the specs never write through it.

let pool: pg.Pool | null = null;

export function e2eDb(): pg.Pool {
  if (pool) return pool;
  const pid = readFileSync(join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  const port = Number(pid[3]);
  const password = readFileSync(join(DATA_DIR, 'secrets', 'pg_password'), 'utf8').trim();
  pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', password, database: 'vigia', max: 2 });
  return pool;
}

export async function closeE2eDb() {
  await pool?.end();
  pool = null;
}
