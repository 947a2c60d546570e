// npm run feeds -w @vigia/bench -- [--data-dir DIR] [--items 100000] [--heap-mb N]
// Feed import, end to end (issue 27): a generated Merchant XML feed of N items for one new seller, served by
// a local HTTP server on 127.0.0.1, imported by the real import run as the 'feed-import' job runs it
// (runImport: a thread of the imports pool with a capped heap; in it the safe fetcher → streamed parse →
// one ingest transaction with every roll-up), then the same feed again (nothing changed). Reports seconds,
// rows per second and the growth of the process's resident memory — main thread and import thread together:
// peak RSS during the run minus RSS before the first run (the import thread of the first run may still be
// alive, idle, when the second starts), where the memory was at the peak (main heap, Buffers), the main
// heap after a full GC once the run is done (what stays), and per ingest step (IngestOptions.onStep) its
// time, the RSS and the import thread's heap in use at its end, on a seeded market (default: the bench's small database, /tmp/vigia-bench-small; any data
// dir seeded by the server works). Runs the built server's modules (npm run build).

import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const built = (path: string) => new URL(`../../apps/server/dist/${path}`, import.meta.url).href;
if (!existsSync(new URL(built('main.js')))) {
  console.error('Falta el servidor compilado: ejecute primero npm run build');
  process.exit(2);
}
const { openDatabase } = (await import(
  built('db/database.js')
)) as typeof import('../../apps/server/src/db/database.js');
const { migrate } = (await import(
  built('db/migrate.js')
)) as typeof import('../../apps/server/src/db/migrate.js');
const { loadConfig } = (await import(built('config.js'))) as typeof import('../../apps/server/src/config.js');
const { runImport, setImportLimits } = (await import(
  built('modules/feeds/index.js')
)) as typeof import('../../apps/server/src/modules/feeds/index.js');

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const dataDir = arg('data-dir') ?? process.env.BENCH_DATA_DIR ?? '/tmp/vigia-bench-small';
const items = Number(arg('items') ?? 100_000);
// The import thread's heap cap (default: the server's, import-pool.ts).
if (arg('heap-mb')) setImportLimits({ heapMb: Number(arg('heap-mb')) });
if (!existsSync(join(dataDir, 'pg'))) {
  console.error(`No hay base de datos sembrada en ${dataDir}/pg`);
  process.exit(2);
}

// ───────── the feed, written to disk (never held in memory) ─────────
const dir = mkdtempSync(join(tmpdir(), 'vigia-bench-feed-'));
const file = join(dir, 'feed.xml');
{
  const out = createWriteStream(file);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Bench</title>\n',
  );
  for (let i = 0; i < items; i++) {
    const price = 990 + ((i * 7919) % 500_000);
    const sale = i % 5 === 0 ? `<g:sale_price>${Math.round(price * 0.85)} CLP</g:sale_price>` : '';
    await write(
      `<item><g:id>BENCH-${i}</g:id><title>Producto de prueba ${i} marca ${i % 300}</title>` +
        `<description>Descripción larga del producto ${i}, con detalles que el importador no guarda. ${'Lorem ipsum dolor sit amet. '.repeat(4)}</description>` +
        `<link>https://tienda-bench.example/p/${i}</link><g:image_link>https://tienda-bench.example/img/${i}.jpg</g:image_link>` +
        `<g:price>${price} CLP</g:price>${sale}<g:availability>${i % 17 === 0 ? 'out of stock' : 'in stock'}</g:availability>` +
        `<g:brand>Marca ${i % 300}</g:brand><g:gtin>${String(7800000000000 + i)}</g:gtin><g:mpn>MPN-${i}</g:mpn>` +
        `<g:product_type>Categoría ${i % 20} &gt; Sub ${i % 7}</g:product_type><g:condition>new</g:condition></item>\n`,
    );
  }
  await write('</channel></rss>\n');
  out.end();
  await once(out, 'finish');
}
const bytes = statSync(file).size;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(bytes) });
  createReadStream(file).pipe(res);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;

