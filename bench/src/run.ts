// npm run bench -- [--size small|medium|large] [--reseed] [--features reports,…] [--apis N] [--extraction-pages N]
// Seeds the chosen demo market into a database of its own (reused between runs unless --reseed),
// measures the crawler's extraction (extraction.ts: pages from a local HTTP server, no database), starts
// the built server as a separate process against the market, measures API latency at concurrency 1 and
// 16, and writes the results for that size into docs/benchmarks.md (with the matching quality on the
// labelled set). With `--apis N` it starts a worker and N API processes instead and runs only the c16
// rows — with N ≥ 2 against one API and round-robin over the N — with the resident memory of each role
// (roles.ts): section "<size>, N API processes" (`--apis 1`: one worker and one API process). The
// feature `duckdb` (duckdb.ts, issue 30) loads the market's raw tables into DuckDB and answers the same
// questions there, checking the answers and writing the ratio API p95 / DuckDB p95 per row.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { evaluateMatching, routes } from '@vigia/domain';
import pg from 'pg';

// The built server's modules (npm run build), as the server process below and `npm start` run them: the
// seed time is that of the compiled code, not of TypeScript transformed on the fly. (Typed from the
// sources, so that type-checking needs no build.)
type DemoSize = import('../../apps/server/src/modules/demo/seed-demo.js').DemoSize;
const { clusterLayout, clusterPassword, freePort, startEmbeddedPostgres } = database;
const { migrate } = (await import(
  built('db/migrate.js')
)) as typeof import('../../apps/server/src/db/migrate.js');
const { seedDemoMarket } = (await import(
  built('modules/demo/seed-demo.js')
)) as typeof import('../../apps/server/src/modules/demo/seed-demo.js');
await import(built('modules/rollups.js')); // every roll-up, as in the server

import { benchDuckdb, renderDuckdb } from './duckdb.js';
import { benchExtraction, type ExtractionResult } from './extraction.js';
import {
  type BenchOptions,
  type BenchTarget,
  callRoute,
  type LatencyResult,
  measure,
  rowName,
} from './http.js';
import { benchRoles } from './roles.js';
import { built, database, marketUrl, repoRoot as root, startServer } from './server.js';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const size = (arg('size') ?? 'small') as DemoSize;
if (!['small', 'medium', 'large'].includes(size)) {
  console.error('--size debe ser small, medium o large');
  process.exit(2);
}
const reseed = args.includes('--reseed');
/** `--features reports,assortment`: only those feature benchmarks (default: all). */
const onlyFeatures = arg('features')?.split(',');
/** `--apis N`: N API processes and a worker, the c16 rows only (roles.ts); without it, one process of every role. */
const apis = Number(arg('apis') ?? 1);
const rolesLayout = args.includes('--apis');
if (!Number.isInteger(apis) || apis < 1 || apis > 8) {
  console.error('--apis debe ser un entero entre 1 y 8');
  process.exit(2);
}
const dataDir = process.env.BENCH_DATA_DIR ?? `/tmp/vigia-bench-${size}`;
/** Pages the crawler's extraction reads (the issue's 20,000 by default). */
const extractionPages = Number(arg('extraction-pages') ?? 20_000);

interface Section {
  seedSeconds: number | null;
  /** null: a run of market-free features only (no database, no server) */
  dbBytes: number | null;
  counts: Record<string, number>;
  results: (LatencyResult & { target?: string })[];
  browser: { name: string; ms: number; target?: string }[];
  extraction: ExtractionResult | null;
  matching: string[];
  /** the DuckDB side by side (duckdb.ts renderDuckdb) */
  duckdb?: string[];
}

async function seedIfNeeded(url: string): Promise<number | null> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const marker = join(dataDir, 'seeded-size');
    const seeded = existsSync(marker) && readFileSync(marker, 'utf8').trim() === size;
    if (seeded && !reseed) return null;
    await pool.query('drop schema if exists public cascade; create schema public');
    await migrate(pool);
    const t = performance.now();
    await seedDemoMarket(pool, { size, log: (m) => console.log(`  [seed] ${m}`) });
    const seconds = (performance.now() - t) / 1000;
    writeFileSync(marker, size);
    writeFileSync(join(dataDir, 'seed-seconds'), String(seconds));
    return seconds;
  } finally {
    await pool.end();
  }
}

/** Optional feature benchmarks: bench/src/<feature>.ts exporting bench<Feature>(target). */
async function featureBenchmarks(target: BenchTarget, opts: BenchOptions = {}): Promise<Section['results']> {
  const out: Section['results'] = [];
  for (const [file, fn] of [
    ['./pricing.js', 'benchPricing'],
    ['./detail.js', 'benchDetail'],
    ['./promotions.js', 'benchPromotions'],
    ['./assortment.js', 'benchAssortment'],
    ['./reports.js', 'benchReports'],
    ['./image-verification.js', 'benchImageVerification'],
  ] as const) {
    const path = new URL(file.replace('.js', '.ts'), import.meta.url);
    if (!existsSync(path)) continue;
    if (onlyFeatures && !onlyFeatures.some((f) => file === `./${f}.js`)) continue;
    // the reports are built one at a time (no c16 row): not part of a c16-only run
    if (opts.concurrencies && file === './reports.js') continue;
    const mod = (await import(file)) as Record<
      string,
      (t: BenchTarget, o: BenchOptions) => Promise<Section['results']>
    >;
    if (typeof mod[fn] === 'function') out.push(...(await mod[fn](target, opts)));
  }
  return out;
}

