// Seed-time cost of the notifications roll-up (docs/metrics.md "Notifications", "Cost at ingest"):
//   npx tsx apps/server/src/test/notifications-timing.ts [small|tiny] [dataDir]
// Seeds the demo market into an embedded PostgreSQL of its own and prints the seed time and the time
// spent inside the roll-up (its share is what the roll-up adds to every ingest batch).
import { clusterLayout, clusterPassword, startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { type DemoSize, seedDemoMarket } from '../modules/demo/seed-demo.js';
import '../modules/rollups.js';
import pg from 'pg';
import { rollupTiming } from '../modules/notifications/rollup.js';

const size = (process.argv[2] ?? 'small') as DemoSize;
const dataDir = process.argv[3] ?? '/tmp/vigia-bench-notif';
const layout = clusterLayout(dataDir);
const server = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dataDir) });
const pool = new pg.Pool({ connectionString: server.url, max: 4 });
pool.on('error', (err) => console.error('pool:', err.message));
try {
  await pool.query('drop schema if exists public cascade; create schema public');
  await migrate(pool);
  const t = performance.now();
  await seedDemoMarket(pool, { size, log: (m) => console.log(`  [seed] ${m}`) });
  const seconds = (performance.now() - t) / 1000;
  console.log(
    `seed ${size}: ${seconds.toFixed(1)} s; notifications roll-up ${(rollupTiming.ms / 1000).toFixed(1)} s in ${rollupTiming.runs} runs (${((rollupTiming.ms / 1000 / seconds) * 100).toFixed(1)} % of the seed)`,
  );
  console.log(
    'phases (s):',
    Object.fromEntries(Object.entries(rollupTiming.phases).map(([k, v]) => [k, (v / 1000).toFixed(1)])),
  );
  const { rows } = await pool.query(
    `select (select count(*)::int from change_events) as events,
            (select count(*)::int from notif_listing_state) as states`,
  );
  console.log(`${rows[0].events} change events, ${rows[0].states} listing states`);
} finally {
  await pool.end();
  await server.stop();
}
