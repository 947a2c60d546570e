import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, signalHooks, takeOverShutdownSignals } from './db/database.js';

// Process-level behaviour: exit codes survive loading the database module (db/embedded.ts stops clusters
// on SIGINT/SIGTERM/SIGHUP for command-line tools), and SIGTERM is the server's own graceful shutdown
// (finish, stop the embedded database, exit 0).

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.DATABASE_URL; // always the embedded database
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('process exit', () => {
  it('a server that takes over SIGINT/SIGTERM leaves the database module only SIGHUP', () => {
    expect([...signalHooks]).toContain('SIGTERM');
    const before = process.listenerCount('SIGTERM');
    takeOverShutdownSignals();
    expect([...signalHooks]).toEqual(['SIGHUP']);
    expect(process.listenerCount('SIGTERM')).toBe(before - 1);
  });

  it('a process that loads the database module and ends normally exits 0', async () => {
    const { exited, output } = run([
      '--input-type=module',
      '-e',
      "await import('./apps/server/src/db/database.ts');",
    ]);
    expect(await exited, output()).toBe(0);
  });

  it('an exit code set through process.exitCode survives loading the database module', async () => {
    const { exited } = run([
      '--input-type=module',
      '-e',
      "await import('./apps/server/src/db/database.ts'); process.exitCode = 3;",
    ]);
    expect(await exited).toBe(3);
  });

  it('SIGTERM: the server closes, stops its embedded database cleanly and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigia-shutdown-'));
    dirs.push(dir);
    chmodSync(dir, 0o755); // PostgreSQL runs as its own user when the tests run as root
    const port = await freePort();
    const server = run(['apps/server/src/main.ts'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DEMO_DATA: 'none',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    let healthy = false;
    const until = Date.now() + 90_000;
    while (!healthy && Date.now() < until && server.child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 250));
    }
    expect(healthy, server.output()).toBe(true);
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toContain('SIGTERM: cerrando…');
    // a cleanly stopped PostgreSQL removes its pid file
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
