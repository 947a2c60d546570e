// npx tsx bench/src/matching/speed.ts <data dir of a seeded market> (after npm run build; under the shared lock)
// Matching speed (issue 29, docs/benchmarks.md "Matching"): a new seller of 25,000 listings — the pivot's
// catalogue re-titled in another store's style (units respelled, words reordered, upper case), plus
// listings of products the pivot does not sell — ingested through the real path, then matched against
// the pivot catalogue (runMatching of the seller); then one new listing of another new store matched alone,
// cold and warm, by listing and through the seller's job; then the first seller's job again.
// MATCH_ONE_ONLY=1 skips the seller's matching (done by an earlier run); MATCH_TRACE=1 prints each
// statement's time of the one-listing runs.
import { cpus } from 'node:os';
import pg from 'pg';
import { built, database } from '../server.js';

const { clusterLayout, clusterPassword, startEmbeddedPostgres } = database;
const { ingestObservations } = (await import(
  built('modules/ingest/index.js')
)) as typeof import('../../../apps/server/src/modules/ingest/index.js');
const { runMatching } = (await import(
  built('modules/matching/index.js')
)) as typeof import('../../../apps/server/src/modules/matching/index.js');
// the process's title index (absent from a build before it: then every run is cold)
const titleIndexOf = await import(built('modules/matching/title-index.js')).then(
  (m: typeof import('../../../apps/server/src/modules/matching/title-index.js')) => m.titleIndexOf,
  () => null,
);
await import(built('modules/rollups.js'));
const { migrate } = (await import(
  built('db/migrate.js')
)) as typeof import('../../../apps/server/src/db/migrate.js');

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('uso: speed.ts <DATA_DIR de un mercado small sembrado>');
  process.exit(2);
}
const N = Number(process.env.MATCH_SELLER_SIZE ?? 25_000);
// MATCH_ONE_ONLY=1: the seller is already ingested and matched (an earlier run): time one listing only
const ONE_ONLY = process.env.MATCH_ONE_ONLY === '1';
// MATCH_TRACE=1: the time of each statement of the one-listing runs (where the time goes)
const TRACE = process.env.MATCH_TRACE === '1';
const SELLER = 990;
const ONE_SELLER = 991;

function restyle(name: string, i: number): string {
  const units = name
    .replace(
      /(\d+(?:[.,]\d+)?)\s*kg\b/i,
      (_m, a: string) => `${Math.round(Number(a.replace(',', '.')) * 1000)} g`,
    )
    .replace(
      /(\d+(?:[.,]\d+)?)\s*L\b/,
      (_m, a: string) => `${Math.round(Number(a.replace(',', '.')) * 1000)} ml`,
    );
  const words = units.split(' ');
  return (i % 3 === 0 ? [...words.slice(1), words[0]] : words).join(' ').toUpperCase();
}

/** Statement times of the traced runs (MATCH_TRACE=1): the first line of each statement, ms. */
const traced: { sql: string; ms: number }[] = [];
let tracing = false;
if (TRACE) {
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
    if (!tracing) return query.apply(this, a);
    const t = performance.now();
    const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string }).text ?? '');
    const sql = text.replace(/\s+/g, ' ').trim().slice(0, 110);
    const done = () => traced.push({ sql, ms: performance.now() - t });
    const last = a.length - 1;
    if (typeof a[last] === 'function') {
      // the pool's form: a callback
      const cb = a[last] as (...r: unknown[]) => void;
      a[last] = (...r: unknown[]) => {
        done();
        cb(...r);
      };
      return query.apply(this, a);
    }
    const out = query.apply(this, a);
    return out instanceof Promise ? out.finally(done) : out;
  } as typeof pg.Client.prototype.query;
}

