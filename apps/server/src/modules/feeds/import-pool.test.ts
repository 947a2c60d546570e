import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { seedAccountFixture } from '../../test/fixtures-account.js';
import type { Progress } from './import.js';
import { runImport, setImportLimits } from './import-pool.js';

// A feed import run as the 'feed-import' job runs it: in a thread of the imports pool, with a capped heap.
// Its progress and step times reach the main thread; a run that needs more heap than the cap fails with
// that reason, leaves nothing (its transaction dies with the thread) and is not queued again; the same
// run's source imports whole with the default cap.

const ITEMS = 3_000;
let db: Database;
let server: Server;
let url: string;
const config = { FETCH_ALLOW_PRIVATE: true, FEED_MAX_BYTES: 50 * 1024 * 1024 };

beforeAll(async () => {
  db = await createTestDatabase();
  await seedAccountFixture(db);
  await db.pool.query(
    `insert into sellers (id, name, country, currency, color) values (410, 'Tienda hilo', 'CL', 'CLP', '#123456')`,
  );
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++)
    items.push(
      `<item><g:id>H-${i}</g:id><g:title>Producto ${i}</g:title><g:price>${1000 + i} CLP</g:price><g:brand>Marca ${i % 20}</g:brand></item>`,
    );
  // one broken row (no price): rejected with its line, the rest lands
  items.push('<item><g:id>H-sin-precio</g:id><g:title>Sin precio</g:title></item>');
  const body = `<?xml version="1.0"?>\n<rss xmlns:g="http://base.google.com/ns/1.0"><channel>\n${items.join('\n')}\n</channel></rss>`;
  server = createServer((_req, res) => res.writeHead(200).end(body));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
});
afterAll(async () => {
  setImportLimits();
  await new Promise<void>((r) => server.close(() => r()));
  await db?.close();
});

const count = async () =>
  Number((await db.pool.query('select count(*) from products where seller_id = 410')).rows[0].count);

async function newRun(): Promise<number> {
  const { rows: org } = await db.pool.query(`select id from organisations order by id limit 1`);
  const { rows: src } = await db.pool.query(
    `insert into import_sources (org_id, seller_id, name, origin, url, format, mode)
     values ($1, 410, 'Hilo', 'url', $2, 'merchant-xml', 'full') returning id`,
    [org[0].id, url],
  );
  const { rows: run } = await db.pool.query(
    `insert into import_runs (org_id, source_id, source_kind, seller_id, trigger) values ($1, $2, 'feed', 410, 'manual') returning id`,
    [org[0].id, src[0].id],
  );
  return Number(run[0].id);
}

it('a run whose thread runs out of heap (a cap too small for it) fails with that reason and leaves nothing', async () => {
  const runId = await newRun();
  const told: (Progress & { status: string; error: string | null })[] = [];
  setImportLimits({ heapMb: 6, youngMb: 1 });
  let done: Awaited<ReturnType<typeof runImport>>;
  try {
    done = await runImport({ pool: db.pool, config }, runId, { onProgress: (_r, p) => told.push(p) });
  } finally {
    setImportLimits();
  }
  expect(done.status).toBe('failed');
  const row = (await db.pool.query('select * from import_runs where id = $1', [runId])).rows[0];
  expect(row).toMatchObject({
    status: 'failed',
    rows_written: 0,
    rows_changed: 0,
    error:
      'el feed necesita más memoria de la que tiene el importador (6 MB); divídalo en varios archivos o impórtelo como fuente parcial',
  });
  expect(row.finished_at).not.toBeNull();
  expect(told.at(-1)).toMatchObject({ status: 'failed', rowsWritten: 0, error: row.error });
  // nothing of the run landed, and nothing of it is waiting to run again
  expect(await count()).toBe(0);
  expect(
    Number((await db.pool.query(`select count(*) from ingest_runs where seller_id = 410`)).rows[0].count),
  ).toBe(0);
});

it('with the default cap the run imports whole; progress and step times reach the main thread', async () => {
  const runId = await newRun();
  const told: (Progress & { status: string })[] = [];
  const steps: [string, number, number | undefined][] = [];
  const done = await runImport({ pool: db.pool, config }, runId, {
    onProgress: (_r, p) => told.push(p),
    onStep: (step, ms, heap) => steps.push([step, ms, heap]),
  });
  expect(done.status).toBe('succeeded');
  expect(await count()).toBe(ITEMS);
  const row = (await db.pool.query('select * from import_runs where id = $1', [runId])).rows[0];
  expect(row).toMatchObject({
    status: 'succeeded',
    rows_read: ITEMS + 1,
    rows_written: ITEMS,
    rows_changed: ITEMS,
    rows_rejected: 1,
  });
  // the first message says the run started, the last one how it ended (after the thread's answer)
  expect(told[0]).toMatchObject({ status: 'running', rowsRead: 0 });
  expect(told.at(-1)).toEqual({
    status: 'succeeded',
    error: null,
    rowsRead: ITEMS + 1,
    rowsWritten: ITEMS,
    rowsRejected: 1,
  });
  const rejected = await db.pool.query(
    'select line, product_id, reason from import_rejections where run_id = $1',
    [runId],
  );
  // lines 1–2: the declaration and <rss><channel>; item i on line 3 + i, the broken one after the ITEMS
  expect(rejected.rows).toEqual([{ line: ITEMS + 3, product_id: 'H-sin-precio', reason: 'falta el precio' }]);
  // every roll-up ran in the thread (those of modules/rollups.ts too, not only ingest's own daily one) …
  for (const r of ['daily', 'pricing', 'promotions', 'image-verification', 'notifications', 'assortment'])
    expect(steps.map((s) => s[0])).toContain(`roll-up ${r}`);
  // … and they are current at once: the day's published listings by brand
  const daily = await db.pool.query<{ published: number; brands: number }>(
    'select sum(published)::int as published, count(distinct brand_id)::int as brands from rollup_daily_brand where seller_id = 410',
  );
  expect(daily.rows[0]).toEqual({ published: ITEMS, brands: 20 });
  const names = steps.map((s) => s[0]);
  expect(names).toContain('parts: reading the source');
  expect(names).toContain('write listings');
  // the thread's heap in use, below its cap (128 MB)
  for (const [, ms, heap] of steps) {
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(heap).toBeGreaterThan(0);
    expect(heap).toBeLessThan(128 * 1024 * 1024);
  }
});
