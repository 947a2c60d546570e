// npm run cold-start -w @vigia/bench -- --data DIR [--runs N] [--settle-max SECONDS] [--role api] [--cpu-prof DIR]
// Cold start of the built server on a seeded market (issue 30: "cold start to first answer ≤ 2 s"): the
// embedded PostgreSQL of DIR is started first (not counted), then the server is spawned and, as soon as it
// answers /health, the demo user logs in and asks the first DPM KPIs, the first DPM page and the
// dashboard's cards — each asked again until it answers 200. Reported per run: spawn → health, → login,
// → each first answer (ms), and the server's resident memory (VmRSS) at the first answer, when its
// start-up jobs are done, and its peak (VmHWM) then. Nothing else may run on DIR (no server of its own).
// --cpu-prof DIR: each server writes a CPU profile of its whole run (spawn to stop) into DIR.
import { type ChildProcess, spawn } from 'node:child_process';
import { routes } from '@vigia/domain';
import { callRoute } from './http.js';
import { PRICING_PIVOTS } from './pricing.js';
import { cpuSeconds, database, marketUrl, peakRssMiB, rssMiB, SERVER_MAIN, serverEnv } from './server.js';

const { clusterLayout, clusterPassword, freePort, startEmbeddedPostgres } = database;
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDir = arg('data');
if (!dataDir) {
  console.error('--data DIR: una carpeta con un mercado sembrado (sin servidor corriendo sobre ella)');
  process.exit(2);
}
const runs = Number(arg('runs') ?? 3);
/**
 * `--role api`: the API process alone, as a deployment restarts it beside a running worker (on the large
 * market the role `all` process also starts the worker's backlog of pictures to measure, which shares
 * the cores with the first answers); default: every role in one process, as `npm start`.
 */
const role = arg('role');
if (role !== undefined && role !== 'api') {
  console.error('--role: api (sin --role: todos los roles en un proceso)');
  process.exit(2);
}
/** The longest wait for the start-up work to settle (a worker with a backlog never does). */
const settleMaxMs = Number(arg('settle-max') ?? 600) * 1000;
const profileDir = arg('cpu-prof');
const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `fn` every 50 ms until it answers 200; the ms since `t0` then. */
async function until(t0: number, child: ChildProcess, fn: () => Promise<Response>): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('el servidor terminó');
    try {
      const res = await fn();
      if (res.ok) {
        await res.arrayBuffer();
        return performance.now() - t0;
      }
      await res.arrayBuffer();
    } catch {}
    await sleep(50);
  }
}

interface Run {
  health: number;
  login: number;
  dpmKpi: number;
  dpmItems: number;
  dashboard: number;
  rssFirst: number;
  jobsDone: number;
  rssSettled: number;
  peak: number;
}

async function oneRun(url: string, dir: string): Promise<Run> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN, ...(role ? ['--role', role] : [])], {
    env: serverEnv(url, dir, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const pid = child.pid as number;
    const health = await until(t0, child, () =>
      callRoute({ baseUrl, token: '' }, routes.system.health, { token: null }),
    );
    let token = '';
    const login = await until(t0, child, async () => {
      const res = await callRoute({ baseUrl, token: '' }, routes.auth.login, {
        body: { email: 'demo@example.com', password: 'demo1234' },
        token: null,
      });
      if (res.ok) token = ((await res.clone().json()) as { token: string }).token;
      return res;
    });
    const target = { baseUrl, token };
    const pivot = PRICING_PIVOTS[0];
    // the three first screens asked at once, as a browser landing on them would
    const [dpmKpi, dpmItems, dashboard] = await Promise.all([
      until(t0, child, () => callRoute(target, routes.pricing.dpmKpi, { query: { pivot_id: pivot } })),
      until(t0, child, () => callRoute(target, routes.pricing.dpmItems, { query: { pivot_id: pivot } })),
      until(t0, child, () => callRoute(target, routes.dashboard.cards, { body: { pivot_id: pivot } })),
    ]);
    const rssFirst = rssMiB(pid);
    // the start-up work behind (models loading, the dashboard warm-up): settled when the CPU of the
    // process stays under 5 % for 3 s, at most --settle-max seconds
    let quiet = 0;
    let last = cpuSeconds(pid);
    while (quiet < 3 && performance.now() - t0 < settleMaxMs) {
      await sleep(1000);
      const now = cpuSeconds(pid);
      quiet = now - last < 0.05 ? quiet + 1 : 0;
      last = now;
    }
    const jobsDone = performance.now() - t0 - 3000;
    return {
      health,
      login,
      dpmKpi,
      dpmItems,
      dashboard,
      rssFirst,
      jobsDone,
      rssSettled: rssMiB(pid),
      peak: peakRssMiB(pid),
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}

const layout = clusterLayout(dataDir, (m) => console.log(m));
const pgServer = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dataDir) });
try {
  const url = await marketUrl(pgServer.url, dataDir);
  const rows: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await oneRun(url, dataDir);
    console.log(
      `  arranque ${i + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)])))}`,
    );
    rows.push(r);
  }
  const f = (v: number) => Math.round(v).toLocaleString('en-US');
  console.log(
    `\n${role ? 'An API process (--role api)' : 'Every role in one process (npm start)'}, ${dataDir}:`,
  );
  console.log(
    '\n| run | spawn → health ms | → login ms | → first DPM KPIs ms | → first DPM page ms | → first dashboard cards ms | RSS at first answer MiB | start-up work settled s | RSS settled MiB | peak RSS MiB |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [i, r] of rows.entries())
    console.log(
      `| ${i + 1} | ${f(r.health)} | ${f(r.login)} | ${f(r.dpmKpi)} | ${f(r.dpmItems)} | ${f(r.dashboard)} | ${f(r.rssFirst)} | ${(r.jobsDone / 1000).toFixed(1)} | ${f(r.rssSettled)} | ${f(r.peak)} |`,
    );
} finally {
  await pgServer.stop();
}
