// npm run focus -w @vigia/bench -- (--data DIR [--server other/dist/main.js] | --url http://127.0.0.1:PORT[,…])
//   [--only REGEX] [--c1 N] [--c16 N] [--only-c16]
//   [--features pricing,promotions,assortment,detail,images,reports,browser,duckdb]
// `duckdb` (issue 30): the API's answers against DuckDB's from the raw tables (duckdb.ts), `--c1 N`
// repetitions a row; with `--url` it needs `--data DIR` too (the running server's data dir: its database).
// `--url A,B`: several API processes already running on one database (`--role api`, issue 30 part 5): each
// call goes to the next one in turn (round-robin, as a proxy in front of them would; http.ts nextBase).
// A few endpoints of an already seeded bench database (run.ts seeds one; a copy of it is fine), without
// the rest of the bench and without writing docs/benchmarks.md: for iterating on the promotions,
// assortment and brand-comparator rows. The server applies pending migrations on start (a migration
// that backfills runs then), so the first start on a copy takes that long.

import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchAssortment } from './assortment.js';
import { benchBrowser } from './browser.js';
import { benchDetail } from './detail.js';
import { benchDuckdb, renderDuckdb } from './duckdb.js';
import type { BenchTarget, LatencyResult } from './http.js';
import { benchImageVerification } from './image-verification.js';
import { benchPricing } from './pricing.js';
import { benchPromotions } from './promotions.js';
import { benchReports } from './reports.js';
import { database, login, marketUrl, repoRoot, runningMarketUrl, startServer } from './server.js';

const { clusterLayout, clusterPassword, freePort, startEmbeddedPostgres } = database;

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDir = arg('data') ?? process.env.BENCH_DATA_DIR;
const running = arg('url'); // a server already running (npm start): measure it as it is
if (!running && (!dataDir || !existsSync(dataDir))) {
  console.error('--data DIR: una carpeta de benchmark ya sembrada (npm run bench la crea)');
  process.exit(2);
}
const only = arg('only') ? new RegExp(arg('only') as string) : undefined;
const opts = {
  only,
  requestsC1: arg('c1') ? Number(arg('c1')) : undefined,
  requestsC16: arg('c16') ? Number(arg('c16')) : undefined,
  // `--only-c16`: the c16 rows only (several API processes: what the second core buys is at c16)
  concurrencies: args.includes('--only-c16') ? ([16] as const) : undefined,
};

const HEAD = [
  '| endpoint | concurrency | requests | p50 ms | p95 ms | max ms | errors |',
  '|---|---:|---:|---:|---:|---:|---:|',
];

async function measureAll(server: BenchTarget, dbUrl: string | null) {
  const lines: string[] = [];
  const print = (r: LatencyResult) => {
    const line = `| ${r.name} | ${r.concurrency} | ${r.requests} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.errors} |`;
    lines.push(line);
    console.log(line);
  };
  console.log(HEAD.join('\n'));
  const load = loadavg()[0];
  const benches = {
    pricing: benchPricing,
    promotions: benchPromotions,
    assortment: benchAssortment,
    detail: benchDetail,
    images: benchImageVerification,
    reports: benchReports,
  };
  const duck: string[] = [];
  const features = (arg('features') ?? 'promotions,assortment,images').split(',') as (keyof typeof benches)[];
  for (const f of features) {
    if ((f as string) === 'browser') {
      // Chromium's rows (browser.ts): ms per page, in the requests column's place
      for (const b of await benchBrowser(server, { only: opts.only })) {
        const line = `| ${b.name} (Chromium, ms) | 1 | — | ${b.ms.toFixed(0)} | — | — | — |`;
        lines.push(line);
        console.log(line);
      }
      continue;
    }
    if ((f as string) === 'duckdb') {
      if (!dbUrl) throw new Error('--features duckdb con --url necesita --data (la carpeta del servidor)');
      const res = await benchDuckdb(server, dbUrl, { requests: opts.requestsC1, only: opts.only });
      duck.push(...renderDuckdb(res));
      continue;
    }
    if (!benches[f]) throw new Error(`--features: ${f}? (${Object.keys(benches).join(', ')})`);
    await benches[f](server, { ...opts, onResult: print });
  }
  if (duck.length) console.log(`\n${duck.join('\n')}`);
  const title = arg('write');
  if (title) writeSection(title, load, lines, duck);
}

/** `--write TITLE`: the rows as section `## focus: TITLE` of docs/benchmarks.md (replaced on a re-run). */
function writeSection(title: string, load: number, lines: string[], duck: string[]) {
  const file = join(repoRoot, 'docs/benchmarks.md');
  const section = [
    `## focus: ${title}`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by bench/src/focus.ts (${arg('data') ?? arg('url')}), ` +
      `load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} × ${cpus()[0]?.model.trim()}.`,
    '',
    ...(lines.length ? [...HEAD, ...lines, ''] : []),
    ...(duck.length ? [...duck, ''] : []),
  ].join('\n');
  const doc = readFileSync(file, 'utf8');
  const re = new RegExp(`## focus: ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  writeFileSync(
    file,
    `${(re.test(doc) ? doc.replace(re, section.trimEnd()) : `${doc.trimEnd()}\n\n${section}`).trimEnd()}\n`,
  );
}

if (running) {
  const baseUrls = running.split(',');
  await measureAll(
    { baseUrl: baseUrls[0], baseUrls, token: await login(baseUrls[0], 'demo@example.com') },
    dataDir ? runningMarketUrl(dataDir) : null,
  );
} else {
  const dir = dataDir as string;
  const layout = clusterLayout(dir, (m) => console.log(m));
  const pgServer = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dir) });
  let child: ChildProcess | undefined;
  try {
    const t = performance.now();
    const url = await marketUrl(pgServer.url, dir);
    const server = await startServer(url, dir, await freePort(), arg('server'));
    child = server.child;
    console.log(`  inicio (migraciones incluidas): ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await measureAll(server, url);
  } finally {
    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await pgServer.stop();
  }
}
