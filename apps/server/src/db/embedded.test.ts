import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, openDatabase } from './database.js';
import {
  hugePagesAdvice,
  LEGACY_PASSWORD,
  orphanClusterMessages,
  orphanClusters,
  packagedBinaries,
  serverSettings,
  startEmbeddedPostgres,
} from './embedded.js';

// Where and how the embedded PostgreSQL runs (db/embedded.ts): started as `npm start` starts it — the
// server as a process — from folders the postgres user cannot enter, and its superuser password.

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const asRoot = process.getuid?.() === 0;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(mode: number): string {
  const d = mkdtempSync(join(tmpdir(), 'vigia-embedded-'));
  chmodSync(d, mode);
  dirs.push(d);
  return d;
}

function startServer(env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', DEMO_DATA: 'none', ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const healthy = async (port: number) => {
    const until = Date.now() + 90_000;
    while (Date.now() < until && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  };
  return { child, exited, healthy, output: () => out };
}

/** Lines of the output that are not the server's JSON log. */
const plainLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('{'))
    .join('\n');

describe.skipIf(!asRoot)('as root, from a folder the postgres user cannot enter', () => {
  it('arranges binaries and cluster elsewhere, says where, and finds them again after a restart', async () => {
    // A checkout in a mode-700 folder: the binaries are reached through it (VIGIA_PG_BINARIES), the data
    // directory is inside it, with a space in its name.
    const home = tempDir(0o700);
    symlinkSync(packagedBinaries().home, join(home, 'native'));
    const dataDir = join(home, 'datos de vigía');
    const systemDir = join(tempDir(0o755), 'sys');
    const env = { DATA_DIR: dataDir, VIGIA_SYSTEM_DIR: systemDir, VIGIA_PG_BINARIES: join(home, 'native') };

    const port = await freePort();
    const first = startServer({ ...env, PORT: String(port) });
    expect(await first.healthy(port), first.output()).toBe(true);
    const location = readFileSync(join(dataDir, 'pg-location'), 'utf8').trim();
    expect(location.startsWith(join(systemDir, 'clusters'))).toBe(true);
    // the cluster knows its DATA_DIR, so a removed DATA_DIR's leftover is reported (orphanClusters)
    expect(readFileSync(join(location, '..', 'data-dir'), 'utf8').trim()).toBe(dataDir);
    expect(first.output()).toContain(`Base de datos embebida en ${location}`);
    expect(first.output()).toContain(`Binarios de PostgreSQL copiados a ${systemDir}/postgres-`);
    expect(first.output()).toContain('Migraciones aplicadas');
    const st = statSync(location);
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).not.toBe(0); // owned by the postgres user

    // A second server on the same DATA_DIR: one line, no stack trace, the first one untouched.
    const second = startServer({ ...env, PORT: '0' });
    expect(await second.exited).toBe(1);
    expect(plainLines(second.output())).toMatch(/ya está en uso por otro proceso de Vigía \(pid \d+\)/);
    expect(second.output()).not.toMatch(/\n\s+at /);
    expect(await first.healthy(port)).toBe(true);

    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);

    // The next start finds the same cluster (no migrations to apply: the database is the one made above).
    const again = startServer({ ...env, PORT: String(port) });
    expect(await again.healthy(port), again.output()).toBe(true);
    expect(again.output()).toContain(`Base de datos embebida en ${location} (según ${dataDir}/pg-location`);
    expect(again.output()).not.toContain('Migraciones aplicadas');
    // Killed abruptly: its PostgreSQL stays behind; the next start stops it and takes over.
    again.child.kill('SIGKILL');
    await again.exited;
    const afterKill = startServer({ ...env, PORT: String(port) });
    expect(await afterKill.healthy(port), afterKill.output()).toBe(true);
    expect(afterKill.output()).toContain('seguía corriendo tras un cierre abrupto');
    afterKill.child.kill('SIGTERM');
    expect(await afterKill.exited).toBe(0);
  }, 180_000);
});
if (!asRoot) console.log('embedded.test.ts: relocation tests skipped — they need the tests to run as root');

