// The bench's server process: the built server (apps/server/dist) started against a bench database, and
// the demo user's token. Shared by run.ts (the whole bench), focus.ts (a few endpoints) and burst.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes } from '@vigia/domain';
import pg from 'pg';
import { callRoute } from './http.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A module of the built server (npm run build), as the server process and `npm start` run it. */
export const built = (path: string) => new URL(`../../apps/server/dist/${path}`, import.meta.url).href;
if (!existsSync(new URL(built('main.js')))) {
  console.error('Falta el servidor compilado: ejecute primero npm run build');
  process.exit(2);
}
/** The built server's database module (typed from the sources, so that type-checking needs no build). */
export const database = (await import(
  built('db/database.js')
)) as typeof import('../../apps/server/src/db/database.js');

/** The built server's database roles (typed from the sources). */
const roles = (await import(built('db/roles.js'))) as typeof import('../../apps/server/src/db/roles.js');

/**
 * The URL of the market in an embedded cluster started by the bench (`adminUrl`: its superuser, database
 * `postgres`). A market seeded by the server or by `npm run seed` lives in database `vigia`, owned by the
 * application role (db/roles.ts): it is used as the server uses it, through that role. A cluster without
 * it is one the bench seeded itself, into the superuser's database: that one.
 */
export async function marketUrl(adminUrl: string, dataDir: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(`select 1 from pg_database where datname = 'vigia'`);
    if (!rowCount) return adminUrl;
  } finally {
    await admin.end();
  }
  return roles.ensureAppRole(adminUrl, {
    role: roles.APP_ROLE,
    password: roles.appRolePassword(dataDir),
    database: 'vigia',
  });
}

/**
 * The market's URL in the embedded cluster of a server already running on `dataDir` (focus.ts `--url`
 * with `--data`): the port from the cluster's postmaster.pid (its 4th line), through the application role
 * as the server connects — nothing in the cluster is changed.
 */
export function runningMarketUrl(dataDir: string): string {
  const pid = join(database.clusterLayout(dataDir).dir, 'postmaster.pid');
  if (!existsSync(pid)) throw new Error(`${pid}: no PostgreSQL runs on ${dataDir}`);
  const port = Number(readFileSync(pid, 'utf8').split('\n')[3]);
  const password = encodeURIComponent(roles.appRolePassword(dataDir));
  return `postgres://${roles.APP_ROLE}:${password}@127.0.0.1:${port}/vigia`;
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  // up to 20 minutes: the first start on a copied database applies pending migrations, and a migration
  // that backfills a read model from the price history of a medium market takes minutes
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error('el servidor terminó antes de estar listo');
    try {
      const res = await callRoute({ baseUrl, token: '' }, routes.system.health, { token: null });
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`el servidor no respondió ${routes.system.health.path}`);
}

/**
 * Waits until the start-up work of the server is done: the dashboard warm-up job its worker enqueues when
 * ready (on the large market it computes for seconds, and measuring meanwhile counted its CPU in the first
 * results), and no other job due. The jobs live in pg-boss's tables (platform/jobs). Returns the seconds
 * waited.
 */
async function waitForStartupJobs(url: string, since: Date): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const t = performance.now();
  const jobs = `(select name, state, created_on, start_after from pgboss.job
                 union all select name, state, created_on, start_after from pgboss.archive) j`;
  try {
    for (let i = 0; i < 1200; i++) {
      const { rows } = await pool.query<{ done: boolean; busy: boolean }>(
        `select exists (select 1 from ${jobs} where name = 'dashboard-warm' and created_on >= $1
                          and state in ('completed', 'failed')) as done,
                exists (select 1 from ${jobs} where state in ('created', 'retry', 'active')
                          and start_after <= now()) as busy`,
        [since],
      );
      if (rows[0].done && !rows[0].busy) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await pool.end();
  }
  return (performance.now() - t) / 1000;
}

