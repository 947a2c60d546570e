// npm run burst -w @vigia/bench -- (--url http://127.0.0.1:PORT | --data DIR) [--downloads 60] [--baseline-ms 10000]
//   [--label 'production limits'] [--write]
// Issue 26 finding 3: one signed-in user fires 60 concurrent `GET /v1/image-verification/items.xlsx`;
// meanwhile `/health` is polled every 25 ms and another user (limited@example.com) keeps asking cheap
// reads (`GET /v1/users/me/`, `GET /v2/navigation/dpm/kpi`). Measured first without the burst (the
// baseline), then during it: latency p50 / p95 / max of /health and of the other user's requests, and
// what the downloads got (a whole file, 503 or 429 with Retry-After). Target: /health < 200 ms.
//
// --url measures a server already running as it is configured (its USER_RATE_LIMIT_PER_MINUTE decides how
// many downloads the per-user limit refuses); --data starts the built server on a seeded bench folder
// (run.ts makes one) with the production limits. --write puts the section in docs/benchmarks.md (one
// section per number of downloads and --label, replaced by the next run with the same ones).
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { routes } from '@vigia/domain';
import { type LatencyResult, percentile, routeUrl } from './http.js';
import { database, login, marketUrl, repoRoot, startServer } from './server.js';

const HEALTH = routes.system.health.path;

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const running = arg('url');
const dataDir = arg('data');
if (!running && (!dataDir || !existsSync(dataDir))) {
  console.error('--url de un servidor en marcha, o --data con una carpeta de benchmark ya sembrada');
  process.exit(2);
}
const DOWNLOADS = Number(arg('downloads') ?? 60);
/** What distinguishes this run's section in docs/benchmarks.md (e.g. the server's limits); one section per label. */
const LABEL = arg('label');
const PROBE_EVERY_MS = 25;
const BASELINE_MS = Number(arg('baseline-ms') ?? 10_000);
const DOWNLOAD_TIMEOUT_MS = 180_000;

interface Timed {
  status: number;
  ms: number;
}

function summary(name: string, xs: Timed[]): LatencyResult {
  const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
  return {
    name,
    concurrency: 1,
    requests: ms.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    max: ms[ms.length - 1] ?? Number.NaN,
    errors: xs.filter((x) => x.status !== 200).length,
  };
}

/** One request timed; status 0 when it got no answer within `timeoutMs`. */
async function timed(url: string, init: RequestInit = {}, timeoutMs = 30_000) {
  const t = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, ms: performance.now() - t, bytes: body.length, res };
  } catch {
    return { status: 0, ms: performance.now() - t, bytes: 0, res: null };
  }
}

