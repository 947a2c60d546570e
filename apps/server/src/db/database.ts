import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/errors.js';
import { clusterLayout, clusterPassword, startEmbeddedPostgres } from './embedded.js';
import { APP_ROLE, appRolePassword, ensureAppRole } from './roles.js';

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
  /** The application's connection (its own role, not a superuser: db/roles.ts). */
  url: string;
  /** Embedded only: the superuser's URL to the same database (set-up and `seed --reset`; never requests). */
  adminUrl?: string;
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

/**
 * How long the server waits on its database (issue 26 finding 7: a hung PostgreSQL must get a 503 within
 * seconds, not pin every request for as long as it hangs). See docs/operations.md "Database timeouts".
 */
export const DB_TIMEOUTS = {
  /** Opening a connection, or waiting for a free one of the pool. */
  connectMs: 5_000,
  /** Server-side cap of one statement (sessions doing long work raise it for themselves: longStatementMs). */
  statementMs: 30_000,
  /**
   * The cap of one statement inside a transaction of long work (an ingest run and its roll-ups, a pivot's
   * first pricing build, the dashboard's index history load): set with `set local` (allowLongStatements).
   */
  longStatementMs: 600_000,
  /** A session left idle inside a transaction is ended by the server after this. */
  idleInTransactionMs: 60_000,
  /**
   * A connection checked out for longer than this, while no byte came from the database on any of the
   * pool's connections for as long, makes the pool ask whether the database still answers.
   */
  suspectAfterMs: 2_000,
  /** How long that question (a fresh connection and `select 1`) may take before the database counts as hung. */
  probeMs: 5_000,
};

/** Raises the statement timeout of the open transaction on `client` to DB_TIMEOUTS.longStatementMs. */
export async function allowLongStatements(client: pg.PoolClient): Promise<void> {
  await client.query(`set local statement_timeout = ${DB_TIMEOUTS.longStatementMs}`);
}

export interface PoolOptions {
  /** statement_timeout of the pool's sessions (ms); default DB_TIMEOUTS.statementMs. */
  statementTimeoutMs?: number;
  /**
   * A pool of long work (the demo seed, one-shot tools): no statement timeout, no limit on waiting for a
   * connection, no hang check — it waits for the database instead of failing.
   */
  longWork?: boolean;
  /**
   * A pool serving requests (issue 30, eighth session, measured on the large market):
   * - every query planned on one core (`max_parallel_workers_per_gather = 0`): on the 2-core machine,
   *   starting a query's parallel workers cost ~100 ms while the work they shared took a few (quick find's
   *   query 103–116 ms with two workers, 1.7–1.9 ms without; a search for "tv" 134–164 ms against 9–41 ms),
   *   and concurrent requests already keep the cores busy;
   * - its connections kept open however long idle: a backend maps each page of the shared buffers the
   *   first time it touches it, and on this VM a new backend's first Surtido one-brand query took
   *   845–1,484 ms against 58–210 ms for the same query again on it (~200 MB of shared buffers mapped); a
   *   c16 burst on new backends p95 7.1 s, the same burst again 1.1–1.4 s. Closing idle connections after
   *   10 minutes made the first users after a quiet spell pay that again. The pool's size bounds them.
   * Long work (the seed) and the worker role keep parallel plans and close idle connections.
   */
  servesRequests?: boolean;
}

/** How long a pool that does not serve requests keeps an idle connection. */
export const IDLE_CONNECTION_MS = 600_000;

/** Connections of a process's pool unless `DATABASE_POOL_SIZE` says otherwise (config.ts). */
export const DEFAULT_POOL_SIZE = 20;

export function createPool(url: string, max = DEFAULT_POOL_SIZE, opts: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Connections are kept 10 minutes idle, for good when serving requests (servesRequests): a new
    // PostgreSQL backend maps the shared buffers it touches page by page (3 GB of them on a 24 GB machine:
    // db/embedded.ts serverSettings), so a pool that closed its connections after 30 s paid that again at
    // every burst — the large market's c16 rows 2–5× slower on fresh connections than on warm ones (issue
    // 30, fifth session). 0 = never closed (pg-pool).
    idleTimeoutMillis: opts.servesRequests ? 0 : IDLE_CONNECTION_MS,
    // idle connections do not keep a process alive (a CLI that is done exits, as with the 30 s before)
    allowExitOnIdle: true,
    connectionTimeoutMillis: opts.longWork ? 0 : DB_TIMEOUTS.connectMs,
    statement_timeout: opts.longWork ? 0 : (opts.statementTimeoutMs ?? DB_TIMEOUTS.statementMs),
    idle_in_transaction_session_timeout: DB_TIMEOUTS.idleInTransactionMs,
    ...(opts.servesRequests ? { options: '-c max_parallel_workers_per_gather=0' } : {}),
  });
  // A client losing its connection (the database stopped or restarted) must not crash the process: idle
  // clients report it to the pool, and every client keeps a listener of its own for the time it is checked
  // out (pg emits 'error' on the client — twice when the server ends the connection — besides failing its
  // query, and an 'error' without a listener would be an uncaught exception). Queries still fail, with
  // the error the API turns into a 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  if (!opts.longWork) watchForHang(pool, url);
  return pool;
}

type Destroyable = { connection?: { stream?: { destroy(): void } } };
const cut = (c: pg.Client) => (c as unknown as Destroyable).connection?.stream?.destroy();