const db = await openDatabase({ dataDir });
const MiB = 2 ** 20;
const mb = (n: number) => `${(n / MiB).toFixed(0)}`;
const mem = (m: NodeJS.MemoryUsage) =>
  `RSS ${mb(m.rss)} · heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} · external ${mb(m.external)} (buffers ${mb(m.arrayBuffers)}) MB`;
try {
  await migrate(db.pool);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    FETCH_ALLOW_PRIVATE: 'true',
    JWT_SECRET: 'b'.repeat(32),
  });
  const { rows: org } = await db.pool.query<{ id: number }>(
    'select id from organisations order by id limit 1',
  );
  const { rows: seller } = await db.pool.query<{ id: number }>(
    `insert into sellers (id, name, country, currency, color, org_id)
     values (nextval('registered_seller_id_seq'), 'Tienda bench feed', 'CL', 'CLP', '#455a64', $1) returning id`,
    [org[0].id],
  );
  const sellerId = seller[0].id;
  const { rows: src } = await db.pool.query<{ id: number }>(
    `insert into import_sources (org_id, seller_id, name, origin, url, format, mode)
     values ($1, $2, 'Bench', 'url', $3, 'merchant-xml', 'full') returning id`,
    [org[0].id, sellerId, url],
  );
  const { rows: counts } = await db.pool.query<{ n: number }>('select count(*)::int as n from products');
  console.log(
    `Feed de ${items.toLocaleString('es-CL')} productos (${(bytes / MiB).toFixed(1)} MB) para el eCommerce ${sellerId}; ` +
      `la base tiene ${counts[0].n.toLocaleString('es-CL')} publicaciones`,
  );

  let baseline: number | undefined;
  const runOnce = async (label: string) => {
    const { rows: run } = await db.pool.query<{ id: string }>(
      `insert into import_runs (org_id, source_id, source_kind, seller_id, trigger) values ($1, $2, 'feed', $3, 'cli') returning id`,
      [org[0].id, src[0].id, sellerId],
    );
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    baseline ??= before;
    let peak = before;
    let atPeak = process.memoryUsage();
    const sample = () => {
      const m = process.memoryUsage();
      if (m.rss > peak) {
        peak = m.rss;
        atPeak = m;
      }
      return m;
    };
    const timer = setInterval(sample, 50);
    const steps: [string, number, NodeJS.MemoryUsage, number | undefined][] = [];
    const t = performance.now();
    const done = await runImport({ pool: db.pool, config }, Number(run[0].id), {
      onStep: (step, ms, threadHeap) => steps.push([step, ms, sample(), threadHeap]),
    });
    const seconds = (performance.now() - t) / 1000;
    clearInterval(timer);
    sample();
    (globalThis as { gc?: () => void }).gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const { rows } = await db.pool.query('select * from import_runs where id = $1', [run[0].id]);
    const r = rows[0];
    console.log(
      `${label}: ${done.status} en ${seconds.toFixed(1)} s · ${Math.round(r.rows_read / seconds).toLocaleString('es-CL')} filas/s · ` +
        `escritas ${r.rows_written}, con cambios ${r.rows_changed}, rechazadas ${r.rows_rejected}${r.error ? ` (${r.error})` : ''} · ` +
        `RSS ${mb(before)} → pico ${mb(peak)} MB (crecimiento ${mb(peak - baseline)} MB sobre ${mb(baseline)} MB antes de la primera, ` +
        `${mb(peak - before)} MB sobre el RSS al empezar esta) · heap principal tras GC ${mb(heapAfter)} MB`,
    );
    // Where the memory was at the peak (resident; V8's heap in use and reserved; outside the heap:
    // Buffers and other external memory).
    console.log(`    en el pico: ${mem(atPeak)}`);
    // Where the time went (ingest's steps; "reading the source" is the download and the streamed parse),
    // and the memory at the end of each step (the import thread's heap in use, then the process's).
    for (const [step, ms, m, th] of steps)
      console.log(
        `    ${step.padEnd(32)} ${(ms / 1000).toFixed(2).padStart(7)} s · hilo ${th === undefined ? '?' : mb(th)} MB · ${mem(m)}`,
      );
  };
  await runOnce('Primera importación');
  await runOnce('El mismo feed otra vez');
} finally {
  server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
