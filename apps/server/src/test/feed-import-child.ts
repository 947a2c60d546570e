import { loadConfig } from '../config.js';
import { createPool } from '../db/database.js';
import { executeRun } from '../modules/feeds/index.js';

// A worker process that runs one import run and exits (killed-import test: the test kills it mid-run).
// argv: <database url> <run id>
const [url, runId] = process.argv.slice(2);
const pool = createPool(url, 2);
const config = loadConfig({
  DATA_DIR: '/tmp',
  LOG_LEVEL: 'silent',
  FETCH_ALLOW_PRIVATE: 'true',
  JWT_SECRET: 'x'.repeat(32),
});
await executeRun({ pool, config }, Number(runId));
await pool.end();
