import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, freePort } from '../../db/database.js';
import { createTestDatabase } from '../../test/context.js';
import { seedDemoMarket } from './seed-demo.js';

// A server killed (SIGKILL) in the middle of loading the demo market: the database holds whole days or
// none (ingest_runs says which), and the next start finishes the same market.

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const TODAY = '2026-06-15';
const dbs: Database[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(dbs.map((d) => d.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function node(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/** The market by natural keys (surrogate ids may differ between two loads). */
async function fingerprint(db: Database) {
  const { rows } = await db.pool.query(
    `select
       (select md5(string_agg(concat_ws('|', seller_id, product_id, name, ean, first_seen, last_seen, published), ','
                  order by seller_id, product_id)) from products) as products,
       (select md5(string_agg(concat_ws('|', p.seller_id, p.product_id, i.valid_from, i.valid_to, i.normal_price,
                  i.sale_price, i.stock_out), ',' order by p.seller_id, p.product_id, i.valid_from))
          from price_intervals i join products p on p.id = i.product_id) as intervals,
       (select md5(string_agg(concat_ws('|', day, seller_id, classification_id, brand_id, published, in_stock,
                  effective_price_sum), ',' order by seller_id, day, classification_id, brand_id))
          from rollup_daily_brand) as rollups,
       (select string_agg(concat_ws(':', seller_id, n), ',' order by seller_id)
          from (select seller_id, count(*) as n from ingest_runs where status = 'succeeded' group by seller_id) r) as runs,
       (select count(*)::int from users) as users`,
  );
  return rows[0];
}

describe('a demo load killed half-way', () => {
  it('leaves whole days only, and the next start finishes the same market', async () => {
    const [killed, reference] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    dbs.push(killed, reference);

    const loader = node(
      [
        '--input-type=module',
        '-e',
        `const { createPool } = await import('./apps/server/src/db/database.ts');
         const { seedDemoMarket } = await import('./apps/server/src/modules/demo/seed-demo.ts');
         await seedDemoMarket(createPool(process.env.URL, 4), { size: 'tiny', today: '${TODAY}' });
         console.log('finished');`,
      ],
      { URL: killed.url },
    );
    // Killed once a good part of the days are in (tiny: 5 sellers × 30 days, one seller at a time).
    const until = Date.now() + 120_000;
    let runs = 0;
    while (runs < 40 && Date.now() < until && loader.child.exitCode === null) {
      runs = (await killed.pool.query<{ n: number }>('select count(*)::int as n from ingest_runs')).rows[0].n;
      await new Promise((r) => setTimeout(r, 50));
    }
    loader.child.kill('SIGKILL');
    await loader.exited;
    expect(loader.output()).not.toContain('finished');

    // Whole or absent: every run recorded is a succeeded one, and the seed is marked unfinished.
    const { rows: state } = await killed.pool.query(
      `select (select count(*)::int from ingest_runs where status <> 'succeeded') as not_whole,
              (select count(*)::int from ingest_runs) as runs,
              (select count(*)::int from demo_seed where finished_at is null) as unfinished,
              (select count(*)::int from users) as users`,
    );
    expect(state[0].not_whole).toBe(0);
    expect(state[0].runs).toBeGreaterThanOrEqual(40);
    expect(state[0].runs).toBeLessThan(150);
    expect(state[0].unfinished).toBe(1);
    expect(state[0].users).toBe(0);

    // The next start (DEMO_DATA=none: it still finishes what was begun) — the server as a process.
    const dataDir = mkdtempSync(join(tmpdir(), 'vigia-resume-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = node(['apps/server/src/main.ts'], {
      DATABASE_URL: killed.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'none',
      LOG_LEVEL: 'warn',
    });
    let healthy = false;
    const deadline = Date.now() + 180_000;
    while (!healthy && Date.now() < deadline && server.child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 250));
    }
    expect(healthy, server.output()).toBe(true);
    expect(server.output()).toContain(
      `La carga de datos de demostración (tiny, hasta ${TODAY}) quedó interrumpida`,
    );
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);

    await seedDemoMarket(reference.pool, { size: 'tiny', today: TODAY });
    const [a, b] = await Promise.all([fingerprint(killed), fingerprint(reference)]);
    expect(a).toEqual(b);
    expect(a.runs).toBe('5:30,116:30,125:30,131:30,150:30');
    expect(a.users).toBe(2);
    const { rows: fin } = await killed.pool.query('select finished_at from demo_seed');
    expect(fin[0].finished_at).not.toBeNull();
  }, 400_000);
});
