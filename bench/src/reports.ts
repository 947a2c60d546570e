// Reports in the background (issue 16 target on the medium market: a match report of the whole license
// in ≤ 30 s with the server's resident memory under 500 MB). Called by run.ts with a running server and a
// token of demo@example.com. Each report is asked for through the API (every licensed competitor, the
// last 180 days), followed until it is built, and its time from request to "succeeded" reported with its
// rows per second; the server process's RSS (/proc/<pid>/status VmRSS, the process found by its PORT) is
// sampled every 50 ms meanwhile. The prices report (full price history of 180 days) is the largest file;
// a report not finished after 15 minutes is reported as such (the run goes on).
import { readdirSync, readFileSync } from 'node:fs';
import { routes } from '@vigia/domain';
import { type BenchOptions, type BenchTarget, callRoute, type LatencyResult, rowName } from './http.js';
import { rssMiB } from './server.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The pid of the server listening on `port` (its environment says PORT=<port>). */
function serverPid(port: string): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (!cmd.includes('apps/server/dist/main.js')) continue;
      const env = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (env.includes(`PORT=${port}`)) return Number(d);
    } catch {}
  }
  return null;
}

interface Task {
  id: string;
  status: string;
  rows_done: number;
  size_bytes: number | null;
  error: string | null;
}

export async function benchReports(
  target: BenchTarget,
  opts: BenchOptions = {},
): Promise<(LatencyResult & { target: string })[]> {
  const sellersRes = await callRoute(target, routes.licenses.sellers);
  if (!sellersRes.ok)
    throw new Error(`reports bench: ${rowName(routes.licenses.sellers)} ${sellersRes.status}`);
  const sellers = ((await sellersRes.json()) as { id: number }[]).map((x) => x.id);
  // the process that builds the reports: the worker when the roles are apart, else the one server
  const pid = target.workerPid ?? serverPid(new URL(target.baseUrl).port);
  const out: (LatencyResult & { target: string })[] = [];
  const to = new Date();
  const from = new Date(to.getTime() - 179 * 86_400_000);
  for (const [type, format, goal] of [
    ['match', 'xlsx', '≤ 30 s, RSS < 500 MB'],
    ['match', 'csv', '≤ 30 s, RSS < 500 MB'],
    ['prices', 'csv', 'RSS < 500 MB (largest file)'],
  ] as const) {
    // `opts.only` picks reports by "<type> <FORMAT>", e.g. /prices CSV/
    if (opts.only && !opts.only.test(`${type} ${format.toUpperCase()}`)) continue;
    const before = pid ? rssMiB(pid) : Number.NaN;
    let peak = before;
    const sampler = setInterval(() => {
      if (pid) peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const started = performance.now();
    let task: Task | undefined;
    try {
      const res = await callRoute(target, routes.reports.create, {
        body: {
          report_type: type,
          format,
          currency: 'CLP',
          sellers,
          from_date: isoDay(from),
          to_date: isoDay(to),
        },
      });
      if (!res.ok) throw new Error(`reports bench: POST ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      for (;;) {
        const r = await callRoute(target, routes.reports.list);
        task = ((await r.json()) as { items: Task[] }).items.find((t) => t.id === id);
        if (task && (task.status === 'succeeded' || task.status === 'failed')) break;
        if (performance.now() - started > 600_000)
          throw new Error(`reports bench: ${type} still ${task?.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      clearInterval(sampler);
    }
    const ms = performance.now() - started;
    const ok = task?.status === 'succeeded';
    const rows = task?.rows_done ?? 0;
    const mib = (task?.size_bytes ?? 0) / 2 ** 20;
    const name =
      `Report ${type} ${format.toUpperCase()}, whole license, 180 days: ${rows.toLocaleString('en-US')} rows, ` +
      `${mib.toFixed(1)} MiB, ${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s, ` +
      `server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB` +
      (ok
        ? ''
        : task?.status === 'failed'
          ? ` (FAILED: ${task.error})`
          : ` (NOT FINISHED: still ${task?.status})`);
    console.log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
    const row = {
      name,
      concurrency: 1,
      requests: 1,
      p50: ms,
      p95: ms,
      max: ms,
      errors: ok ? 0 : 1,
      target: goal,
    };
    opts.onResult?.(row);
    out.push(row);
  }
  return out;
}