async function main() {
  const layout = clusterLayout(dataDir, (m) => console.log(m));
  const pgServer = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dataDir) });
  const pool = new pg.Pool({ connectionString: pgServer.url.replace(/\/postgres$/, '/vigia'), max: 4 });
  try {
    // a copied market may predate the newest migrations (the server applies them when it starts)
    const applied = await migrate(pool);
    if (applied.length) console.log(`migraciones aplicadas: ${applied.join(', ')}`);
    const { rows: piv } = await pool.query<{ seller_id: number }>(
      'select seller_id from license_pivots limit 1',
    );
    const pivot = piv[0].seller_id;
    const { rows: cat } = await pool.query<{ name: string; brand: string | null; cls: number | null }>(
      `select p.name, b.name as brand, p.classification_id as cls from products p left join brands b on b.id = p.brand_id
        where p.seller_id = $1 and p.published and p.name is not null order by p.id`,
      [pivot],
    );
    if (!ONE_ONLY) {
      await pool.query(
        `delete from match_members where product_id in (select id from products where seller_id = $1)`,
        [SELLER],
      );
      // a new store: no run of it before (its next run would score only what changed)
      await pool.query('delete from match_seller_state where seller_id = $1', [SELLER]);
    }
    await pool.query(
      `insert into sellers (id, name, country, currency, color) values ($1, 'Tienda nueva (bench)', 'CL', 'CLP', '#123456')
       on conflict (id) do nothing`,
      [SELLER],
    );
    const obs = Array.from({ length: N }, (_, i) => {
      const c = cat[i % cat.length];
      const copy = Math.floor(i / cat.length);
      return {
        productId: `B-${i}`,
        name: copy === 0 ? restyle(c.name, i) : `${restyle(c.name, i)} SURTIDO ${copy}`,
        brand: c.brand ?? undefined,
        classificationId: c.cls ?? undefined,
        normalPrice: 1000 + (i % 500),
      };
    });
    const t0 = performance.now();
    const at = new Date();
    await ingestObservations(pool, { sellerId: SELLER, source: 'feed', mode: 'full', observedAt: at }, obs);
    const ingestS = (performance.now() - t0) / 1000;
    console.log(`ingesta de ${N} publicaciones: ${ingestS.toFixed(1)} s; emparejando…`);
    const t1 = performance.now();
    const r = ONE_ONLY ? null : await runMatching(pool, { sellerId: SELLER });
    const matchS = (performance.now() - t1) / 1000;
    console.log(`emparejamiento del eCommerce: ${matchS.toFixed(1)} s`, JSON.stringify(r));
    // One new listing, alone: of a second new store, so that its product's group has none of that store
    // and the match is made and written (the first store's copy of it took its group). Timed with the title
    // index made anew (cold: the first run after the worker starts) and then kept (warm: as the worker keeps
    // it between runs); by listing (runMatching of the listing) and through the seller's job (runMatching
    // of the seller, the match-seller job's call).
    await pool.query(
      `insert into sellers (id, name, country, currency, color) values ($1, 'Otra tienda nueva (bench)', 'CL', 'CLP', '#654321')
       on conflict (id) do nothing`,
      [ONE_SELLER],
    );
    const one = { ...obs[7], productId: 'C-one', name: restyle(cat[7 % cat.length].name, 1) };
    await ingestObservations(
      pool,
      { sellerId: ONE_SELLER, source: 'feed', mode: 'partial', observedAt: new Date(at.getTime() + 1000) },
      [one],
    );
    const { rows: ids } = await pool.query<{ id: string }>(
      `select id from products where seller_id = $1 and product_id = 'C-one'`,
      [ONE_SELLER],
    );
    const oneId = Number(ids[0].id);
    const timed = async (label: string, opts: Parameters<typeof runMatching>[1], listing = oneId) => {
      await pool.query('delete from match_members where product_id = $1', [listing]);
      const t = performance.now();
      tracing = TRACE;
      const res = await runMatching(pool, opts);
      tracing = false;
      const ms = performance.now() - t;
      if (res.auto + res.suggested !== 1) throw new Error(`${label}: la publicación nueva no se emparejó`);
      if (TRACE) {
        console.log(`${label}: ${Math.round(ms)} ms`);
        for (const q of traced.splice(0)) console.log(`  ${q.ms.toFixed(1).padStart(7)} ms  ${q.sql}`);
      }
      return ms;
    };
    const stats = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return { median: Math.round(s[Math.floor(s.length / 2)]), max: Math.round(s[s.length - 1]) };
    };
    titleIndexOf?.(pool).clear();
    const coldMs = Math.round(await timed('en frío', { productIds: [oneId] }));
    const warm: number[] = [];
    for (let k = 0; k < 5; k++) warm.push(await timed(`publicación ${k + 1}`, { productIds: [oneId] }));
    const job: number[] = [];
    for (let k = 1; k <= 5; k++) {
      // the job after a new store's import of one new listing (a store of its own each time: the product's
      // group is free for it, and the job sees a listing it never scored)
      const seller = ONE_SELLER + k;
      await pool.query(
        `insert into sellers (id, name, country, currency, color) values ($1, $2, 'CL', 'CLP', '#654321')
         on conflict (id) do nothing`,
        [seller, `Tienda nueva ${k + 2} (bench)`],
      );
      await pool.query('delete from match_seller_state where seller_id = $1', [seller]);
      await ingestObservations(
        pool,
        { sellerId: seller, source: 'feed', mode: 'partial', observedAt: new Date(at.getTime() + 1000 + k) },
        [one],
      );
      const { rows: jobIds } = await pool.query<{ id: string }>(
        `select id from products where seller_id = $1 and product_id = 'C-one'`,
        [seller],
      );
      job.push(await timed(`tarea ${k}`, { sellerId: seller }, Number(jobIds[0].id)));
    }
    // the first store's job again with nothing new since its run (a new listing of other stores aside)
    const t2 = performance.now();
    const again = await runMatching(pool, { sellerId: SELLER });
    const againMs = Math.round(performance.now() - t2);
    console.log(
      JSON.stringify({
        cpus: cpus().length,
        pivotListings: cat.length,
        sellerListings: N,
        ingestSeconds: Math.round(ingestS * 10) / 10,
        matchSeconds: Math.round(matchS * 10) / 10,
        result: r,
        oneListingMs: { cold: coldMs, warm: stats(warm), job: stats(job) },
        sellerAgain: {
          ms: againMs,
          considered: again.considered,
          auto: again.auto,
          suggested: again.suggested,
        },
      }),
    );
  } finally {
    await pool.end();
    await pgServer.stop();
  }
}

await main();
