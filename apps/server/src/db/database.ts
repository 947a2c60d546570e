import pg from 'pg';
import { clusterLayout, clusterPassword, startEmbeddedPostgres } from './embedded.js';

// numeric → number, bigint → number (ids and counts stay far below 2^53), date → 'yyyy-MM-dd' string.
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1082, (v) => v);

export {
  clusterLayout,
  clusterPassword,
  type EmbeddedServer,
  freePort,
  StartupError,
  signalHooks,
  startEmbeddedPostgres,
  takeOverShutdownSignals,
} from './embedded.js';

export type DatabaseKind = 'embedded' | 'external';

export interface Database {
  pool: pg.Pool;
  kind: DatabaseKind;
  url: string;
  close(): Promise<void>;
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
  // A client losing its connection (the database stopped or restarted) must not crash the process: idle
  // clients report it to the pool, and every client keeps a listener of its own for the time it is checked
  // out (pg emits 'error' on the client — twice when the server ends the connection — besides failing its
  // query, and an 'error' without a listener would be an uncaught exception). Queries still fail, with
  // the error the API turns into a 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** Opens the configured database: external by DATABASE_URL, otherwise embedded in DATA_DIR/pg. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  /** Lines for the operator (where the cluster lives, restarts). */
  log?: (m: string) => void;
  /** PostgreSQL's own output. */
  pgLog?: (m: string) => void;
  /** Restart the embedded PostgreSQL when it stops on its own (the server; not one-shot tools). */
  supervise?: boolean;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = createPool(opts.databaseUrl);
    return { pool, kind: 'external', url: opts.databaseUrl, close: () => pool.end() };
  }
  const log = opts.log ?? (() => {});
  const layout = clusterLayout(opts.dataDir, log);
  if (layout.relocated)
    log(
      `Base de datos embebida en ${layout.dir} (${layout.relocated === 'recorded' ? `según ${opts.dataDir}/pg-location` : layout.relocated}; ver docs/operations.md)`,
    );
  const embedded = await startEmbeddedPostgres(layout.dir, {
    layout,
    password: clusterPassword(opts.dataDir),
    supervise: opts.supervise,
    log,
    pgLog: opts.pgLog,
  });
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
