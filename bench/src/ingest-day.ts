// npm run ingest-day -w @vigia/bench -- [--data DIR] [--concurrency N] [--sellers 5,116] [--top 10]
// A day's ingest of every seller of a seeded demo market (issue 30 part 3: "a day's ingest of all its
// sellers in ≤ 2 minutes"). On a market seeded by the server or `npm run seed` (demo_seed.today is its
// last day), it generates the demo's NEXT day for every seller — the same generator as the seed
// (demo/seed-demo.ts sellerTimeline: each listing's story walked from the first day; the day after the
// period continues it) — and hands each seller's day, a full run at its usual crawl time, to
// ingestObservations as a feed import or a crawl would: one transaction per seller with every roll-up,
// `--concurrency` sellers at once (default: the seed's for the size). Reports the wall time for all
// sellers, per seller its listings, observations, changes and seconds, observations and changes per
// second, the CPU of Node and of the embedded PostgreSQL (independent of the machine's load), the time per
// ingest step (IngestOptions.onStep, summed over sellers) and the per-statement totals
// (demo/statement-times.ts; wall time: statements of concurrent sellers overlap).
// The day is ingested once: a second run on the same data dir is refused — restore a copy taken before
// (cp -a DIR DIR.orig while no server runs on it) so that every run ingests the same day. No server may
// run on DIR. This process starts cold, like a server after a restart: no seller's listings in memory.
// Runs the built server's modules (npm run build).

import { loadavg } from 'node:os';
import { built, database } from './server.js';

const { migrate } = (await import(
  built('db/migrate.js')
)) as typeof import('../../apps/server/src/db/migrate.js');
const { postgresCpuSeconds } = (await import(
  built('db/postgres-cpu.js')
)) as typeof import('../../apps/server/src/db/postgres-cpu.js');
// every roll-up and every feature's job declarations, as the seed CLI and the server load them
await import(built('modules/rollups.js'));
await import(built('modules/index.js'));
const { ingestObservations, clearIngestCaches } = (await import(
  built('modules/ingest/index.js')
)) as typeof import('../../apps/server/src/modules/ingest/index.js');
const { DEMO_SELLERS, DEMO_SIZES, crawlInstant, sellerTimeline } = (await import(
  built('modules/demo/seed-demo.js')
)) as typeof import('../../apps/server/src/modules/demo/seed-demo.js');
const { buildCatalogue, SEED } = (await import(
  built('modules/demo/generator.js')
)) as typeof import('../../apps/server/src/modules/demo/generator.js');
const { fxSeries } = (await import(
  built('modules/demo/market.js')
)) as typeof import('../../apps/server/src/modules/demo/market.js');
const { formatDay, parseDay } = (await import(
  built('modules/demo/dates.js')
)) as typeof import('../../apps/server/src/modules/demo/dates.js');
const { recordStatementTimes, statementLines } = (await import(
  built('modules/demo/statement-times.js')
)) as typeof import('../../apps/server/src/modules/demo/statement-times.js');
type Observation = import('../../apps/server/src/modules/ingest/index.js').Observation;

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDir = arg('data') ?? process.env.BENCH_DATA_DIR ?? '/tmp/vigia-bench-small';
const top = Number(arg('top') ?? 10);
const only = arg('sellers')?.split(',').map(Number);

