import { createServer } from 'node:net';
import { APP_VERSION } from '@vigia/domain';
import { buildApp, type Role } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createPool, openDatabase, StartupError, takeOverShutdownSignals } from './db/database.js';
import { restoreDeferredIndexes } from './db/deferred-indexes.js';
import { orphanClusterMessages } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { DEMO_ACCOUNTS } from './modules/demo/accounts.js';

function portMessage(port: number, host: string, code: string | undefined): string {
  return code === 'EADDRINUSE'
    ? `El puerto ${port} de ${host} ya está en uso (¿otro Vigía u otro programa?): deténgalo o use otro PORT, p. ej. PORT=8081 npm start.`
    : `No se puede escuchar en ${host}:${port} (${code}): use otro PORT u HOST.`;
}

const LISTEN_ERRORS = ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'];

async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        LISTEN_ERRORS.includes(err.code ?? '') ? new StartupError(portMessage(port, host, err.code)) : err,
      ),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const ROLES: readonly Role[] = ['api', 'worker', 'all'];

/** `--role api|worker|all` (or `--role=…`) on the command line; it wins over VIGIA_ROLE. */
function roleArgument(argv: string[]): Role | undefined {
  const i = argv.findIndex((a) => a === '--role' || a.startsWith('--role='));
  if (i < 0) return undefined;
  const value = argv[i].includes('=') ? argv[i].slice('--role='.length) : argv[i + 1];
  if (!ROLES.includes(value as Role))
    throw new ConfigError(`--role debe ser api, worker o all (no «${value ?? ''}»)`);
  return value as Role;
}

/**
 * Start-up: configuration → database → migrations → demo data on an empty database → HTTP (roles 'api',
 * 'all') and jobs (roles 'worker', 'all'). Demo data are seeded only by 'all' and 'worker'.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  let role: Role;
  try {
    config = loadConfig();
    role = roleArgument(process.argv.slice(2)) ?? config.VIGIA_ROLE;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const t0 = Date.now();
  const listens = role !== 'worker';
  if (listens) await assertPortFree(config.PORT, config.HOST); // before minutes of seeding, not after
  // relocated embedded clusters whose DATA_DIR was removed: say where they are and how to remove them
  for (const line of orphanClusterMessages()) console.warn(line);
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log: (m) => console.log(m),
    supervise: true,
    poolSize: config.DATABASE_POOL_SIZE,
    servesRequests: listens,
  });
  const applied = await migrate(db.pool);
  if (applied.length) console.log(`Migraciones aplicadas: ${applied.join(', ')}`);

  // A load interrupted by a killed server is finished first (same size and days; see seed-demo.ts). An
  // API process never seeds: it asks nothing before listening but the migrations.
  // (the demo generator's modules are not loaded by an API process)
  const demo = role === 'api' ? null : await import('./modules/demo/seed-demo.js');
  const unfinished = demo ? await demo.unfinishedDemoSeed(db.pool) : null;
  const empty = async () =>
    (await db.pool.query<{ n: number }>('select count(*)::int as n from sellers')).rows[0].n === 0;
  if (demo && (unfinished || (config.DEMO_DATA !== 'none' && (await empty())))) {
    const size = unfinished?.size ?? (config.DEMO_DATA as Exclude<typeof config.DEMO_DATA, 'none'>);
    console.log(
      unfinished
        ? `La carga de datos de demostración (${size}, hasta ${unfinished.today}) quedó interrumpida: se completa…`
        : `Base de datos vacía: cargando datos de demostración (${size})…`,
    );
    const t = Date.now();
    // long work: its own connections, without the requests' statement timeout (db/database.ts)
    const seedPool = createPool(db.url, config.DATABASE_POOL_SIZE, { longWork: true });
    try {
      await demo.seedDemoMarket(seedPool, {
        size,
        today: unfinished?.today,
        log: (m) => console.log(`  ${m}`),
      });
    } finally {
      await seedPool.end();
    }
    console.log(`Datos de demostración cargados en ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }

  // indexes a bulk load dropped and did not get to build again (a killed seed, db/deferred-indexes.ts)
  if (role !== 'api') {
    const rebuilt = await restoreDeferredIndexes(db.pool);
    if (rebuilt.length) console.log(`Índices reconstruidos: ${rebuilt.join(', ')}`);
  }

  const app = await buildApp({ config, db, role });
  try {
    if (listens) await app.listen({ port: config.PORT, host: config.HOST });
    else await app.ready();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (LISTEN_ERRORS.includes(code ?? '')) {
      await app.close().catch(() => {});
      await db.close().catch(() => {});
      throw new StartupError(portMessage(config.PORT, config.HOST, code));
    }
    throw err;
  }

  const shown = config.HOST === '0.0.0.0' || config.HOST === '127.0.0.1' ? 'localhost' : config.HOST;
  if (!listens)
    console.log(
      `\nVigía ${APP_VERSION} trabajando (rol worker: tareas y programaciones; base de datos ${db.kind}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  else
    console.log(
      `\nVigía ${APP_VERSION} lista en http://${shown}:${config.PORT}  (base de datos ${db.kind}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
  if (listens && config.DEMO_DATA !== 'none') {
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
  // A known start-up failure is one line saying why and what to do; anything else keeps its stack.
  if (err instanceof StartupError) console.error(`Vigía no pudo iniciar: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
