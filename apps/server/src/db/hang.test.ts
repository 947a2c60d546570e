import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type AccountFixture, authHeader, seedAccountFixture, tokenFor } from '../test/fixtures-account.js';
import { createPool, DB_TIMEOUTS, ensureDatabase, freePort } from './database.js';
import { type ClusterLayout, clusterLayout, type EmbeddedServer, startEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';

// Issue 26 finding 7: a hung database (PostgreSQL stopped with SIGSTOP: its connections stay open, nothing
// answers, nothing fails) must get a 503 within seconds, not pin every request for as long as it hangs.
// A real PostgreSQL of its own (as db/outage.test.ts), every process of it stopped, then continued.

let dataDir: string;
let layout: ClusterLayout;
let server: EmbeddedServer;
let pool: pg.Pool;
let app: FastifyInstance;
let config: Config;
let fx: AccountFixture;
let stopped: number[] = [];

/** The postmaster of the test's own cluster and its children (backends, background workers). */
function clusterPids(): number[] {
  const pm = Number(readFileSync(join(layout.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [pm];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pm) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

function resume() {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {}
  }
  stopped = [];
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigia-hang-'));
  layout = clusterLayout(dataDir);
  const password = randomBytes(18).toString('base64url');
  server = await startEmbeddedPostgres(layout.dir, { layout, password, port: await freePort() });
  const url = server.url.replace(/\/postgres$/, '/vigia');
  await ensureDatabase(url);
  pool = createPool(url);
  await migrate(pool);
  fx = await seedAccountFixture(pool);
  config = loadConfig({
    DATA_DIR: join(dataDir, 'app'),
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'none',
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
  });
  app = await buildApp({ config, db: { pool, kind: 'external', url, close: async () => {} } });
  await app.ready();
}, 120_000);

afterAll(async () => {
  resume();
  await app?.close();
  await pool?.end();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (layout?.relocated) rmSync(dirname(layout.dir), { recursive: true, force: true });
});

const me = (token: string) => app.inject({ method: 'GET', url: '/v1/users/me/', headers: authHeader(token) });

describe('a hung database (issue 26 finding 7)', () => {
  it('answers 503 with Retry-After within seconds while PostgreSQL is stopped, and 200 again after SIGCONT', async () => {
    const token = tokenFor({ config }, fx.users.demo);
    expect((await me(token)).statusCode).toBe(200);

    stopped = clusterPids();
    for (const pid of stopped) process.kill(pid, 'SIGSTOP');
    try {
      const timings: number[] = [];
      // the pool's connections are open and idle: the first request's query is sent and never answered
      for (let i = 0; i < 3; i++) {
        const t = Date.now();
        const res = await me(token);
        timings.push(Date.now() - t);
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json().code).toBe('database_unavailable');
      }
      const t = Date.now();
      const health = await app.inject({ method: 'GET', url: '/health' });
      timings.push(Date.now() - t);
      expect(health.statusCode).toBe(503);
      console.log(
        `hung database: GET /v1/users/me/ ×3 then /health answered 503 after ${timings.join(', ')} ms`,
      );
      // within seconds: the hang check's delay, its probe and a connection attempt, with room for a busy machine
      const bound = DB_TIMEOUTS.suspectAfterMs + DB_TIMEOUTS.probeMs + DB_TIMEOUTS.connectMs + 3_000;
      for (const ms of timings) expect(ms).toBeLessThan(bound);
    } finally {
      resume();
    }

    // continued: the same app answers again without a restart
    const until = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < until && status !== 200) {
      status = (await me(token)).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  }, 120_000);

  it('a slow statement on a database that answers is ended by its statement_timeout, not by the hang check', async () => {
    const slow = createPool(pool.options.connectionString as string, 2, { statementTimeoutMs: 8_000 });
    try {
      // 5 s: longer than the hang check's delay, shorter than this pool's statement_timeout
      const { rows } = await slow.query<{ ok: number }>('select 1 as ok from pg_sleep(5)');
      expect(rows[0].ok).toBe(1);
      const err = await slow.query('select pg_sleep(10)').catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('57014'); // canceling statement due to statement timeout
    } finally {
      await slow.end();
    }
  }, 60_000);
});
