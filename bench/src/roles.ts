// `npm run bench -- --apis N`: the c16 rows against N API processes and one worker on the same database
// (issue 24: proxy → N API processes → one PostgreSQL, M workers; docs/operations.md). The worker starts
// first (it runs the start-up jobs), then the N APIs (`--role api`); the same c16 rows run once against
// API 1 alone and, with N ≥ 2, once round-robin over all N (each call to the next process, as a proxy would); the
// resident memory (VmRSS) of every process is sampled every 250 ms: after start, and its peak in each pass.
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import type { BenchOptions, BenchTarget, LatencyResult } from './http.js';
import { cpuSeconds, database, rssMiB, startServer, startWorker } from './server.js';

type Row = LatencyResult & { target?: string };
type Features = (target: BenchTarget, opts: BenchOptions) => Promise<Row[]>;

interface Proc {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  /** its connections' application_name */
  app: string;
}

/** Open connections per application_name (each process's DATABASE_URL names its own). */
async function connections(db: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await db.query<{ app: string; n: number }>(
    `select application_name as app, count(*)::int as n from pg_stat_activity
      where datname = current_database() group by 1`,
  );
  return new Map(rows.map((r) => [r.app, r.n]));
}

/** Peak RSS and open connections per process while `fn` runs, sampled every 250 ms. */
async function sampled<T>(
  procs: Proc[],
  db: pg.Pool,
  fn: () => Promise<T>,
): Promise<{ value: T; peak: number[]; conns: number[] }> {
  const peak = procs.map((p) => rssMiB(p.child.pid ?? 0));
  const conns = procs.map(() => 0);
  let busy = false;
  const timer = setInterval(() => {
    procs.forEach((p, k) => {
      const v = rssMiB(p.child.pid ?? 0);
      if (v > peak[k]) peak[k] = v;
    });
    if (busy) return;
    busy = true;
    connections(db)
      .then((m) =>
        procs.forEach((p, k) => {
          conns[k] = Math.max(conns[k], m.get(p.app) ?? 0);
        }),
      )
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, 250);
  try {
    return { value: await fn(), peak, conns };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Waits (20 s at least, 15 minutes at most) until none of `pids` used more than a tenth of a core over
 * the last 5 s; returns the seconds waited.
 */
async function settled(pids: number[]): Promise<number> {
  const t = performance.now();
  const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
  await sleep(15_000);
  let before = pids.map(cpuSeconds);
  while (performance.now() - t < 15 * 60_000) {
    await sleep(5_000);
    const now = pids.map(cpuSeconds);
    const busy = now.some((v, k) => v - before[k] > 0.5);
    before = now;
    if (!busy) break;
  }
  return (performance.now() - t) / 1000;
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '—');
const mib = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '—');

export async function benchRoles(
  size: string,
  url: string,
  dataDir: string,
  apis: number,
  features: Features,
): Promise<string> {
  const procs: Proc[] = [];
  const db = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const w = 'vigia-bench-worker';
    procs.push({
      name: 'worker',
      role: 'worker',
      app: w,
      child: await startWorker(url, dataDir, undefined, w),
    });
    const targets: { baseUrl: string; token: string }[] = [];
    for (let k = 0; k < apis; k++) {
      const app = `vigia-bench-api-${k + 1}`;
      const s = await startServer(url, dataDir, await database.freePort(), undefined, 'api', app);
      procs.push({ name: `api ${k + 1}`, role: 'api', app, child: s.child });
      targets.push({ baseUrl: s.baseUrl, token: s.token });
    }
    // the APIs load their read models after start (in the background; minutes on the medium market):
    // measuring meanwhile would count those loads in the first pass. Wait until every process is quiet.
    const settle = await settled(procs.map((p) => p.child.pid ?? 0));
    console.log(`  procesos en calma tras ${settle.toFixed(0)} s`);
    const load0 = loadavg()[0];
    const started = procs.map((p) => rssMiB(p.child.pid ?? 0));
    const workerPid = procs[0].child.pid;
    const c16: BenchOptions = { concurrencies: [16] };
    // An API process loads a pivot's models and a feature's copies at their first request: one unmeasured
    // round-robin pass first, so that both measured passes find every process warm (measured cold, the
    // first pass would pay the loads and the second not).
    console.log(`\n  --apis ${apis}: pasada de calentamiento (sin medir) sobre ${apis} proceso(s) API`);
    const warmed = performance.now();
    await features({ ...targets[0], baseUrls: targets.map((t) => t.baseUrl), workerPid }, c16);
    const warmSeconds = (performance.now() - warmed) / 1000;
    const idle = await connections(db);

    console.log(`\n  --apis ${apis}: c16 contra la API 1 sola`);
    const one = await sampled(procs, db, () =>
      features({ ...targets[0], baseUrls: [targets[0].baseUrl], workerPid }, c16),
    );
    // one API process: the pass against it is the whole run
    let all = one;
    if (apis > 1) {
      console.log(`\n  --apis ${apis}: c16 en turno rotativo sobre ${apis} procesos API`);
      all = await sampled(procs, db, () =>
        features({ ...targets[0], baseUrls: targets.map((t) => t.baseUrl), workerPid }, c16),
      );
    }
    const ended = procs.map((p) => rssMiB(p.child.pid ?? 0));

    const lines: string[] = [];
    lines.push(`## ${size}, ${apis} API processes`, '');
    lines.push(
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- --size ${size} --apis ${apis}\` ` +
        `on ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
        `embedded PostgreSQL; load average ${load0.toFixed(1)} when the measuring began, ${loadavg()[0].toFixed(1)} at the end. ` +
        `Measured once every process was quiet (${settle.toFixed(0)} s after the last start) and after an unmeasured ` +
        `round-robin pass of the same rows (${warmSeconds.toFixed(0)} s: each API process loads its models at their first request); ` +
        `RSS "after start" is before that pass. ` +
        (apis > 1
          ? `One worker (\`--role worker\`) and ${apis} API processes (\`--role api\`) on the same database; the c16 rows ` +
            `against API 1 alone, then round-robin over the ${apis} (each request to the next process).`
          : 'One worker (`--role worker`) and one API process (`--role api`) on the same database; the c16 rows against the API.'),
      '',
    );
    if (apis > 1) {
      lines.push(
        `| endpoint (c16) | requests | one API p50 ms | one API p95 ms | ${apis} APIs p50 ms | ${apis} APIs p95 ms | errors (one / ${apis}) |`,
      );
      lines.push('|---|---:|---:|---:|---:|---:|---|');
      one.value.forEach((r, k) => {
        const b = all.value[k];
        lines.push(
          `| ${r.name} | ${r.requests} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(b?.p50 ?? Number.NaN)} | ${ms(b?.p95 ?? Number.NaN)} | ${r.errors} / ${b?.errors ?? '—'} |`,
        );
      });
    } else {
      lines.push(
        '| endpoint (c16) | requests | p50 ms | p95 ms | max ms | errors |',
        '|---|---:|---:|---:|---:|---:|',
      );
      for (const r of one.value)
        lines.push(
          `| ${r.name} | ${r.requests} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${r.errors} |`,
        );
    }
    const peaks =
      apis > 1 ? ' peak, one API pass MiB | peak, round-robin MiB |' : ' peak under the c16 rows MiB |';
    lines.push(
      '',
      `| process | role | RSS after start MiB |${peaks} at the end MiB | connections idle / peak |`,
      `|---|---|---:|${apis > 1 ? '---:|---:|' : '---:|'}---:|---:|`,
    );
    procs.forEach((p, k) => {
      const peakConns = Math.max(one.conns[k], all.conns[k]);
      const peak = apis > 1 ? `${mib(one.peak[k])} | ${mib(all.peak[k])}` : mib(one.peak[k]);
      lines.push(
        `| ${p.name} | ${p.role} | ${mib(started[k])} | ${peak} | ${mib(ended[k])} | ${idle.get(p.app) ?? 0} / ${peakConns} |`,
      );
    });
    lines.push('');
    return lines.join('\n');
  } finally {
    await db.end();
    for (const p of procs.reverse()) p.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
  }
}
