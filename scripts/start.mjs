#!/usr/bin/env node
// `npm start`: build what is missing or older than its sources, then serve.
// The server migrates the database and seeds the demo market on an empty database by itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest modification time under `dir` (skipping node_modules and dist). */
function newest(dir) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return max;
}

function stale(pkgDir, output) {
  const out = join(root, pkgDir, output);
  if (!existsSync(out)) return true;
  return newest(join(root, pkgDir, 'src')) > statSync(out).mtimeMs;
}

const needsBuild =
  stale('packages/domain', 'dist/index.js') ||
  stale('apps/server', 'dist/main.js') ||
  stale('apps/web', 'dist/index.html');

if (needsBuild) {
  console.log('Compilando Vigía…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The server runs as a child; signals are forwarded so it shuts down gracefully (database included).
// glibc's allocator with a fixed mmap threshold (docs/operations.md "Memory"): the models' and requests'
// large typed arrays are then mapped and unmapped whole instead of left in the heap's arenas when freed
// (large market: an API process's resident memory after a c16 run 1.8 → 1.4 GB, peak 2.4 → 1.9 GB).
const server = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