export async function login(baseUrl: string, email: string): Promise<string> {
  const res = await callRoute({ baseUrl, token: '' }, routes.auth.login, {
    body: { email, password: 'demo1234' },
    token: null,
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** `url` with an application_name, so that pg_stat_activity tells the processes' connections apart. */
export function namedUrl(url: string, name?: string): string {
  if (!name) return url;
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

/** The environment of a bench server process (its DATA_DIR under the bench's, no demo seed, high rate limits). */
export const serverEnv = (url: string, dataDir: string, port: number, name?: string): NodeJS.ProcessEnv => ({
  // as `npm start` runs it (scripts/start.mjs; docs/operations.md "Memory")
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  ...process.env,
  DATABASE_URL: namedUrl(url, name),
  PORT: String(port),
  DATA_DIR: join(dataDir, 'app'),
  DEMO_DATA: 'none',
  LOG_LEVEL: 'warn',
  LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
  USER_RATE_LIMIT_PER_MINUTE: '100000000',
});

export const SERVER_MAIN = join(repoRoot, 'apps/server/dist/main.js');

/**
 * Starts the built server (`main`, default this checkout's) on `port` against `url` (it applies the
 * pending migrations on start), waits for its start-up jobs and logs in as the demo user. `role` 'api':
 * an API process only (`--role api`), whose jobs a worker started before it runs (startWorker).
 * `env` overrides its settings (burst.ts runs it with the production per-user limits).
 */
export async function startServer(
  url: string,
  dataDir: string,
  port: number,
  main = SERVER_MAIN,
  role: 'all' | 'api' = 'all',
  name?: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; baseUrl: string; token: string }> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const startedAt = new Date(Date.now() - 1000);
  // no --role for 'all': an older build (focus.ts --server) may not know it
  const child = spawn(process.execPath, role === 'all' ? [main] : [main, '--role', role], {
    env: { ...serverEnv(url, dataDir, port, name), ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(baseUrl, child);
    if (role === 'all') {
      const waited = await waitForStartupJobs(url, startedAt);
      console.log(`  servidor listo; trabajos de inicio terminados en ${waited.toFixed(1)} s`);
    } else console.log(`  proceso API listo en ${baseUrl}`);
    return { child, baseUrl, token: await login(baseUrl, 'demo@example.com') };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

/**
 * Starts a worker (`--role worker`: jobs and schedules, no HTTP) against `url` and waits until it says it
 * works and its start-up jobs are done.
 */
export async function startWorker(
  url: string,
  dataDir: string,
  main = SERVER_MAIN,
  name?: string,
): Promise<ChildProcess> {
  const startedAt = new Date(Date.now() - 1000);
  const child = spawn(process.execPath, [main, '--role', 'worker'], {
    env: serverEnv(url, dataDir, 0, name),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('el worker no arrancó en 20 minutos')), 20 * 60_000);
      child.stdout?.on('data', (b: Buffer) => {
        process.stdout.write(b);
        out += b.toString();
        if (/trabajando \(rol worker/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`el worker terminó (${code}) antes de estar listo`));
      });
    });
    const waited = await waitForStartupJobs(url, startedAt);
    console.log(`  worker listo; trabajos de inicio terminados en ${waited.toFixed(1)} s`);
    return child;
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

/** CPU time (user + system) a process has used so far, seconds; NaN when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    // fields after the command's closing parenthesis: state is the 3rd, utime the 14th, stime the 15th
    const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? [];
    return (Number(rest[11]) + Number(rest[12])) / 100; // clock ticks (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}

/** A memory field of a process's /proc status (VmRSS, VmHWM, …), MiB; NaN when it is gone. */
function statusMiB(pid: number, field: string): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory (VmRSS) of a process, MiB; NaN when it is gone. */
export const rssMiB = (pid: number): number => statusMiB(pid, 'VmRSS');

/** Peak resident memory (VmHWM) of a process, MiB; NaN when it is gone. */
export const peakRssMiB = (pid: number): number => statusMiB(pid, 'VmHWM');
