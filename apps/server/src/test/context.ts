import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { createPool, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database of its own on the shared test server, owned by the application's role and
 * migrated and used as it, as the server does (db/roles.ts).
 */
export async function createTestDatabase(): Promise<Database> {
  const adminUrl = inject('pgAdminUrl');
  const appUrl = new URL(inject('pgAppUrl'));
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const owner =
    appUrl.username === new URL(adminUrl).username ? '' : ` owner "${decodeURIComponent(appUrl.username)}"`;
  await admin.query(`create database ${name}${owner}`);
  await admin.end();
  const url = appUrl;
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 10);
  await migrate(pool);
  return {
    pool,
    kind: 'external',
    url: url.toString(),
    close: async () => {
      await pool.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A test application on its own database. `seed` fills it before the app is built (fixtures or the
 * demo generator); `env` overrides configuration.
 */
export async function createTestContext(
  opts: { seed?: (db: Database) => Promise<void>; env?: Record<string, string> } = {},
): Promise<TestContext> {
  const db = await createTestDatabase();
  if (opts.seed) await opts.seed(db);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigia-test-data-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'none',
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST: '/nonexistent',
    // the test runner's memory is not a server's: no collections of platform/memory.ts in it
    MEMORY_SOFT_LIMIT_MB: '0',
    ...opts.env,
  });
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    db,
    config,
    close: async () => {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app on the test context's database with a pool of its own — what a second API process
 * would be (its own read-model holder and LISTEN connection, its own socket.io server).
 */
export async function createSecondApp(ctx: TestContext): Promise<{
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}> {
  const pool = createPool(ctx.db.url, 5);
  const db: Database = { pool, kind: 'external', url: ctx.db.url, close: () => pool.end() };
  const app = await buildApp({ config: ctx.config, db });
  await app.ready();
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}