const es = (n: number, digits = 0) =>
  n.toLocaleString('es-CL', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const db = await database.openDatabase({ dataDir, longWork: true });
const pool = db.pool;
try {
  await migrate(pool);
  const { rows: seeded } = await pool.query<{ size: string; today: string; finished: boolean }>(
    'select size, today::text as today, finished_at is not null as finished from demo_seed',
  );
  if (!seeded[0]?.finished) throw new Error(`${dataDir}: no hay un mercado demo sembrado por completo`);
  const size = seeded[0].size as keyof typeof DEMO_SIZES;
  const spec = DEMO_SIZES[size];
  const lastAbs = parseDay(seeded[0].today);
  const abs0 = lastAbs - spec.days + 1;
  const dayAbs = lastAbs + 1;
  const day = formatDay(dayAbs);
  const { rows: present } = await pool.query<{ id: number }>('select id from sellers');
  const ids = new Set(present.map((r) => r.id));
  const sellers = DEMO_SELLERS.filter(
    (s) => (!spec.sellers || spec.sellers.includes(s.id)) && ids.has(s.id) && (!only || only.includes(s.id)),
  );
  const concurrency = Math.max(1, Number(arg('concurrency') ?? spec.concurrency));

  // Already ingested (a run at or after the day's first crawl): refused, the day would not be the same.
  const first = Math.min(...sellers.map((s) => crawlInstant(s, dayAbs).getTime()));
  const { rows: later } = await pool.query<{ n: number }>(
    `select count(*)::int as n from ingest_runs where seller_id = any($1) and observed_at >= $2`,
    [sellers.map((s) => s.id), new Date(first)],
  );
  if (later[0].n > 0)
    throw new Error(
      `${dataDir}: el día ${day} ya fue ingerido (${later[0].n} ejecuciones); restaure la copia tomada antes`,
    );
  // The day's exchange rates, as the rates job would have stored them (the series the seed wrote, one day on).
  const fx = fxSeries(SEED, abs0 - 7, dayAbs).filter((r) => r.day === dayAbs);
  await pool.query(
    `insert into fx_rates (currency, day, clp_per_unit) select * from unnest($1::text[], $2::date[], $3::numeric[])
     on conflict (currency, day) do nothing`,
    [fx.map((r) => r.currency), fx.map(() => day), fx.map((r) => r.rate)],
  );
  // The seeded days, to set the new day's changes against: per seller, mean and largest of its runs.
  const { rows: usual } = await pool.query<{ seller_id: number; mean: number; max: number }>(
    `select seller_id, avg(changes)::float8 as mean, max(changes)::int as max from ingest_runs
      where status = 'succeeded' and seller_id = any($1) group by seller_id`,
    [sellers.map((s) => s.id)],
  );
  const usualOf = new Map(usual.map((r) => [r.seller_id, r]));

  // Every seller's observations of the day, generated before anything is timed (the generator walks
  // each listing's story from the first day; the objects of one seller are its own).
  const tGen = performance.now();
  const cat = buildCatalogue(spec.perSeller);
  const fx0: Record<string, number> = {};
  for (const r of fxSeries(SEED, abs0 - 7, lastAbs)) if (r.day === abs0) fx0[r.currency] = r.rate;
  const days = new Map<number, { listings: number; obs: Observation[] }>();
  for (const s of sellers) {
    const timeline = sellerTimeline(cat, s, spec.perSeller, spec.days, abs0, fx0, 1);
    for (let d = 0; d < spec.days; d++) timeline.day(d);
    days.set(s.id, { listings: timeline.plans.length, obs: timeline.day(spec.days) });
  }
  const { rows: counts } = await pool.query<{ listings: number; published: number }>(
    'select count(*)::int as listings, count(*) filter (where published)::int as published from products',
  );
  console.log(
    `Mercado ${size} sembrado hasta ${seeded[0].today} (${dataDir}): ${sellers.length} eCommerce, ` +
      `${es(counts[0].listings)} publicaciones (${es(counts[0].published)} publicadas). ` +
      `Día ingerido: ${day}, ${concurrency} eCommerce a la vez; observaciones generadas en ${es((performance.now() - tGen) / 1000, 1)} s.`,
  );

  clearIngestCaches(); // cold, like a server after a restart
  const pgDir = database.clusterLayout(dataDir).dir;
  const pg0 = postgresCpuSeconds(pgDir);
  const cpu0 = process.cpuUsage();
  const load0 = loadavg()[0];
  const statements = recordStatementTimes(pool);
  const steps = new Map<string, number>();
  const rows: { id: number; name: string; listings: number; obs: number; changes: number; s: number }[] = [];
  const queue = [...sellers];
  const t0 = performance.now();
  const lane = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      const { listings, obs } = days.get(s.id)!;
      const t = performance.now();
      const r = await ingestObservations(
        pool,
        { sellerId: s.id, source: 'demo', mode: 'full', observedAt: crawlInstant(s, dayAbs) },
        obs,
        { onStep: (step, ms) => steps.set(step, (steps.get(step) ?? 0) + ms) },
      );
      rows.push({
        id: s.id,
        name: s.name,
        listings,
        obs: r.observations,
        changes: r.changes,
        s: (performance.now() - t) / 1000,
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const wall = (performance.now() - t0) / 1000;
  const totals = statements.take();
  statements.stop();
  const cpu = process.cpuUsage(cpu0);
  const pg1 = postgresCpuSeconds(pgDir);

  rows.sort((a, b) => a.id - b.id);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
  const obsTotal = sum((r) => r.obs);
  const changesTotal = sum((r) => r.changes);
  console.log(
    '\n| eCommerce | publicaciones | observaciones | cambios | cambios en los días sembrados (media / máx.) | s | observaciones/s | cambios/s |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const u = usualOf.get(r.id);
    console.log(
      `| ${r.id} ${r.name} | ${es(r.listings)} | ${es(r.obs)} | ${es(r.changes)} | ${u ? `${es(u.mean)} / ${es(u.max)}` : '—'} | ${es(r.s, 2)} | ${es(r.obs / r.s)} | ${es(r.changes / r.s)} |`,
    );
  }
  console.log(
    `| **todos (${rows.length})** | ${es(sum((r) => r.listings))} | ${es(obsTotal)} | ${es(changesTotal)} | | **${es(wall, 2)}** (suma ${es(
      sum((r) => r.s),
      2,
    )}) | ${es(obsTotal / wall)} | ${es(changesTotal / wall)} |`,
  );
  console.log(
    `\nPared ${es(wall, 2)} s · CPU Node ${es((cpu.user + cpu.system) / 1e6, 1)} s` +
      (pg0 !== null && pg1 !== null ? ` · CPU PostgreSQL ${es(pg1 - pg0, 1)} s` : '') +
      ` · carga (1 min) ${es(load0, 2)} al empezar, ${es(loadavg()[0], 2)} al terminar`,
  );
  console.log('\nPasos de la ingesta (suma sobre los eCommerce, s):');
  for (const [step, ms] of [...steps].sort((a, b) => b[1] - a[1]))
    console.log(`  ${(ms / 1000).toFixed(2).padStart(8)} s  ${step}`);
  const stmtMs = totals.reduce((a, e) => a + e.ms, 0);
  const stmtCalls = totals.reduce((a, e) => a + e.calls, 0);
  console.log(
    `\nSentencias: ${es(stmtCalls)} llamadas, ${es(stmtMs / 1000, 2)} s en total; las ${top} de más tiempo (tiempo de pared, los eCommerce simultáneos se solapan):`,
  );
  for (const line of statementLines(totals, top)) console.log(line);
} finally {
  await db.close();
}
