// npm run ingest -- feed <file|url> --seller <id> [--format merchant-xml|merchant-tsv|csv]
//                   [--map id=Código,price=Precio,…] [--encoding auto|utf-8|latin1] [--mode full|delta]
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
import { collectRows, FeedError, parseFeed, sellerTermsOf } from '../modules/feeds/index.js';
import { ingestObservations } from '../modules/ingest/index.js';
import '../modules/rollups.js'; // every roll-up, also those of feature modules
import { FetchError, safeFetch } from '../platform/http/index.js';

const USAGE =
  'Uso: npm run ingest -- feed <archivo|url> --seller <id> [--format merchant-xml|merchant-tsv|csv] [--map campo=Columna,…] [--encoding auto|utf-8|latin1] [--mode full|delta]';

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
  if (args[0] !== 'feed') usage('Falta el comando (feed)');
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
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
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
    const read = await collectRows(parseFeed(input, { format, encoding, mapping }), terms, now);
    for (const r of read.rejections.slice(0, 50))
      console.log(`  línea ${r.line}${r.productId ? ` (${r.productId})` : ''}: ${r.reason}`);
    if (read.rejected > 50) console.log(`  … y ${read.rejected - 50} filas rechazadas más`);
    if (!read.observations.length) throw new FeedError(`ninguna fila válida (${read.rejected} rechazadas)`);
    const res = await ingestObservations(
      db.pool,
      { sellerId: seller, source: 'feed', mode: mode === 'full' ? 'full' : 'partial', observedAt: now },
      read.observations,
    );
    console.log(
      `Feed importado en ${((Date.now() - t0) / 1000).toFixed(1)} s: ${read.rowsRead} filas leídas, ` +
        `${read.observations.length} escritas (${res.changes} con cambios, ${res.newListings} nuevas, ` +
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
