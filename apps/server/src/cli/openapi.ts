import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

// Writes the OpenAPI document the server publishes at /docs/json, built from the real app without a
// database (nothing is queried to describe the routes): `tsx apps/server/src/cli/openapi.ts out.json`.
// `npm run lint:api` lints it with Spectral and the OWASP API ruleset (.spectral.yaml).

const out = process.argv[2];
const dataDir = mkdtempSync(join(tmpdir(), 'vigia-openapi-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  DEMO_DATA: 'none',
  JWT_SECRET: 'o'.repeat(64),
  WEB_DIST: '/nonexistent',
});
// A pool that is never connected: the document needs no data, and start-up work is not started.
const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none', max: 1 });
const app = await buildApp({ config, db: { pool, kind: 'external', url: '', close: async () => {} } });
await app.ready();
const doc = JSON.stringify(app.swagger(), null, 2);
if (out) {
  mkdirSync(dirname(out), { recursive: true }); // node_modules/.cache is absent on a clean install
  writeFileSync(out, `${doc}\n`);
} else process.stdout.write(`${doc}\n`);
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
