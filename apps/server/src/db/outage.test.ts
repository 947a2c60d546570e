import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MESSAGES } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { enqueue, registerJobHandler, unregisterJobHandler, waitForJob } from '../platform/jobs/queue.js';
import {
  type AccountFixture,
  authHeader,
  loginAs,
  seedAccountFixture,
  tokenFor,
} from '../test/fixtures-account.js';
import { createPool, ensureDatabase, freePort } from './database.js';
import { type ClusterLayout, clusterLayout, type EmbeddedServer, startEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';

// The database going away under a running server: a real PostgreSQL of its own, stopped for ten seconds
// and started again on the same port, while the API and the job worker keep running.

let dataDir: string;
let layout: ClusterLayout;
let server: EmbeddedServer;
let port: number;
const password = randomBytes(18).toString('base64url');
let pool: pg.Pool;
let app: FastifyInstance;
let config: Config;
let fx: AccountFixture;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigia-outage-'));
  layout = clusterLayout(dataDir);
  port = await freePort();
  server = await startEmbeddedPostgres(layout.dir, { layout, password, port });
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
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
  });
  app = await buildApp({ config, db: { pool, kind: 'external', url, close: async () => {} } });
  await app.ready();
}, 120_000);

afterAll(async () => {
  unregisterJobHandler('outage-test');
  await app?.close();
  await pool?.end();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (layout?.relocated) rmSync(dirname(layout.dir), { recursive: true, force: true });
});

const me = (token: string) => app.inject({ method: 'GET', url: '/v1/users/me/', headers: authHeader(token) });

describe('the database going away', () => {
  it('answers 503 with Retry-After during a ten-second outage, and everything again afterwards without a restart', async () => {
    const token = tokenFor({ config }, fx.users.demo);
    expect((await me(token)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    // A job that is running when the database stops: its first attempt fails on the database.
    let attempts = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    registerJobHandler('outage-test', async (_payload, ctx) => {
      attempts++;
      if (attempts === 1) {
        started();
        await released;
      }
      await ctx.pool.query('select 1');
    });
    const jobId = await enqueue(pool, 'outage-test', {});
    await running;

    await server.stop();
    const stoppedAt = Date.now();
    release();

    // Requests during the outage: authenticated, login, health — all 503, never 500, never a stack.
    const seen = new Set<number>();
    while (Date.now() - stoppedAt < 10_000) {
      const res = await me(token);
      seen.add(res.statusCode);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ detail: MESSAGES.slowConnection, code: 'database_unavailable' });
      const login = await app.inject({
        method: 'POST',
        url: '/v1/auth-token/',
        payload: { email: 'demo@example.com', password: 'demo1234' },
      });
      expect(login.statusCode, login.body).toBe(503);
      expect(login.json().detail).toBe(MESSAGES.slowConnection);
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(503);
      expect(health.headers['retry-after']).toBe('5');
      expect(health.json()).toEqual({
        status: 'unavailable',
        version: expect.any(String),
        database: 'external',
        databaseStatus: 'down',
      });
      expect(health.body).not.toMatch(/ECONNREFUSED|stack|at /);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect([...seen]).toEqual([503]);

    server = await startEmbeddedPostgres(layout.dir, { layout, password, port });

    // Back: the same app instance answers again (the pool reconnects by itself).
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().databaseStatus).toBe('up');
    expect((await me(token)).statusCode).toBe(200);
    expect(await loginAs(app, 'demo@example.com')).toEqual(expect.any(String));
    // The interrupted job was retried and succeeded on its second attempt.
    const job = await waitForJob(pool, jobId!, { timeoutMs: 30_000 });
    expect(job.status).toBe('succeeded');
    expect(job.attempts).toBe(2); // pg-boss: the failed attempt was recorded when the database came back
    expect(attempts).toBe(2);
  }, 90_000);

  it('an embedded PostgreSQL that stops on its own is restarted by the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigia-supervise-'));
    const l = clusterLayout(dir);
    const lines: string[] = [];
    const s = await startEmbeddedPostgres(l.dir, {
      layout: l,
      password,
      supervise: true,
      log: (m) => lines.push(m),
    });
    const p = createPool(s.url, 2);
    try {
      expect((await p.query('select 1 as x')).rows[0].x).toBe(1);
      const pmPid = Number(readFileSync(join(l.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pmPid, 'SIGINT'); // as `pg_ctl stop -m fast` would
      const until = Date.now() + 30_000;
      let ok = false;
      let sawDown = false;
      while (!ok && Date.now() < until) {
        ok = await p.query('select 1').then(
          () => sawDown,
          () => {
            sawDown = true;
            return false;
          },
        );
        if (!ok) await new Promise((r) => setTimeout(r, 200));
      }
      expect(sawDown).toBe(true);
      expect(ok).toBe(true);
      // the supervisor says so once its own check sees the server up (every 100 ms): a query may get there
      // first on a busy machine
      await vi.waitFor(() => expect(lines.join('\n')).toContain('PostgreSQL reiniciado'), {
        timeout: 10_000,
      });
    } finally {
      await p.end();
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
      if (l.relocated) rmSync(dirname(l.dir), { recursive: true, force: true });
    }
  }, 60_000);
});