/** Runs `once` in a loop (with `pauseMs` between calls) until `stop` says so; every call timed. */
function loop(once: (i: number) => Promise<Timed>, pauseMs: number, stop: () => boolean) {
  const out: Timed[] = [];
  const done = (async () => {
    for (let i = 0; !stop(); i++) {
      out.push(await once(i));
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return { out, done };
}

async function measureBurst(baseUrl: string) {
  const demo = await login(baseUrl, 'demo@example.com');
  const other = await login(baseUrl, 'limited@example.com');
  const otherHeaders = { authorization: `JWT ${other}` };
  const meUrl = routeUrl(baseUrl, routes.users.me);
  const me = (await (await fetch(meUrl, { headers: otherHeaders })).json()) as {
    pivot_pk: number | null;
  };
  const kpiUrl = routeUrl(baseUrl, routes.pricing.dpmKpi, { query: { pivot_id: me.pivot_pk ?? 5 } });
  const otherCall = (i: number) => timed(i % 2 ? kpiUrl : meUrl, { headers: otherHeaders });
  const healthCall = () => timed(routeUrl(baseUrl, routes.system.health), {}, 10_000);
  const xlsxUrl = routeUrl(baseUrl, routes.imageVerification.itemsXlsx);

  // one download alone: the file's size and time
  const alone = await timed(xlsxUrl, { headers: { authorization: `JWT ${demo}` } }, DOWNLOAD_TIMEOUT_MS);
  if (alone.status !== 200) throw new Error(`items.xlsx alone: ${alone.status}`);
  console.log(`  items.xlsx alone: ${alone.bytes} bytes in ${alone.ms.toFixed(0)} ms`);

  // baseline: the same probes without the burst
  let stopAt = performance.now() + BASELINE_MS;
  const baseHealth = loop(healthCall, PROBE_EVERY_MS, () => performance.now() > stopAt);
  const baseOther = loop(otherCall, PROBE_EVERY_MS, () => performance.now() > stopAt);
  await Promise.all([baseHealth.done, baseOther.done]);

  // the burst
  let bursting = true;
  stopAt = Number.POSITIVE_INFINITY;
  const load0 = loadavg()[0];
  const burstHealth = loop(healthCall, PROBE_EVERY_MS, () => !bursting);
  const burstOther = loop(otherCall, PROBE_EVERY_MS, () => !bursting);
  const t0 = performance.now();
  const downloads = await Promise.all(
    Array.from({ length: DOWNLOADS }, async () => {
      const r = await timed(xlsxUrl, { headers: { authorization: `JWT ${demo}` } }, DOWNLOAD_TIMEOUT_MS);
      return {
        status: r.status,
        ms: r.ms,
        whole: r.status === 200 && r.bytes >= alone.bytes / 2,
        retryAfter: Number(r.res?.headers.get('retry-after') ?? 0),
      };
    }),
  );
  const burstMs = performance.now() - t0;
  bursting = false;
  await Promise.all([burstHealth.done, burstOther.done]);
  const load1 = loadavg()[0];

  const byStatus: Record<string, number> = {};
  for (const d of downloads) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  const refusedWithoutRetryAfter = downloads.filter(
    (d) => (d.status === 429 || d.status === 503) && !(d.retryAfter > 0),
  ).length;
  const served = downloads.filter((d) => d.status === 200);
  return {
    aloneBytes: alone.bytes,
    aloneMs: alone.ms,
    burstMs,
    byStatus,
    partial: served.filter((d) => !d.whole).length,
    refusedWithoutRetryAfter,
    slowestServedMs: Math.max(0, ...served.map((d) => d.ms)),
    slowestRefusedMs: Math.max(0, ...downloads.filter((d) => d.status !== 200).map((d) => d.ms)),
    load: [load0, load1],
    rows: [
      summary(`${HEALTH}, no burst`, baseHealth.out),
      summary(`${HEALTH}, during the burst`, burstHealth.out),
      summary('other user (users/me, dpm/kpi), no burst', baseOther.out),
      summary('other user (users/me, dpm/kpi), during the burst', burstOther.out),
    ],
  };
}

/** The section's heading: one section per number of downloads and label. */
const heading = () =>
  `## Burst: ${DOWNLOADS} × items.xlsx from one user (issue 26 finding 3)${LABEL ? `, ${LABEL}` : ''}`;

function render(r: Awaited<ReturnType<typeof measureBurst>>, how: string): string {
  const f = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '—');
  const health = r.rows[1];
  return [
    heading(),
    '',
    `Written by \`npm run burst -w @vigia/bench -- … --write\` (bench/src/burst.ts). Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ${how}.`,
    `Load average ${r.load[0].toFixed(1)} at the burst's start, ${r.load[1].toFixed(1)} at its end (${cpus().length} cores): the machine was shared with other engineers' builds and tests${Math.max(...r.load) > cpus().length ? ' and busy, so absolute times are slower than a quiet machine' : ''}; the client runs on it too.`,
    '',
    `- One download alone: ${r.aloneBytes.toLocaleString('en-US')} bytes in ${r.aloneMs.toFixed(0)} ms.`,
    `- The burst: ${DOWNLOADS} concurrent downloads answered in ${(r.burstMs / 1000).toFixed(1)} s: ${Object.entries(
      r.byStatus,
    )
      .map(([s, n]) => `${n} × ${s === '0' ? 'no answer' : s}`)
      .join(
        ', ',
      )}; slowest whole file ${r.slowestServedMs.toFixed(0)} ms, slowest refusal ${r.slowestRefusedMs ? `${r.slowestRefusedMs.toFixed(0)} ms` : '—'}; ${r.partial} partial files, ${r.refusedWithoutRetryAfter} refusals without Retry-After.`,
    `- \`${HEALTH}\` during the burst: p95 ${f(health.p95)} ms, max ${f(health.max)} ms (target < 200 ms: ${health.max < 200 ? 'met' : health.p95 < 200 ? 'met at p95, not at the maximum' : 'not met'}).`,
    '',
    '| requests | count | p50 ms | p95 ms | max ms | not 200 |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) => `| ${x.name} | ${x.requests} | ${f(x.p50)} | ${f(x.p95)} | ${f(x.max)} | ${x.errors} |`,
    ),
    '',
  ].join('\n');
}

function writeDocs(section: string) {
  const file = join(repoRoot, 'docs/benchmarks.md');
  let doc = readFileSync(file, 'utf8');
  const start = doc.indexOf(`${heading()}\n`);
  if (start < 0) doc = `${doc.trimEnd()}\n\n${section}`;
  else {
    const next = doc.indexOf('\n## ', start + 1);
    doc = `${doc.slice(0, start)}${section.trimEnd()}\n${next < 0 ? '' : doc.slice(next)}`;
  }
  writeFileSync(file, `${doc.trimEnd()}\n`);
}

async function main() {
  let child: ChildProcess | undefined;
  let stopPg: (() => Promise<void>) | undefined;
  try {
    let baseUrl = running;
    let how = `against a running server (${running})`;
    if (!baseUrl && dataDir) {
      const { clusterLayout, clusterPassword, freePort, startEmbeddedPostgres } = database;
      const layout = clusterLayout(dataDir, (m) => console.log(m));
      const pgServer = await startEmbeddedPostgres(layout.dir, {
        layout,
        password: clusterPassword(dataDir),
      });
      stopPg = () => pgServer.stop();
      // the production per-user limits (default USER_RATE_LIMIT_PER_MINUTE), not the bench's raised ones
      const url = await marketUrl(pgServer.url, dataDir);
      const server = await startServer(url, dataDir, await freePort(), undefined, 'all', undefined, {
        USER_RATE_LIMIT_PER_MINUTE: '1200',
      });
      child = server.child;
      baseUrl = server.baseUrl;
      how = `the built server on ${dataDir}, production per-user limits`;
    }
    console.log(`Ráfaga de ${DOWNLOADS} descargas de items.xlsx en ${baseUrl}`);
    const section = render(await measureBurst(baseUrl as string), how);
    console.log(`\n${section}`);
    if (args.includes('--write')) {
      writeDocs(section);
      console.log('Resultados escritos en docs/benchmarks.md');
    }
  } finally {
    child?.kill('SIGTERM');
    await stopPg?.();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
