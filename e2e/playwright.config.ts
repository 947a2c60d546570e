import { defineConfig } from '@playwright/test';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the built app, started
// on a fresh data directory so the demo market is seeded from scratch for every run.
export const PORT = Number(process.env.E2E_PORT ?? 8099);
export const DATA_DIR = process.env.E2E_DATA_DIR ?? '/tmp/vigia-e2e';
/** Set to run the specs against an already running server (its DATA_DIR in E2E_DATA_DIR). */
const EXTERNAL = process.env.E2E_BASE_URL;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './specs',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: EXTERNAL ?? `http://127.0.0.1:${PORT}`,
    locale: 'es-CL',
    timezoneId: 'America/Santiago',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: EXTERNAL
    ? undefined
    : {
        command: `rm -rf ${DATA_DIR} && node ../apps/server/dist/main.js`,
        url: `http://127.0.0.1:${PORT}/health`,
        timeout: 300_000,
        reuseExistingServer: false,
        // stopped as a deployment stops it (the server then stops its embedded PostgreSQL): without this
        // Playwright SIGKILLs the process group, and the database, which runs in a group of its own, was
        // left running after every suite
        gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
        stdout: 'pipe',
        env: {
          PORT: String(PORT),
          HOST: '127.0.0.1',
          DATA_DIR,
          DEMO_DATA: 'small',
          PUBLIC_URL: `http://127.0.0.1:${PORT}`,
          LOG_LEVEL: 'warn',
          LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
          // the suite's browsers are all the demo user at once, which no analyst is
          USER_RATE_LIMIT_PER_MINUTE: '60000',
          // the crawl spec serves its product pages on 127.0.0.1, quickly
          FETCH_ALLOW_PRIVATE: 'true',
          CRAWLER_DELAY_MS: '50',
        },
      },
});
