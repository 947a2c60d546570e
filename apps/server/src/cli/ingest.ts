// npm run ingest -- feed <file|url> --seller <id> [--format merchant-xml|merchant-tsv|csv]
//                   [--map id=Código,price=Precio,…] [--encoding auto|utf-8|latin1] [--mode full|delta]
// npm run ingest -- crawl <url|sitemap>… --seller <id> [--pattern <texto|/regex/>]
//   one crawl run now (issue 28), with the crawler's politeness (robots.txt, delays, back-off): the pages
//   and sitemaps (a URL ending in .xml or .xml.gz, or naming "sitemap") go to the seller's crawl source
//   "Rastreo por línea de comandos" (created once for the seller's organisation, so a later run sends
//   ETag / If-Modified-Since), and the run is executed in this process; counts and reasons printed at the end.
// Imports one feed into the configured database (DATABASE_URL, else the embedded PostgreSQL in
// DATA_DIR/pg) with the rules of Operaciones: streamed parse, exact prices, rejected rows listed with their
// line and reason, one ingest transaction (all or nothing). URLs go through the safe fetcher (public
// addresses only unless FETCH_ALLOW_PRIVATE=true).
import { createReadStream, existsSync } from 'node:fs';
import {
  FEED_ENCODINGS,
  FEED_FIELDS,
  FEED_FORMATS,
  type FeedEncoding,
  type FeedFormat,
  type FeedMapping,
} from '@vigia/domain';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { crawlHooks, executeCrawlRun } from '../modules/crawler/index.js';
import {
  createRun,
  FeedError,
  newReadCounts,
  parseFeed,
  readParts,
  sellerTermsOf,
} from '../modules/feeds/index.js';
import { ingestObservations } from '../modules/ingest/index.js';
import '../modules/rollups.js'; // every roll-up, also those of feature modules
import { FetchError, safeFetch } from '../platform/http/index.js';

const USAGE =
  'Uso: npm run ingest -- feed <archivo|url> --seller <id> [--format merchant-xml|merchant-tsv|csv] [--map campo=Columna,…] [--encoding auto|utf-8|latin1] [--mode full|delta]\n' +
  '     npm run ingest -- crawl <url|sitemap>… --seller <id> [--pattern <texto|/regex/>]';
const CLI_CRAWL_SOURCE = 'Rastreo por línea de comandos';
const isSitemap = (u: string) => /\.xml(\.gz)?(\?.*)?$/i.test(u) || /sitemap/i.test(new URL(u).pathname);

async function crawl(args: string[]) {
  const targets: string[] = [];
  const opts = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      if (!['--seller', '--pattern'].includes(a)) usage(`opción desconocida: ${a}`);
      const v = args[++i];
      if (!v || v.startsWith('--')) usage(`${a} necesita un valor`);
      opts.set(a.slice(2), v);
    } else {
      if (!/^https?:\/\//i.test(a)) usage(`no es una URL http(s): ${a}`);
      targets.push(a);
    }
  }
  if (!targets.length) usage('Falta al menos una URL de página o de sitemap');
  const seller = Number(opts.get('seller'));
  if (!Number.isInteger(seller) || seller <= 0) usage('--seller <id> es obligatorio');
  const settings = {
    urls: targets.filter((t) => !isSitemap(t)),
    sitemaps: targets.filter(isSitemap),
    pattern: opts.get('pattern') ?? null,
  };
  const config = loadConfig();
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const t0 = Date.now();
  try {
    await migrate(db.pool);
    // The seller's organisation: the one that registered it, else one whose license covers it.
    const { rows: org } = await db.pool.query<{ org_id: number }>(
      `select coalesce(s.org_id, (select l.org_id from license_sellers ls join licenses l on l.id = ls.license_id
                                    where ls.seller_id = s.id order by l.org_id limit 1),
                       (select min(id) from organisations)) as org_id
         from sellers s where s.id = $1`,
      [seller],
    );
    if (!org[0]) usage(`El eCommerce ${seller} no existe`);
    if (org[0].org_id === null) usage('No hay ninguna organización en la base de datos');
    const source = { org_id: org[0].org_id, seller_id: seller, kind: 'crawl' as const, id: 0 };
    const { rows: found } = await db.pool.query<{ id: number }>(
      `update import_sources set settings = $3 where id = (select id from import_sources
          where seller_id = $1 and org_id = $2 and kind = 'crawl' and name = $4 and deleted_at is null
          order by id limit 1) returning id`,
      [seller, source.org_id, JSON.stringify(settings), CLI_CRAWL_SOURCE],
    );
    source.id =
      found[0]?.id ??
      (
        await db.pool.query<{ id: number }>(
          `insert into import_sources (org_id, seller_id, kind, name, origin, format, mode, settings)
           values ($1, $2, 'crawl', $3, 'url', 'schema-org', 'delta', $4) returning id`,
          [source.org_id, seller, CLI_CRAWL_SOURCE, JSON.stringify(settings)],
        )
      ).rows[0].id;
    const runId = await createRun(db.pool, source, 'cli', null);
    console.log(
      `Rastreo #${runId} (fuente ${source.id}): ${settings.urls.length} URL, ${settings.sitemaps.length} sitemaps…`,
    );
    const c = await executeCrawlRun({ pool: db.pool, config }, runId, crawlHooks(null, db.pool));
    const { rows: run } = await db.pool.query<{ status: string; error: string | null }>(
      'select status, error from import_runs where id = $1',
      [runId],
    );
    const { rows: reasons } = await db.pool.query<{ state: string; reason: string; n: number }>(
      `select state, coalesce(reason, '—') as reason, count(*)::int as n from crawl_run_pages
        where run_id = $1 and state in ('rejected', 'failed') group by 1, 2 order by n desc, reason`,
      [runId],
    );
    const { rows: examples } = await db.pool.query<{
      url: string;
      state: string;
      reason: string;
      detail: string | null;
    }>(
      `select url, state, reason, detail from crawl_run_pages where run_id = $1 and state in ('rejected', 'failed')
        order by seq limit 50`,
      [runId],
    );
    for (const e of examples)
      console.log(
        `  ${e.state === 'failed' ? 'fallida' : 'rechazada'} ${e.url}: ${e.reason}${e.detail ? ` (${e.detail})` : ''}`,
      );
    console.log(
      `Rastreo ${run[0].status === 'succeeded' ? 'terminado' : 'fallido'} en ${((Date.now() - t0) / 1000).toFixed(1)} s: ` +
        `${c.planned} páginas planificadas, ${c.fetched} descargadas, ${c.unchanged} sin cambios (304), ${c.extracted} extraídas, ` +
        `${c.rejected} rechazadas, ${c.failed} fallidas.`,
    );
    if (reasons.length) {
      console.log('Motivos:');
      for (const r of reasons)
        console.log(`  ${r.n} × ${r.reason} (${r.state === 'failed' ? 'fallidas' : 'rechazadas'})`);
    }
    if (run[0].error) console.log(`Aviso: ${run[0].error}`);
    if (run[0].status !== 'succeeded') process.exitCode = 1;
  } finally {
    await db.close();
  }
}