function fmtMs(v: number) {
  return Number.isFinite(v) ? v.toFixed(1) : '—';
}

function renderSection(s: Section): string {
  const lines: string[] = [];
  lines.push(heading, '');
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}${s.dbBytes === null ? '' : ', embedded PostgreSQL'}.`,
    '',
  );
  if (s.dbBytes !== null) {
    lines.push(
      `- Seed time: ${s.seedSeconds === null ? 'reused an existing seeded database (see earlier run)' : `${s.seedSeconds.toFixed(1)} s`}`,
    );
    lines.push(`- Database size: ${(s.dbBytes / 2 ** 20).toFixed(0)} MiB`);
    lines.push(
      `- Rows: ${Object.entries(s.counts)
        .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
        .join(', ')}`,
      '',
    );
  } else lines.push('- Market-free features only: no database, no server.');
  if (s.results.length) {
    lines.push('| endpoint | concurrency | requests | p50 ms | p95 ms | max ms | errors | target |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---|');
  }
  for (const r of s.results) {
    lines.push(
      `| ${r.name} | ${r.concurrency} | ${r.requests} | ${fmtMs(r.p50)} | ${fmtMs(r.p95)} | ${fmtMs(r.max)} | ${r.errors} | ${r.target ?? ''} |`,
    );
  }
  if (s.browser.length) {
    lines.push('', '| page (Chromium) | ms | target |', '|---|---:|---|');
    for (const b of s.browser) lines.push(`| ${b.name} | ${b.ms.toFixed(0)} | ${b.target ?? ''} |`);
  }
  if (s.extraction) {
    const x = s.extraction;
    lines.push(
      '',
      '| crawler extraction (local HTTP server, politeness off, one worker) | pages | KB a page | pages/s | CPU ms a page | RSS start → end (peak) MB | target |',
      '|---|---:|---:|---:|---:|---|---|',
      `| readPage: fetch, decode, extract, judge | ${x.pages} | ${x.pageKb} | ${x.pagesPerSecond} | ${x.cpuMsPerPage.toFixed(2)} | ${x.rssStartMb} → ${x.rssEndMb} (${x.rssPeakMb}) | ≥ 100 pages/s; memory flat |`,
    );
  }
  if (s.matching.length) lines.push('', ...s.matching.map((l) => `- ${l.trim()}`));
  if (s.duckdb?.length)
    lines.push('', 'DuckDB side by side (issue 30; bench/src/duckdb.ts):', '', ...s.duckdb);
  lines.push('');
  return lines.join('\n');
}

/** Replaces (or appends) the section titled `## <title>` of docs/benchmarks.md. */
function writeNamedSection(title: string, section: string) {
  const file = join(root, 'docs/benchmarks.md');
  let doc = readFileSync(file, 'utf8');
  const re = new RegExp(`## ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  doc = re.test(doc) ? doc.replace(re, `${section.trimEnd()}\n`) : `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(file, `${doc.trimEnd()}\n`);
}

/** A run of some features only (--features) writes a sub-section of its size's, beside the full run's rows. */
const heading = onlyFeatures ? `### ${size}: ${onlyFeatures.join(', ')}` : `## ${size}`;

function writeDocs(section: string) {
  const file = join(root, 'docs/benchmarks.md');
  const header =
    "# Benchmarks\n\nWritten by `npm run bench -- --size <small|medium|large>`; each run replaces its own size's section.\n" +
    'Latencies are measured from a separate client process over HTTP on 127.0.0.1 (server and client share the machine).\n\n';
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const escaped = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const main = new RegExp(`## ${size}\\n[\\s\\S]*?(?=\\n## |$)`);
  const own = onlyFeatures ? new RegExp(`${escaped(heading)}\\n[\\s\\S]*?(?=\\n## |\\n### |$)`) : main;
  if (own.test(doc)) doc = doc.replace(own, `${section.trimEnd()}\n`);
  else if (onlyFeatures && main.test(doc))
    doc = doc.replace(main, (m) => `${m.trimEnd()}\n\n${section.trimEnd()}\n`);
  else doc = `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(file, `${doc.trimEnd()}\n`);
}

/** Matching quality on the labelled set (issue 29): precision, recall and F1 of the automatic decisions and of the suggestions. */
function matchingQuality(): string[] {
  const pairs = JSON.parse(readFileSync(join(root, 'bench/data/matching-pairs.json'), 'utf8'));
  const r = evaluateMatching(pairs);
  const row = (name: string, x: typeof r.auto) =>
    `  ${name}: ${x.predicted} decididas, precisión ${(x.precision * 100).toFixed(2)} %, exhaustividad ${(x.recall * 100).toFixed(2)} %, F1 ${(x.f1 * 100).toFixed(2)} %`;
  const lines = [
    `Emparejamiento, conjunto etiquetado (${r.pairs} pares, ${r.matches} coincidencias):`,
    row('automáticas', r.auto),
    row('sugerencias (incl. automáticas)', r.suggestions),
  ];
  for (const l of lines) console.log(l);
  return lines;
}

/** Features that need no market (no database, no server): `--features extraction` runs only them. */
const MARKET_FREE = ['extraction'];

async function runExtraction(): Promise<ExtractionResult> {
  console.log(`  extracción del rastreador: ${extractionPages} páginas…`);
  const x = await benchExtraction(extractionPages);
  console.log(`  ${JSON.stringify(x)}`);
  return x;
}

async function main() {
  const matching = matchingQuality();
  if (onlyFeatures?.every((f) => MARKET_FREE.includes(f))) {
    const extraction = await runExtraction();
    const section = renderSection({
      seedSeconds: null,
      dbBytes: null,
      counts: {},
      results: [],
      browser: [],
      extraction,
      matching,
    });
    console.log(`\n${section}`);
    writeDocs(section);
    console.log('Resultados escritos en docs/benchmarks.md');
    return;
  }
  console.log(`Benchmark ${size} en ${dataDir}`);
  // Placed as the server places its cluster: as root, where the postgres user can reach it.
  const layout = clusterLayout(dataDir, (m) => console.log(m));
  const pgServer = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dataDir) });
  const url = await marketUrl(pgServer.url, dataDir);
  let child: ChildProcess | undefined;
  try {
    const seeded = await seedIfNeeded(url);
    const seedSeconds =
      seeded ??
      (existsSync(join(dataDir, 'seed-seconds'))
        ? Number(readFileSync(join(dataDir, 'seed-seconds'), 'utf8'))
        : null);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query('vacuum analyze');
    const { rows } = await pool.query<{ b: number }>(
      'select pg_database_size(current_database())::bigint as b',
    );
    const counts: Record<string, number> = {};
    for (const t of ['sellers', 'products', 'price_intervals', 'match_groups']) {
      counts[t] = (await pool.query<{ n: number }>(`select count(*)::bigint as n from ${t}`)).rows[0].n;
    }
    await pool.end();

    if (rolesLayout) {
      const section = await benchRoles(size, url, dataDir, apis, featureBenchmarks);
      console.log(`\n${section}`);
      writeNamedSection(`${size}, ${apis} API processes`, section);
      console.log('Resultados escritos en docs/benchmarks.md');
      return;
    }

    // the crawler's extraction needs no database: measured before the server starts (no background jobs)
    let extraction: ExtractionResult | null = null;
    if (!onlyFeatures || onlyFeatures.includes('extraction')) extraction = await runExtraction();

    const server = await startServer(url, dataDir, await freePort());
    child = server.child;
    const { baseUrl, token } = server;

    const results: Section['results'] = [];
    const target: BenchTarget = { baseUrl, token };
    const { login, me } = { login: routes.auth.login, me: routes.users.me };
    const loginCall = () =>
      callRoute(target, login, { body: { email: 'demo@example.com', password: 'demo1234' }, token: null });
    const meCall = () => callRoute(target, me);
    results.push({
      ...(await measure(rowName(login), loginCall, { concurrency: 1, requests: 30 })),
      target: 'scrypt by design',
    });
    results.push({
      ...(await measure(rowName(login), loginCall, { concurrency: 16, requests: 64 })),
      target: 'scrypt by design',
    });
    results.push(await measure(rowName(me), meCall, { concurrency: 1, requests: 200 }));
    results.push(await measure(rowName(me), meCall, { concurrency: 16, requests: 400 }));
    results.push(...(await featureBenchmarks({ baseUrl, token })));
    let duckdb: string[] | undefined;
    if (!onlyFeatures || onlyFeatures.includes('duckdb'))
      duckdb = renderDuckdb(await benchDuckdb({ baseUrl, token }, url));

    const browser: Section['browser'] = [];
    const browserBench = new URL('./browser.ts', import.meta.url);
    if (existsSync(browserBench) && (!onlyFeatures || onlyFeatures.includes('browser'))) {
      const mod = (await import('./browser.js')) as {
        benchBrowser: (t: BenchTarget) => Promise<Section['browser']>;
      };
      browser.push(...(await mod.benchBrowser({ baseUrl, token })));
    }

    const section = renderSection({
      seedSeconds,
      dbBytes: rows[0].b,
      counts,
      results,
      browser,
      extraction,
      matching,
      duckdb,
    });
    console.log(`\n${section}`);
    writeDocs(section);
    console.log('Resultados escritos en docs/benchmarks.md');
  } finally {
    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await pgServer.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
