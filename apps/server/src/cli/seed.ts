// npm run seed -- --size tiny|small|medium|large [--reset] [--today yyyy-MM-dd] [--concurrency n]
// Seeds the demo market into the configured database (DATABASE_URL, else the embedded PostgreSQL in
// DATA_DIR/pg): migrations first; refuses a database that already has data unless --reset, which drops
// every table (drop schema public cascade) and migrates again.
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { postgresCpuSeconds } from '../db/postgres-cpu.js';
import { DEMO_ACCOUNTS, type DemoSize, seedDemoMarket } from '../modules/demo/seed-demo.js';
import { clearIngestCaches } from '../modules/ingest/ingest.js';
import '../modules/rollups.js'; // every roll-up, also those of feature modules
import '../modules/index.js'; // every feature's job declarations: the queues the ingest fills get their policy

const SIZES = ['tiny', 'small', 'medium', 'large'];

function usage(msg: string): never {
  console.error(
    `${msg}\nUso: npm run seed -- --size tiny|small|medium|large [--reset] [--today aaaa-mm-dd] [--concurrency n]`,
  );
  process.exit(2);
}

async function main() {
  // `npm run seed` runs in apps/server; relative paths (DATA_DIR) are meant from where it was typed.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) return undefined;
    const v = args[i + 1];
    if (!v || v.startsWith('--')) usage(`--${name} necesita un valor`);
    return v;
  };
  for (const a of args) {
    if (a.startsWith('--') && !['--size', '--reset', '--today', '--concurrency'].includes(a))
      usage(`opción desconocida: ${a}`);
  }
  const size = (value('size') ?? 'small') as DemoSize;
  if (!SIZES.includes(size)) usage(`--size inválido: ${size}`);
  const today = value('today');
  if (today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(today)) usage(`--today inválido: ${today}`);
  const reset = args.includes('--reset');
  const concurrencyArg = value('concurrency');
  const concurrency = concurrencyArg === undefined ? undefined : Number(concurrencyArg);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 16))
    usage(`--concurrency inválido: ${concurrencyArg}`);

  const config = loadConfig();
  const t0 = Date.now();
  // long work: no statement timeout (db/database.ts DB_TIMEOUTS is for the server's requests)
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    longWork: true,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  try {
    console.log(`Base de datos ${db.kind}${db.kind === 'embedded' ? ` en ${config.DATA_DIR}/pg` : ''}`);
    await migrate(db.pool);
    const { rows } = await db.pool.query<{ n: number }>(
      `select (select count(*) from sellers) + (select count(*) from users) + (select count(*) from products) as n`,
    );
    if (rows[0].n > 0) {
      if (!reset) {
        console.error(
          'La base de datos ya tiene datos; use --reset para borrarla y volver a cargar la demo.',
        );
        process.exitCode = 1;
        return;
      }
      console.log('--reset: borrando todas las tablas…');
      if (db.adminUrl) {
        // embedded: as the superuser (an earlier version's cluster has objects of the superuser in it),
        // the new schema owned by the application's role again (db/roles.ts)
        const admin = new pg.Client({ connectionString: db.adminUrl });
        await admin.connect();
        try {
          const role = decodeURIComponent(new URL(db.url).username);
          await admin.query(
            `drop schema public cascade; create schema public authorization "${role.replace(/"/g, '""')}"`,
          );
        } finally {
          await admin.end();
        }
      } else await db.pool.query('drop schema public cascade; create schema public');
      clearIngestCaches();
      await migrate(db.pool);
    }
    console.log(`Cargando datos de demostración (${size})…`);
    const summary = await seedDemoMarket(db.pool, {
      size,
      today,
      concurrency,
      log: (m) => console.log(`  ${m}`),
    });
    console.log(
      `Listo en ${((Date.now() - t0) / 1000).toFixed(1)} s: ${summary.sellers} eCommerce, ${summary.listings} publicaciones, ` +
        `${summary.observations} observaciones (${summary.from} a ${summary.to}).`,
    );
    const pgCpu = db.kind === 'embedded' ? postgresCpuSeconds(join(config.DATA_DIR, 'pg')) : null;
    const own = process.cpuUsage();
    console.log(
      `  CPU: Node ${((own.user + own.system) / 1e6).toFixed(1)} s` +
        (pgCpu === null ? '' : `, PostgreSQL ${pgCpu.toFixed(1)} s`) +
        ' (independiente de la carga de la máquina)',
    );
    for (const acc of DEMO_ACCOUNTS)
      console.log(`  Ingreso demo: ${acc.email} / ${acc.password}  (${acc.description})`);
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
