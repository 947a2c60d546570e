import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { clusterLayout, StartupError, startEmbeddedPostgres } from '../db/embedded.js';
import { APP_ROLE, ensureAppRole } from '../db/roles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** The application's role on the test server (not a superuser, as the app runs: db/roles.ts). */
    pgAppUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole test run; each API test file creates its own database in it. It is
 * placed as the server places its own (db/embedded.ts): in a fresh temporary folder, or — when the tests
 * run as root and the postgres user cannot enter that folder — under /var/lib/vigia; its superuser
 * password is random for the run.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    // an outside server: its URL for both (whoever runs the tests chose the role)
    project.provide('pgAdminUrl', process.env.TEST_DATABASE_URL);
    project.provide('pgAppUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'vigia-test-pg-'));
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  let layout: ReturnType<typeof clusterLayout> | undefined;
  try {
    layout = clusterLayout(dataDir);
    server = await startEmbeddedPostgres(layout.dir, {
      layout,
      password: randomBytes(18).toString('base64url'),
    });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    if (layout?.relocated) rmSync(dirname(layout.dir), { recursive: true, force: true });
    if (err instanceof StartupError) {
      // One line instead of a stack trace, as `npm start` does.
      console.error(`\nNo se pudo iniciar el PostgreSQL de las pruebas: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  project.provide('pgAdminUrl', server.url);
  // every test database is owned by one application role, created here once (db/roles.ts)
  const password = randomBytes(18).toString('base64url');
  project.provide(
    'pgAppUrl',
    await ensureAppRole(server.url, { role: APP_ROLE, password, database: 'vigia_test' }),
  );
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (layout?.relocated) rmSync(dirname(layout.dir), { recursive: true, force: true });
  };
}