function usage(msg: string): never {
  console.error(`${msg}\n${USAGE}`);
  process.exit(2);
}

function guessFormat(path: string): FeedFormat {
  if (/\.xml(\.gz)?$|\.rss$|\.atom$/i.test(path)) return 'merchant-xml';
  if (/\.tsv$|\.txt$/i.test(path)) return 'merchant-tsv';
  return 'csv';
}

async function main() {
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const args = process.argv.slice(2);
  if (args[0] === 'crawl') return crawl(args.slice(1));
  if (args[0] !== 'feed') usage('Falta el comando (feed o crawl)');
  const target = args[1];
  if (!target || target.startsWith('--')) usage('Falta el archivo o la URL del feed');
  const opts = new Map<string, string>();
  for (let i = 2; i < args.length; i += 2) {
    const k = args[i];
    const v = args[i + 1];
    if (!['--seller', '--format', '--map', '--encoding', '--mode'].includes(k))
      usage(`opción desconocida: ${k}`);
    if (!v || v.startsWith('--')) usage(`${k} necesita un valor`);
    opts.set(k.slice(2), v);
  }
  const seller = Number(opts.get('seller'));
  if (!Number.isInteger(seller) || seller <= 0) usage('--seller <id> es obligatorio');
  const format = (opts.get('format') ?? guessFormat(target)) as FeedFormat;
  if (!FEED_FORMATS.includes(format)) usage(`--format inválido: ${format}`);
  const encoding = (opts.get('encoding') ?? 'auto') as FeedEncoding;
  if (!FEED_ENCODINGS.includes(encoding)) usage(`--encoding inválido: ${encoding}`);
  const mode = opts.get('mode') ?? 'full';
  if (mode !== 'full' && mode !== 'delta') usage(`--mode inválido: ${mode}`);
  const mapping: FeedMapping = {};
  for (const pair of (opts.get('map') ?? '').split(',').filter(Boolean)) {
    const [field, ...col] = pair.split('=');
    if (!(FEED_FIELDS as readonly string[]).includes(field) || !col.length) usage(`--map inválido: ${pair}`);
    mapping[field as keyof FeedMapping] = col.join('=');
  }

  const config = loadConfig();
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const t0 = Date.now();
  try {
    await migrate(db.pool);
    const terms = await sellerTermsOf(db.pool, seller);
    if (!terms) usage(`El eCommerce ${seller} no existe`);
    let input: AsyncIterable<Buffer>;
    if (/^https?:\/\//i.test(target)) {
      input = (
        await safeFetch(target, { allowPrivate: config.FETCH_ALLOW_PRIVATE, maxBytes: config.FEED_MAX_BYTES })
      ).body;
    } else {
      if (!existsSync(target)) usage(`No existe el archivo ${target}`);
      input = createReadStream(target, { highWaterMark: 256 * 1024 });
    }
    const now = new Date();
    const read = newReadCounts();
    const res = await ingestObservations(
      db.pool,
      { sellerId: seller, source: 'feed', mode: mode === 'full' ? 'full' : 'partial', observedAt: now },
      readParts(parseFeed(input, { format, encoding, mapping }), terms, now, read),
    );
    for (const r of read.rejections.slice(0, 50))
      console.log(`  línea ${r.line}${r.productId ? ` (${r.productId})` : ''}: ${r.reason}`);
    if (read.rejected > 50) console.log(`  … y ${read.rejected - 50} filas rechazadas más`);
    console.log(
      `Feed importado en ${((Date.now() - t0) / 1000).toFixed(1)} s: ${read.rowsRead} filas leídas, ` +
        `${read.valid} escritas (${res.changes} con cambios, ${res.newListings} nuevas, ` +
        `${res.unpublished} despublicadas), ${read.rejected} rechazadas.`,
    );
  } catch (err) {
    if (err instanceof FeedError || err instanceof FetchError) {
      console.error(`El feed no se importó (no cambió nada): ${err.message}`);
      process.exitCode = 1;
    } else throw err;
  } finally {
    await db.close();
  }
}

await main();
