import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { routeList } from '../../packages/domain/src/routes/index.js';

// The API server (apps/server) listens on 8080 in development; the SPA talks to it through this proxy so
// every call stays same-origin, as in production where the server serves apps/web/dist.
const API = 'http://127.0.0.1:8080';
/** The first path segment of every route of the table (/v1, /v2, /health, /media): proxied to the API. */
const API_PREFIXES = [...new Set(routeList.map((r) => `/${r.path.split('/')[1]}`))];

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Source of the shared contract, so `vite` needs no prior build of packages/domain.
    alias: { '@vigia/domain': fileURLToPath(new URL('../../packages/domain/src/index.ts', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API, changeOrigin: true }])),
      '/socket.io': { target: API, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
  },
});
