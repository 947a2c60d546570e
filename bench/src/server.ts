// The bench's server process: the built server (apps/server/dist) started against a bench database, and
// the demo user's token. Shared by run.ts (the whole bench), focus.ts (a few endpoints) and burst.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

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

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  // up to 20 minutes: the first start on a copied database applies pending migrations, and a migration
  // that backfills a read model from the price history of a medium market takes minutes
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error('el servidor terminó antes de estar listo');
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('el servidor no respondió /health');
}

/**
 * Waits until the start-up work of the server is done: the dashboard warm-up job it enqueues when ready
 * (on the large market it computes for seconds, and measuring meanwhile counted its CPU in the first
 * results). Returns the seconds waited.
 */
async function waitForStartupJobs(url: string, since: Date): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const t = performance.now();
  try {
    for (let i = 0; i < 1200; i++) {
      const { rows } = await pool.query<{ done: boolean; busy: boolean }>(
        `select exists (select 1 from jobs where queue = 'dashboard-warm' and created_at >= $1
                          and status in ('succeeded', 'failed')) as done,
                exists (select 1 from jobs where status in ('queued', 'running') and run_at <= now()) as busy`,
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
  const res = await fetch(`${baseUrl}/v1/auth-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Starts the built server (`main`, default this checkout's) on `port` against `url` (it applies the
 * pending migrations on start),
 * waits for its start-up jobs and logs in as the demo user. `env` overrides its settings (burst.ts runs
 * it with the production per-user limits).
 */
export async function startServer(
  url: string,
  dataDir: string,
  port: number,
  main = join(repoRoot, 'apps/server/dist/main.js'),
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; baseUrl: string; token: string }> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const startedAt = new Date(Date.now() - 1000);
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      DATA_DIR: join(dataDir, 'app'),
      DEMO_DATA: 'none',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      USER_RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(baseUrl, child);
    const waited = await waitForStartupJobs(url, startedAt);
    console.log(`  servidor listo; trabajos de inicio terminados en ${waited.toFixed(1)} s`);
    return { child, baseUrl, token: await login(baseUrl, 'demo@example.com') };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}
