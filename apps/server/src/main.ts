import { APP_VERSION } from '@vigia/domain';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase, takeOverShutdownSignals } from './db/database.js';
import { migrate } from './db/migrate.js';
import { DEMO_ACCOUNTS, seedDemoMarket } from './modules/demo/seed-demo.js';

/** Start-up: configuration → database → migrations → demo data on an empty database → HTTP. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const t0 = Date.now();
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const applied = await migrate(db.pool);
  if (applied.length) console.log(`Migraciones aplicadas: ${applied.join(', ')}`);

  const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from sellers');
  if (rows[0].n === 0 && config.DEMO_DATA !== 'none') {
    console.log(`Base de datos vacía: cargando datos de demostración (${config.DEMO_DATA})…`);
    const t = Date.now();
    await seedDemoMarket(db.pool, { size: config.DEMO_DATA, log: (m) => console.log(`  ${m}`) });
    console.log(`Datos de demostración cargados en ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }

  const app = await buildApp({ config, db });
  await app.listen({ port: config.PORT, host: config.HOST });

  const shown = config.HOST === '0.0.0.0' || config.HOST === '127.0.0.1' ? 'localhost' : config.HOST;
  console.log(
    `\nVigía ${APP_VERSION} lista en http://${shown}:${config.PORT}  (base de datos ${db.kind}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  if (config.DEMO_DATA !== 'none') {
    for (const acc of DEMO_ACCOUNTS)
      console.log(`  Ingreso demo: ${acc.email} / ${acc.password}  (${acc.description})`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: cerrando…`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close(); // stops accepting, lets in-flight requests finish, runs onClose hooks (workers)
      await db.close(); // stops the embedded PostgreSQL cleanly
    } finally {
      process.exit(0);
    }
  };
  takeOverShutdownSignals();
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
