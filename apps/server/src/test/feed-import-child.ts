import { loadConfig } from '../config.js';
import { createPool } from '../db/database.js';
import { runImport } from '../modules/feeds/index.js';

// A worker process that runs one import run as the 'feed-import' job does (in a thread of the imports
// pool) and exits (killed-import test: the test kills it mid-run).
// argv: <database url> <run id>
const [url, runId] = process.argv.slice(2);
const pool = createPool(url, 2);
const config = loadConfig({
  DATA_DIR: '/tmp',
  LOG_LEVEL: 'silent',
  FETCH_ALLOW_PRIVATE: 'true',
  JWT_SECRET: 'x'.repeat(32),
});
await runImport({ pool, config }, Number(runId));
await pool.end();