describe('relocated clusters left behind (issue 26, finding 10)', () => {
  it("a removed DATA_DIR's relocated cluster is reported with how to remove it; live ones are not", () => {
    const systemDir = tempDir(0o755);
    const cluster = (hash: string, dataDir: string | null) => {
      const dir = join(systemDir, 'clusters', hash);
      mkdirSync(join(dir, 'pg'), { recursive: true });
      if (dataDir) writeFileSync(join(dir, 'data-dir'), `${dataDir}\n`);
      return dir;
    };
    // alive: its DATA_DIR exists and points to it
    const liveData = tempDir(0o755);
    const live = cluster('aaaa', liveData);
    writeFileSync(join(liveData, 'pg-location'), `${join(live, 'pg')}\n`);
    // removed: its DATA_DIR is gone
    const removedData = join(tempDir(0o755), 'borrado');
    const removed = cluster('bbbb', removedData);
    // re-created empty at the same path: its pg-location is gone, so the cluster is no longer its
    const recreatedData = tempDir(0o755);
    const recreated = cluster('cccc', recreatedData);
    // relocated before owners were recorded: unknown, not listed
    cluster('dddd', null);

    expect(orphanClusters(systemDir).sort((a, b) => a.dir.localeCompare(b.dir))).toEqual([
      { dir: removed, dataDir: removedData },
      { dir: recreated, dataDir: recreatedData },
    ]);
    const lines = orphanClusterMessages(systemDir);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain(
      `sigue en ${removed} y ocupa espacio; si ya no la necesita, bórrela con: sudo rm -rf ${removed}`,
    );
    expect(orphanClusters(join(systemDir, 'nada'))).toEqual([]);
  });
});

describe('start-up failures are one line', () => {
  it('a data folder PostgreSQL refuses (mode 0755), and a busy port', async () => {
    const dataDir = join(tempDir(0o755), 'data');
    const db = await openDatabase({ dataDir });
    await db.close();
    const pgDir = join(dataDir, 'pg');
    chmodSync(pgDir, 0o755);
    const refused = startServer({ DATA_DIR: dataDir, PORT: '0' });
    expect(await refused.exited).toBe(1);
    expect(plainLines(refused.output())).toBe(
      `Vigía no pudo iniciar: PostgreSQL rechaza la carpeta de datos ${pgDir}: sus permisos deben ser 0700 o 0750 (hoy 0755). Corríjalo con: chmod 700 '${pgDir}'`,
    );

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const busy = startServer({ DATA_DIR: dataDir, PORT: String(port) });
    expect(await busy.exited).toBe(1);
    blocker.close();
    expect(plainLines(busy.output())).toBe(
      `Vigía no pudo iniciar: El puerto ${port} de 127.0.0.1 ya está en uso (¿otro Vigía u otro programa?): deténgalo o use otro PORT, p. ej. PORT=8081 npm start.`,
    );
  }, 120_000);
});

