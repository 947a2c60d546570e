import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { seedAccountFixture } from '../../test/fixtures-account.js';
import { runImport } from './import-pool.js';

// A worker killed (SIGKILL) while its import (in the imports pool's thread, as the job runs it) is inside
// the ingest transaction leaves no partial data; the next run of the same import run completes it.

const ITEMS = 10_000;
let db: Database;
let server: Server;
let url: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedAccountFixture(db);
  await db.pool.query(
    `insert into sellers (id, name, country, currency, color) values (400, 'Tienda nueva', 'CL', 'CLP', '#123456')`,
  );
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++)
    items.push(
      `<item><g:id>K-${i}</g:id><g:title>Producto ${i}</g:title><g:price>${1000 + i} CLP</g:price><g:brand>Marca ${i % 50}</g:brand></item>`,
    );
  const body = `<?xml version="1.0"?><rss xmlns:g="http://base.google.com/ns/1.0"><channel>${items.join('\n')}</channel></rss>`;
  server = createServer((_req, res) => res.writeHead(200).end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await db?.close();
});

const count = async () =>
  Number((await db.pool.query('select count(*) from products where seller_id = 400')).rows[0].count);

it('a worker killed mid-import leaves no partial data and the next run completes it', async () => {
  const { rows: org } = await db.pool.query(`select id from organisations order by id limit 1`);
  const { rows: src } = await db.pool.query(
    `insert into import_sources (org_id, seller_id, name, origin, url, format, mode)
     values ($1, 400, 'Grande', 'url', $2, 'merchant-xml', 'full') returning id`,
    [org[0].id, url],
  );
  const { rows: run } = await db.pool.query(
    `insert into import_runs (org_id, source_id, source_kind, seller_id, trigger) values ($1, $2, 'feed', 400, 'manual') returning id`,
    [org[0].id, src[0].id],
  );
  const runId = Number(run[0].id);
  const childUrl = new URL(db.url!);
  childUrl.searchParams.set('application_name', 'feed-child');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/test/feed-import-child.ts', childUrl.toString(), String(runId)],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  // Wait until the child is inside the ingest transaction (it wrote into the seller's rows), then kill it.
  const deadline = Date.now() + 60_000;
  let inside = false;
  while (!inside && Date.now() < deadline) {
    const { rows } = await db.pool.query(
      `select 1 from pg_stat_activity where application_name = 'feed-child' and backend_xid is not null`,
    );
    inside = rows.length > 0;
    if (!inside) await new Promise((r) => setTimeout(r, 20));
  }
  expect(inside).toBe(true);
  child.kill('SIGKILL');
  expect(await exited).toBeNull();
  // The killed backend's transaction is rolled back once PostgreSQL notices the closed connection.
  for (let i = 0; i < 100; i++) {
    const { rows } = await db.pool.query(
      `select 1 from pg_stat_activity where application_name = 'feed-child'`,
    );
    if (!rows.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await count()).toBe(0);
  const after = (await db.pool.query('select status from import_runs where id = $1', [runId])).rows[0];
  expect(after.status).toBe('running');
  expect(
    Number((await db.pool.query(`select count(*) from ingest_runs where seller_id = 400`)).rows[0].count),
  ).toBe(0);

  // The retried job runs the same import run again and completes it.
  const config = loadConfig({
    DATA_DIR: '/tmp',
    LOG_LEVEL: 'silent',
    FETCH_ALLOW_PRIVATE: 'true',
    JWT_SECRET: 'x'.repeat(32),
  });
  const done = await runImport({ pool: db.pool, config }, runId);
  expect(done.status).toBe('succeeded');
  expect(await count()).toBe(ITEMS);
  const final = (await db.pool.query('select * from import_runs where id = $1', [runId])).rows[0];
  expect(final).toMatchObject({ status: 'succeeded', attempts: 2, rows_written: ITEMS, rows_rejected: 0 });
});
