// npm run memory -w @vigia/bench -- --data DIR
// What each in-memory structure of an API process costs on a seeded market (issue 30 parts 1 and 4): the
// process's heap and array buffers after a full garbage collection, before and after loading, in the
// order the server warms them up:
//   - the pricing models of every licensed pivot (modules/pricing/model.ts);
//   - the brand comparator's price history of those pivots (modules/brand-comparator/history.ts);
//   - the promotions copies of every seller in the default zone (modules/promotions/model.ts);
//   - the dashboard's index history of every pivot (modules/dashboard/index-history.ts);
// with the market's listings and price intervals counted, so that each is also given per listing.
// Runs the built server's modules (npm run build) against DIR's embedded database; nothing else may run
// on DIR.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TIMEZONE } from '@vigia/domain';
import { built, database } from './server.js'; // (it refuses to run without a build)

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('Ejecute con node --expose-gc (npm run memory -w @vigia/bench lo hace)');
  process.exit(2);
}
type Mod<T> = Promise<T>;
const load = <T>(path: string) => import(built(path)) as Mod<T>;
const { openDatabase } = database;
const { getPivotModel, licensedPivots } =
  await load<typeof import('../../apps/server/src/modules/pricing/model.js')>('modules/pricing/model.js');
const { warmHistory, historySettled, stopHistory } = await load<
  typeof import('../../apps/server/src/modules/brand-comparator/history.js')
>('modules/brand-comparator/history.js');
const { sellerSpans } = await load<typeof import('../../apps/server/src/modules/promotions/model.js')>(
  'modules/promotions/model.js',
);
const { loadIndexHistory, historyWindow } = await load<
  typeof import('../../apps/server/src/modules/dashboard/index-history.js')
>('modules/dashboard/index-history.js');
const { WARM_DAYS } =
  await load<typeof import('../../apps/server/src/modules/dashboard/days.js')>('modules/dashboard/days.js');
const { today } = await load<typeof import('../../apps/server/src/market/days.js')>('market/days.js');

const args = process.argv.slice(2);
const d = args.indexOf('--data');
const dataDir = d >= 0 ? args[d + 1] : process.env.BENCH_DATA_DIR;
if (!dataDir || !existsSync(join(dataDir, 'pg'))) {
  console.error(
    '--data DIR: una carpeta con un mercado sembrado (DIR/pg), sin servidor corriendo sobre ella',
  );
  process.exit(2);
}

const MiB = 2 ** 20;
function used() {
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers, rss: m.rss };
}

const db = await openDatabase({ dataDir });
const pool = db.pool;
const kept: unknown[] = [];
try {
  const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);
  const listings = await count('select count(*) as n from products');
  const intervals = await count('select count(*) as n from price_intervals');
  const pivots = await licensedPivots(pool);
  const { rows: sellers } = await pool.query<{ id: number }>('select id from sellers order by id');
  console.log(
    `${dataDir}: ${listings} publicaciones, ${intervals} intervalos de precio, pivotes ${pivots.join(', ')}`,
  );
  const rows: string[] = [];
  let before = used();
  const start = before;
  const step = async (name: string, per: number, perName: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    kept.push(await fn());
    const ms = performance.now() - t;
    const after = used();
    const heap = after.heap - before.heap;
    const buffers = after.buffers - before.buffers;
    const total = heap + buffers;
    const line = `| ${name} | ${(ms / 1000).toFixed(1)} | ${(heap / MiB).toFixed(1)} | ${(buffers / MiB).toFixed(1)} | ${(total / MiB).toFixed(1)} | ${per ? (total / per).toFixed(0) : '—'} B per ${perName} |`;
    console.log(line);
    rows.push(line);
    before = after;
  };
  const models: Awaited<ReturnType<typeof getPivotModel>>[] = [];
  for (const pivot of pivots) {
    const { rows: n } = await pool.query<{ n: string }>(
      'select count(*) as n from products where seller_id = $1',
      [pivot],
    );
    await step(`pricing model, pivot ${pivot}`, Number(n[0].n), "pivot's listing", async () => {
      const m = await getPivotModel(pool, pivot);
      models.push(m);
      return m;
    });
  }
  await step('brand comparator history, every pivot', intervals, 'price interval of the market', async () => {
    for (const m of models) await warmHistory(pool, m);
    await historySettled(pool);
  });
  await step(
    `promotions copies, ${sellers.length} sellers (${DEFAULT_TIMEZONE})`,
    listings,
    'listing',
    async () => {
      const out = [];
      for (const s of sellers) out.push(await sellerSpans(pool, [s.id], DEFAULT_TIMEZONE));
      return out;
    },
  );
  await step('dashboard index history, every pivot', listings, 'listing', async () => {
    const w = historyWindow(today(new Date(), DEFAULT_TIMEZONE), WARM_DAYS);
    for (const pivot of pivots) await loadIndexHistory(pool, pivot, DEFAULT_TIMEZONE, w.from, w.to);
  });
  const end = used();
  console.log(
    `\n| structure | load s | heap MiB | array buffers MiB | total MiB | per unit |\n|---|---:|---:|---:|---:|---|\n${rows.join('\n')}`,
  );
  console.log(
    `\nTotal: heap +${((end.heap - start.heap) / MiB).toFixed(0)} MiB, array buffers +${((end.buffers - start.buffers) / MiB).toFixed(0)} MiB; ` +
      `process RSS ${(start.rss / MiB).toFixed(0)} → ${(end.rss / MiB).toFixed(0)} MiB (after GC).`,
  );
  await stopHistory(pool);
} finally {
  await db.close();
}
