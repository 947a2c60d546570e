import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One runner for the whole repository: domain unit tests and server API tests.
// API tests share one embedded PostgreSQL started in globalSetup; each test file creates its own database.
export default defineConfig({
  resolve: {
    alias: { '@vigia/domain': fileURLToPath(new URL('./packages/domain/src/index.ts', import.meta.url)) },
  },
  test: {
    include: [
      'scripts/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'bench/src/**/*.test.ts',
    ],
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