describe('the cluster settings follow the machine (issue 30: the large seed)', () => {
  const GiB = 2 ** 30;
  const buffers = (memory: number) => serverSettings(memory).find((s) => s.startsWith('shared_buffers='));
  it('an eighth of the memory for the buffer pool, between 128 MB and 4 GB; WAL for 15 minutes or 4 GB', () => {
    expect(buffers(24 * GiB)).toBe('shared_buffers=3072MB');
    expect(buffers(8 * GiB)).toBe('shared_buffers=1024MB');
    expect(buffers(0.5 * GiB)).toBe('shared_buffers=128MB');
    expect(buffers(128 * GiB)).toBe('shared_buffers=4096MB');
    expect(serverSettings(8 * GiB)).toEqual(
      expect.arrayContaining(['listen_addresses=127.0.0.1', 'max_wal_size=4GB', 'checkpoint_timeout=15min']),
    );
  });

  it('advises reserving huge pages for a buffer pool of 1 GB or more when the system has too few', () => {
    const meminfo = (total: number, sizeKb = 2048) =>
      `MemTotal:       24576000 kB\nHugePages_Total:    ${total}\nHugePages_Free:     ${total}\nHugepagesize:       ${sizeKb} kB\n`;
    // 3072 MB × 1.05 + 64 MB in 2 MB pages: 1,645
    const advice = hugePagesAdvice(3072, meminfo(0));
    expect(advice).toContain('sysctl -w vm.nr_hugepages=1645');
    expect(advice).toContain('3072 MB');
    expect(hugePagesAdvice(3072, meminfo(1644))).toContain('vm.nr_hugepages=1645');
    expect(hugePagesAdvice(3072, meminfo(1645))).toBeNull();
    // 1 GB pages: 4 of them
    expect(hugePagesAdvice(3072, meminfo(0, 1048576))).toContain('vm.nr_hugepages=4');
    // a small pool, or a system that says nothing of huge pages
    expect(hugePagesAdvice(512, meminfo(0))).toBeNull();
    expect(hugePagesAdvice(3072, 'MemTotal: 1 kB\n')).toBeNull();
    expect(hugePagesAdvice(3072, null)).toBeNull();
  });

  it('the test cluster runs with them', async () => {
    if (process.env.TEST_DATABASE_URL) return; // not ours
    const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await c.connect();
    try {
      const { rows } = await c.query<{ setting: string; unit: string; name: string }>(
        `select name, setting, unit from pg_settings where name in ('shared_buffers', 'max_wal_size') order by name`,
      );
      const mb = (r: { setting: string; unit: string }) =>
        (Number(r.setting) * (r.unit === '8kB' ? 8192 : r.unit === 'MB' ? 2 ** 20 : 1)) / 2 ** 20;
      expect(rows.map((r) => [r.name, mb(r)])).toEqual([
        ['max_wal_size', 4096],
        ['shared_buffers', Number(/\d+/.exec(buffers(totalmem()) as string)?.[0])],
      ]);
    } finally {
      await c.end();
    }
  });
});

describe('the superuser password', () => {
  const tryLogin = async (url: string, password: string) => {
    const u = new URL(url);
    u.password = encodeURIComponent(password);
    const c = new pg.Client({ connectionString: u.toString() });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.end();
      return 'ok';
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  };

  it('of the test cluster is not the old fixed one', async () => {
    if (process.env.TEST_DATABASE_URL) return; // not ours
    const url = inject('pgAdminUrl');
    expect(await tryLogin(url, decodeURIComponent(new URL(url).password))).toBe('ok');
    expect(await tryLogin(url, LEGACY_PASSWORD)).toBe('28P01');
  });

  it('an existing data directory made with the old fixed password keeps working; that password no longer logs in', async () => {
    const dataDir = tempDir(0o755);
    // The cluster as versions before this one created it: superuser password 'vigia'.
    const legacy = await startEmbeddedPostgres(join(dataDir, 'pg'), { password: LEGACY_PASSWORD });
    await legacy.stop();
    expect(existsSync(join(dataDir, 'secrets', 'pg_password'))).toBe(false);

    const db = await openDatabase({ dataDir });
    try {
      expect((await db.pool.query('select 1 as one')).rows[0].one).toBe(1);
      const secretFile = join(dataDir, 'secrets', 'pg_password');
      expect(statSync(secretFile).mode & 0o777).toBe(0o600);
      const secret = readFileSync(secretFile, 'utf8').trim();
      expect(secret.length).toBeGreaterThanOrEqual(24);
      // the superuser's URL (the app itself connects as its own role: db/roles.ts)
      const adminUrl = db.adminUrl as string;
      expect(await tryLogin(adminUrl, LEGACY_PASSWORD)).toBe('28P01');
      expect(await tryLogin(adminUrl, secret)).toBe('ok');
      expect(new URL(db.url).hostname).toBe('127.0.0.1');
    } finally {
      await db.close();
    }
    // A new data directory never had the old password.
    const fresh = await openDatabase({ dataDir: tempDir(0o755) });
    try {
      expect(await tryLogin(fresh.adminUrl as string, LEGACY_PASSWORD)).toBe('28P01');
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