/** Whether the database at `url` fails to answer a fresh connection's `select 1` in time (not: refuses it). */
async function databaseHung(url: string): Promise<boolean> {
  const c = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: DB_TIMEOUTS.probeMs,
    query_timeout: DB_TIMEOUTS.probeMs,
  });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('select 1');
    return false;
  } catch (err) {
    return /timeout/i.test((err as Error).message ?? '');
  } finally {
    cut(c);
  }
}

/**
 * A PostgreSQL that is stopped (SIGSTOP), frozen or cut off without a reset keeps every query sent to it
 * waiting: no error ever comes, and the server-side statement_timeout cannot fire. So while a connection
 * has been checked out for more than `suspectAfterMs` and nothing at all came from the database on any
 * connection for as long, the pool asks the database, on a fresh connection, whether it answers (within
 * `probeMs`: generous, so that a machine merely overloaded is not taken for a hung database); when that
 * times out too, every connection of the pool is cut — their queries fail at once with "Connection
 * terminated" (a 503 with Retry-After, plugins/errors.ts) — and new ones wait at most `connectMs`. A slow
 * query on a database that answers is left alone (its own statement_timeout bounds it). Back after
 * SIGCONT, the pool connects again by itself.
 */
function watchForHang(pool: pg.Pool, url: string): void {
  const all = new Set<pg.Client>();
  const out = new Map<pg.Client, number>();
  /** When the database last sent anything on one of the pool's connections. */
  let heard = Date.now();
  pool.on('connect', (c) => {
    all.add(c);
    heard = Date.now();
    (c as unknown as { connection?: { stream?: NodeJS.EventEmitter } }).connection?.stream?.on('data', () => {
      heard = Date.now();
    });
  });
  pool.on('remove', (c) => {
    all.delete(c);
    out.delete(c);
  });
  pool.on('acquire', (c) => out.set(c, Date.now()));
  pool.on('release', (_err: Error | undefined, c: pg.Client) => out.delete(c));
  let probing = false;
  const timer = setInterval(() => {
    if (probing || pool.ending) return;
    const now = Date.now();
    if (now - heard <= DB_TIMEOUTS.suspectAfterMs) return;
    let suspect = false;
    for (const since of out.values()) if (now - since > DB_TIMEOUTS.suspectAfterMs) suspect = true;
    if (!suspect) return;
    probing = true;
    databaseHung(url)
      .then((hung) => {
        if (hung) for (const c of all) cut(c);
      })
      .finally(() => {
        probing = false;
      });
  }, 500);
  timer.unref();
  const end = pool.end.bind(pool);
  pool.end = (() => {
    clearInterval(timer);
    return end();
  }) as typeof pool.end;
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
  /** One-shot tools doing long work (the seed CLI): PoolOptions.longWork. */
  longWork?: boolean;
  /** The pool's connections: `DATABASE_POOL_SIZE` (config.ts); default DEFAULT_POOL_SIZE. */
  poolSize?: number;
  /** A process that serves requests: PoolOptions.servesRequests. */
  servesRequests?: boolean;
}): Promise<Database> {
  const size = opts.poolSize ?? DEFAULT_POOL_SIZE;
  if (opts.databaseUrl) {
    const pool = createPool(opts.databaseUrl, size, {
      longWork: opts.longWork,
      servesRequests: opts.servesRequests,
    });
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
  // the application's own role owns the database; the superuser connection is not kept (db/roles.ts)
  const url = await ensureAppRole(embedded.url, {
    role: APP_ROLE,
    password: appRolePassword(opts.dataDir),
    database: 'vigia',
  });
  const pool = createPool(url, size, { longWork: opts.longWork, servesRequests: opts.servesRequests });
  return {
    pool,
    kind: 'embedded',
    url,
    adminUrl: embedded.url.replace(/\/postgres$/, '/vigia'),
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
  let failed: Error | undefined;
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    failed = isDatabaseUnavailable(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    client.release(failed); // a connection that failed (cut, timed out) leaves the pool
  }
}

/**
 * A query on a client of its own, checked out and released here. For large results: `pool.query` on a
 * connection the pool opens for it keeps the result reachable for as long as that connection lives
 * (pg-pool 3.14: the new client's connect listener holds the request that opened it, whose promise holds
 * the result) — 27.6 MiB on the medium market after a pivot model's load, its offers' rows.
 */
export async function queryOwnClient<R extends pg.QueryResultRow | unknown[]>(
  db: Queryable,
  config: pg.QueryConfig & { rowMode?: 'array' },
): Promise<pg.QueryResult<R>> {
  return withOwnClient(db, (client) => client.query(config as pg.QueryConfig) as Promise<pg.QueryResult<R>>);
}

/**
 * Runs `fn` on a client of its own (checked out of a pool and released here; a client given is used as
 * it is). A connection that failed (cut, timed out) leaves the pool.
 */
export async function withOwnClient<T>(db: Queryable, fn: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  if (!(db instanceof pg.Pool)) return fn(db);
  const client = await db.connect();
  let failed: Error | undefined;
  try {
    return await fn(client);
  } catch (err) {
    failed = isDatabaseUnavailable(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    client.release(failed);
  }
}

export type Queryable = pg.Pool | pg.PoolClient;
