import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { createTestDatabase } from './test/context.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const cfg = loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test' });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.HOST).toBe('127.0.0.1');
    expect(cfg.PUBLIC_URL).toBe('http://localhost:8080');
    expect(cfg.DEMO_DATA).toBe('small');
    expect(cfg.BRAND_COMPARATOR_SELLERS).toEqual([5]);
    expect(cfg.IMAGE_VERIFICATION_SELLERS).toEqual([116, 125]);
    expect(cfg.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(cfg.DATABASE_POOL_SIZE).toBe(20);
    expect(cfg.MEMORY_SOFT_LIMIT_MB).toBe(1200);
    // the generated secret is stable for the same data directory
    expect(loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test' }).JWT_SECRET).toBe(cfg.JWT_SECRET);
  });

  it('names the variable of a wrong value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEMO_DATA: 'huge' })).toThrow(/DEMO_DATA/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ IMAGE_VERIFICATION_SELLERS: '116;125' })).toThrow(/IMAGE_VERIFICATION_SELLERS/);
    expect(() => loadConfig({ MEMORY_SOFT_LIMIT_MB: '1.5GB' })).toThrow(/MEMORY_SOFT_LIMIT_MB/);
    expect(() => loadConfig({ MEMORY_SOFT_LIMIT_MB: '-1' })).toThrow(/MEMORY_SOFT_LIMIT_MB/);
  });
});

describe('DATABASE_POOL_SIZE', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('refuses a value that is not a whole number from 4 to 200, naming the variable', () => {
    for (const bad of ['abc', '0', '3', '2.5', '201', '-1']) {
      expect(() => loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test', DATABASE_POOL_SIZE: bad })).toThrow(
        /DATABASE_POOL_SIZE/,
      );
    }
    expect(
      loadConfig({ DATA_DIR: '/tmp/vigia-cfg-test', DATABASE_POOL_SIZE: ' 7 ' }).DATABASE_POOL_SIZE,
    ).toBe(7);
  });

  /** Connections a pool opened for 10 queries at once (each holds its connection 0.2 s). */
  async function connectionsFor(opts: Parameters<typeof openDatabase>[0]): Promise<number> {
    const opened = await openDatabase(opts);
    try {
      const pids = await Promise.all(
        Array.from({ length: 10 }, () =>
          opened.pool
            .query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.2)')
            .then((r) => r.rows[0].pid),
        ),
      );
      return new Set(pids).size;
    } finally {
      await opened.close();
    }
  }

  it("sizes the process's pool: 10 concurrent queries run on exactly that many connections", async () => {
    const cfg = loadConfig({
      DATA_DIR: '/tmp/vigia-cfg-test',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
    });
    // as main.ts and the CLIs open it
    expect(
      await connectionsFor({
        databaseUrl: cfg.DATABASE_URL,
        dataDir: cfg.DATA_DIR,
        poolSize: cfg.DATABASE_POOL_SIZE,
      }),
    ).toBe(4);
    // unset: the default of 20, so the 10 queries get 10 connections
    expect(await connectionsFor({ databaseUrl: db.url, dataDir: cfg.DATA_DIR })).toBe(10);
  });
});
