import { loadConfig } from '../config.js';
import { createPool } from '../db/database.js';
import { executeCrawlRun } from '../modules/crawler/index.js';

// A worker process that runs one crawl run and exits (crawl test: the test kills it mid-crawl).
// argv: <database url> <run id>
const [url, runId] = process.argv.slice(2);
const pool = createPool(url, 2);
const config = loadConfig({
  DATA_DIR: '/tmp',
  LOG_LEVEL: 'silent',
  FETCH_ALLOW_PRIVATE: 'true',
  CRAWLER_DELAY_MS: '300',
  JWT_SECRET: 'x'.repeat(32),
});
await executeCrawlRun({ pool, config }, Number(runId));
await pool.end();
