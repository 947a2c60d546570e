import { MODULE_CODES } from '@vigia/domain';
import type pg from 'pg';
import { withTransaction } from '../../db/database.js';
import { deferIndexes, restoreDeferredIndexes } from '../../db/deferred-indexes.js';
import { hashPassword } from '../../lib/password.js';
import {
  clearIngestCaches,
  deferrableRollups,
  ingestObservations,
  rebuildDeferred,
  suggestTitleMatches,
} from '../ingest/index.js';
import { DEMO_ACCOUNTS } from './accounts.js';
import { COUNTRIES, CURRENCIES, OWN_BRANDS, TREE } from './catalog-data.js';
import { formatDay, parseDay, santiagoInstant, santiagoToday, weekday } from './dates.js';
import {
  buildCatalogue,
  type Catalogue,
  type ListingPlan,
  planListing,
  SEED,
  SellerTimeline,
  sellerItems,
} from './generator.js';
import {
  type DemoSize,
  fxSeries,
  LIMITED_PREFERENCE,
  type PromoEvent,
  promoEvents,
  SELLERS,
  type SellerDef,
  SIZES,
} from './market.js';
import { h32 } from './random.js';
import { recordStatementTimes, statementLines } from './statement-times.js';

export { DEMO_ACCOUNTS } from './accounts.js';
export type { DemoSize } from './market.js';
export { SELLERS as DEMO_SELLERS, SIZES as DEMO_SIZES } from './market.js';

export interface SeedDemoOptions {
  size: DemoSize;
  log?: (m: string) => void;
  /** Last day of the history (yyyy-MM-dd or a Date); default: today in America/Santiago. */
  today?: string | Date;
  /** Sellers ingested at once (default: 1 for tiny, so that even surrogate ids repeat; 2 otherwise). */
  concurrency?: number;
  /** Only these sellers of the size (benchmarks, focused tests); default: all of the size. */
  sellers?: number[];
  /**
   * 'deferred' (default): the roll-ups with a zone rebuild (Surtido's spans, the promotions) are built
   * once per seller after its days are in, from its history (ingest zones.ts rebuildDeferred); 'per run':
   * by every run, as a day's ingest keeps them (demo.test.ts compares both).
   */
  rollups?: 'deferred' | 'per run';
}

export interface SeedDemoSummary {
  size: DemoSize;
  from: string;
  to: string;
  sellers: number;
  listings: number;
  observations: number;
  changes: number;
  runs: number;
  titleSuggestions: number;
  imageChecks: number;
  seconds: Record<string, number>;
}

/**
 * Seeds the deterministic demo market into an empty (migrated) database: reference data, sellers,
 * classification tree, brands, `days` of daily full observations per seller through ingestObservations
 * (so intervals, snapshot, EAN matches and roll-ups are built exactly as in production), title-match
 * suggestions, image verification data and the two demo accounts. Same size and `today` → same data.
 */
export async function seedDemoMarket(pool: pg.Pool, opts: SeedDemoOptions): Promise<SeedDemoSummary> {
  const log = opts.log ?? (() => {});
  const spec = SIZES[opts.size];
  if (!spec) throw new Error(`tamaño de demo desconocido: ${opts.size}`);
  const todayStr =
    opts.today instanceof Date ? santiagoToday(opts.today) : (opts.today ?? santiagoToday(new Date()));
  const lastAbs = parseDay(todayStr);
  const abs0 = lastAbs - spec.days + 1;
  const sellers = SELLERS.filter(
    (s) => (!spec.sellers || spec.sellers.includes(s.id)) && (!opts.sellers || opts.sellers.includes(s.id)),
  );
  const seconds: Record<string, number> = {};
  const t0 = Date.now();
  let tPhase = t0;
  // Per-statement totals of each phase in the log (issue 30 part 3), the largest first.
  const statements = recordStatementTimes(pool);
  const phase = (name: string, detail = '') => {
    const now = Date.now();
    seconds[name] = (now - tPhase) / 1000;
    log(`${name}: ${seconds[name].toFixed(1)} s${detail ? ` (${detail})` : ''}`);
    for (const line of statementLines(statements.take())) log(line);
    tPhase = now;
  };
  clearIngestCaches();
  // Recorded first: a load interrupted from here on is finished by the next start (unfinishedDemoSeed).
  await pool.query(
    `insert into demo_seed (size, today) values ($1, $2)
     on conflict (id) do update set size = excluded.size, today = excluded.today, finished_at = null`,
    [opts.size, todayStr],
  );

  // 1. Reference data, sellers, classification tree, brands.
  const cat = buildCatalogue(spec.perSeller);
  const fx = fxSeries(SEED, abs0 - 7, lastAbs);
  await withTransaction(pool, async (c) => {
    await c.query(
      `insert into currencies (acronym, name, decimals) select * from unnest($1::text[], $2::text[], $3::smallint[])
       on conflict (acronym) do nothing`,
      [CURRENCIES.map((x) => x.acronym), CURRENCIES.map((x) => x.name), CURRENCIES.map((x) => x.decimals)],
    );
    await c.query(
      `insert into countries (code, name, flag, currency) select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])
       on conflict (code) do nothing`,
      [
        COUNTRIES.map((x) => x.code),
        COUNTRIES.map((x) => x.name),
        COUNTRIES.map((x) => x.flag),
        COUNTRIES.map((x) => x.currency),
      ],
    );
    await c.query(
      `insert into fx_rates (currency, day, clp_per_unit) select * from unnest($1::text[], $2::date[], $3::numeric[])
       on conflict (currency, day) do update set clp_per_unit = excluded.clp_per_unit`,
      [fx.map((r) => r.currency), fx.map((r) => formatDay(r.day)), fx.map((r) => r.rate)],
    );
    await c.query(
      `insert into sellers (id, name, country, currency, color, url)
       select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       on conflict (id) do nothing`,
      [
        sellers.map((s) => s.id),
        sellers.map((s) => s.name),
        sellers.map((s) => s.country),
        sellers.map((s) => s.currency),
        sellers.map((s) => s.color),
        sellers.map((s) => `https://www.${s.domain}`),
      ],
    );
    await c.query(
      `insert into classifications (id, parent_id, name, level, path)
       select id, parent_id, name, level, string_to_array(path, ',')::int[]
         from unnest($1::int[], $2::int[], $3::text[], $4::smallint[], $5::text[]) as t(id, parent_id, name, level, path)
        order by id
       on conflict (id) do nothing`,
      [
        cat.nodes.map((n) => n.id),
        cat.nodes.map((n) => n.parentId),
        cat.nodes.map((n) => n.name),
        cat.nodes.map((n) => n.level),
        cat.nodes.map((n) => n.path.join(',')),
      ],
    );
    await c.query(
      `select setval(pg_get_serial_sequence('classifications', 'id'), (select max(id) from classifications))`,
    );
    await c.query(
      `insert into brands (name, normalized_name)
       select n, lower(n) from unnest($1::text[]) with ordinality as t(n, i) order by i
       on conflict (normalized_name) do nothing`,
      [cat.brands.map((b) => b.spec.name)],
    );
  });
  phase(
    'referencia',
    `${sellers.length} eCommerce, ${cat.leaves.length} clasificaciones hoja, ${cat.brands.length} marcas, ${cat.items.length} ítems`,
  );

  // 2. Observations: one full run per seller and day, `concurrency` sellers at once.
  const fx0: Record<string, number> = {};
  for (const r of fx) if (r.day === abs0) fx0[r.currency] = r.rate;
  const totals = { observations: 0, changes: 0, runs: 0, listings: 0 };
  const queue = [...sellers];
  const concurrency = Math.max(1, opts.concurrency ?? spec.concurrency);
  // Surtido's spans and the promotions change with most runs and were most of a run's time (issue 30:
  // 13 indexes of assortment_spans written per changed listing and day); built once per seller from its
  // history instead, while the other lanes load their sellers. Rebuilt whole, so a resumed seed too.
  const deferred = opts.rollups === 'per run' ? [] : deferrableRollups();
  // ... and written into the table alone: its secondary indexes (12; the primary key stays) are built
  // once from all the spans after the lanes (a large seller's ~1 M spans inserted into 13 indexes took
  // 122 s of its rebuild). Nothing reads the spans meanwhile: the seed's other statements never do.
  if (deferred.includes('assortment')) await deferIndexes(pool, 'assortment_spans');
  const lane = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      const t = Date.now();
      const r = await ingestSeller(pool, cat, s, spec.perSeller, spec.days, abs0, fx0, deferred);
      const tRebuild = Date.now();
      if (deferred.length) {
        // planned on a fresh database's statistics (tables still empty to the planner), a small seller's
        // rebuild took 56–125 s instead of ~4 s (the e2e server's small seed)
        await pool.query('analyze price_intervals, products, ingest_runs, rollup_daily_brand');
        await rebuildDeferred(pool, s.id, deferred);
      }
      totals.observations += r.observations;
      totals.changes += r.changes;
      totals.runs += spec.days;
      totals.listings += r.listings;
      log(
        `  ${s.id} ${s.name}: ${r.listings} publicaciones, ${r.observations} observaciones, ${r.changes} cambios en ${((tRebuild - t) / 1000).toFixed(1)} s` +
          (deferred.length
            ? `; ${deferred.join(' y ')} en ${((Date.now() - tRebuild) / 1000).toFixed(1)} s`
            : ''),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  // the indexes dropped above (and any a killed seed left listed): two builds at a time, each with
  // PostgreSQL's parallel workers
  const tIndexes = Date.now();
  const rebuilt = await restoreDeferredIndexes(pool);
  if (rebuilt.length)
    log(`  ${rebuilt.length} índices reconstruidos en ${((Date.now() - tIndexes) / 1000).toFixed(1)} s`);
  phase(
    'observaciones',
    `${totals.runs} ejecuciones, ${totals.observations} observaciones, ${totals.changes} cambios de precio/stock`,
  );

  // 3–5. Title matching of listings without EAN (one long statement) runs on its own connection while
  // the planner statistics of the loaded tables are gathered and the image verification data and the
  // two demo accounts are written on another: each is a single process, and the machine has more than
  // one core. Then the statistics of the tables written meanwhile. The tables title matching reads get
  // their statistics first (planned on the loading's stale ones, it took twice as long).
  await pool.query('analyze products, match_members, match_groups');
  const [matches, imageChecks] = await Promise.all([
    suggestTitleMatches(pool),
    (async () => {
      await pool.query('analyze');
      // Image verification: reference images of the own brands, checks on a few comparison dates.
      const n = await seedImages(pool, lastAbs, abs0);
      await seedAccounts(pool, sellers, cat);
      return n;
    })(),
  ]);
  // Every table vacuumed and analysed: a fresh market's rows are not yet marked all-visible, and the
  // screens' index-only scans read the heap for each of them until autovacuum gets there — the large
  // market's product list was c1 p95 157–204 ms and c16 2.7–3.5 s right after its seed, 36 / 408 ms once
  // `products` and `listing_current` were vacuumed (issue 30, fifth session).
  await pool.query('vacuum (analyze)');
  clearIngestCaches(); // the listing states of a large market are not worth keeping in a server process
  phase(
    'emparejamiento por título, imágenes y cuentas',
    `${matches.suggested} sugerencias (${matches.method}), ${imageChecks} verificaciones de imagen`,
  );
  statements.stop();
  await pool.query('update demo_seed set finished_at = now()');
  seconds.total = (Date.now() - t0) / 1000;
  log(`total: ${seconds.total.toFixed(1)} s`);
  return {
    size: opts.size,
    from: formatDay(abs0),
    to: todayStr,
    sellers: sellers.length,
    listings: totals.listings,
    observations: totals.observations,
    changes: totals.changes,
    runs: totals.runs,
    titleSuggestions: matches.suggested,
    imageChecks,
    seconds,
  };
}

/**
 * A seller's story over the `days` days from `abs0` (its listings' plans and the promotion events), to be
 * walked day by day from day index 0. `extraDays` more days can be asked for after the period (the day
 * after a seeded market's last: bench/src/ingest-day.ts); the plans are those of the period, so the
 * history up to its last day is the seed's.
 */
export function sellerTimeline(
  cat: Catalogue,
  seller: SellerDef,
  perSeller: number,
  days: number,
  abs0: number,
  fx0: Record<string, number>,
  extraDays = 0,
): SellerTimeline {
  const plans: ListingPlan[] = sellerItems(cat, seller, perSeller).map((it) =>
    planListing(it, seller, days, fx0),
  );
  const total = days + extraDays;
  const events = promoEvents(seller.country, abs0, abs0 + total - 1);
  const byDay: (PromoEvent | null)[] = Array.from(
    { length: total },
    (_, d) => events.find((e) => e.from <= abs0 + d && abs0 + d < e.to) ?? null,
  );
  return new SellerTimeline(seller, plans, byDay, abs0);
}

/** The seller's crawl instant on day `abs`: its usual hour plus up to 45 minutes (Santiago). */
export function crawlInstant(seller: SellerDef, abs: number): Date {
  return santiagoInstant(abs, seller.crawlMinute + (h32(SEED, seller.id, abs) % 45));
}

async function ingestSeller(
  pool: pg.Pool,
  cat: Catalogue,
  seller: SellerDef,
  perSeller: number,
  days: number,
  abs0: number,
  fx0: Record<string, number>,
  deferred: readonly string[],
): Promise<{ listings: number; observations: number; changes: number }> {
  const timeline = sellerTimeline(cat, seller, perSeller, days, abs0, fx0);
  // Days already loaded by an interrupted seed: each day is one run, committed whole with its ingest_runs
  // row, so the first `done` days are in the database and the next one is absent.
  const { rows: doneRows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from ingest_runs where seller_id = $1 and source = 'demo' and status = 'succeeded'`,
    [seller.id],
  );
  const done = doneRows[0].n;
  const now = Date.now();
  let observations = 0;
  let changes = 0;
  for (let d = 0; d < days; d++) {
    const abs = abs0 + d;
    // never in the future
    let at = crawlInstant(seller, abs);
    if (at.getTime() > now) at = new Date(Math.max(santiagoInstant(abs, 1).getTime(), now - 60_000));
    const obs = timeline.day(d);
    if (d < done) continue; // the timeline is still walked: each day follows from the one before
    const r = await ingestObservations(
      pool,
      { sellerId: seller.id, source: 'demo', mode: 'full', observedAt: at },
      obs,
      { durable: false, deferRollups: deferred },
    );
    observations += obs.length;
    changes += r.changes;
  }
  return { listings: timeline.plans.length, observations, changes };
}

/**
 * Reference pictures for the own brands' EANs and image checks on the last four Mondays. The listings of
 * the own brands show raster pictures (pictures.ts: <key>.<kind>.<ext>); the reference is <key>.png. The
 * similarities are left to measure: the pairs are queued in image_scores and the server's image
 * verification job measures them from the pixels (modules/image-verification).
 */
async function seedImages(pool: pg.Pool, lastAbs: number, abs0: number): Promise<number> {
  const own = OWN_BRANDS.map((b) => b.toLowerCase());
  const key = `substring(p.image_url from '/pictures/([a-z]+-[A-Z0-9]+-[A-Za-z0-9]+)[.]')`;
  await pool.query(
    `insert into reference_images (ean, brand_id, image_url)
     select distinct on (p.ean) p.ean, p.brand_id, regexp_replace(p.image_url, '[.][a-z]+[.][a-z]+$', '.png')
       from products p join brands b on b.id = p.brand_id
      where b.normalized_name = any($1) and p.ean is not null and ${key} is not null
      order by p.ean, p.seller_id, p.product_id
     on conflict (ean) do nothing`,
    [own],
  );
  const mondays: string[] = [];
  let m = lastAbs - weekday(lastAbs);
  while (mondays.length < 4 && m >= abs0) {
    mondays.push(formatDay(m));
    m -= 7;
  }
  const { rowCount } = await pool.query(
    `insert into image_checks (product_id, checked_at, reference_url, image_url, similarity)
     select p.id, (d.day + time '12:00') at time zone 'America/Santiago', r.image_url, p.image_url, null
       from products p
       join reference_images r on r.ean = p.ean
       cross join unnest($1::date[]) as d(day)
      where p.first_seen < (d.day + 1)::timestamp at time zone 'America/Santiago'
        and (p.published or p.unpublished_at > (d.day + 1)::timestamp at time zone 'America/Santiago')
     on conflict (product_id, checked_at) do nothing`,
    [mondays],
  );
  // each listing's check is replaced by its next (migration 481: a day shows each listing's last check)
  await pool.query(
    `update image_checks c set superseded_at = n.next
       from (select id, lead(checked_at) over (partition by product_id order by checked_at) as next
               from image_checks) n
      where n.id = c.id and n.next is distinct from c.superseded_at`,
  );
  await pool.query(
    `insert into image_scores (reference_url, image_url)
     select distinct reference_url, image_url from image_checks on conflict do nothing`,
  );
  return rowCount ?? 0;
}

async function seedAccounts(pool: pg.Pool, sellers: SellerDef[], cat: Catalogue): Promise<void> {
  const ids = sellers.map((s) => s.id);
  const [demoHash, limitedHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNTS[0].password),
    hashPassword(DEMO_ACCOUNTS[1].password),
  ]);
  const roots = cat.nodes.filter((n) => n.level === 1).map((n) => n.id);
  // With a subset of sellers (options.sellers) the pivots fall back to the first seller present.
  const demoPivots = [116, 5].filter((id) => ids.includes(id));
  if (!demoPivots.length) demoPivots.push(ids[0]);
  const limitedPivot = ids.includes(5) ? 5 : ids[0];
  const preference = [limitedPivot, ...LIMITED_PREFERENCE.filter((id) => id !== limitedPivot)];
  const limitedSellers = preference.filter((id) => ids.includes(id)).slice(0, Math.ceil(ids.length / 2));
  await withTransaction(pool, async (c) => {
    const { rowCount: accountsThere } = await c.query('select 1 from users where email = $1', [
      DEMO_ACCOUNTS[0].email,
    ]);
    if (accountsThere) return; // written by an interrupted seed (this transaction is all or nothing)
    const { rows: ownBrands } = await c.query<{ id: number }>(
      'select id from brands where normalized_name = any($1) order by id',
      [OWN_BRANDS.map((b) => b.toLowerCase())],
    );
    const account = async (a: {
      org: string;
      email: string;
      name: string;
      hash: string;
      sellers: number[];
      pivots: number[];
      currencies: string[];
      modules: readonly string[];
      brands: number[];
      classifications: number[];
      pivot: number;
      admin: boolean;
    }) => {
      const { rows: o } = await c.query<{ id: number }>(
        'insert into organisations (name) values ($1) returning id',
        [a.org],
      );
      const { rows: l } = await c.query<{ id: number }>(
        'insert into licenses (org_id) values ($1) returning id',
        [o[0].id],
      );
      const lic = l[0].id;
      await c.query('insert into license_sellers select $1, unnest($2::int[])', [lic, a.sellers]);
      await c.query('insert into license_pivots select $1, unnest($2::int[])', [lic, a.pivots]);
      await c.query('insert into license_currencies select $1, unnest($2::text[])', [lic, a.currencies]);
      await c.query('insert into license_modules select $1, unnest($2::text[])', [lic, [...a.modules]]);
      await c.query('insert into license_brands select $1, unnest($2::int[])', [lic, a.brands]);
      await c.query('insert into license_classifications select $1, unnest($2::int[])', [
        lic,
        a.classifications,
      ]);
      await c.query(
        `insert into users (org_id, email, name, password_hash, currency, pivot_id, is_admin) values ($1, $2, $3, $4, 'CLP', $5, $6)`,
        [o[0].id, a.email, a.name, a.hash, a.pivot, a.admin],
      );
    };
    await account({
      org: 'Demo Retail',
      email: DEMO_ACCOUNTS[0].email,
      name: 'Usuario Demo',
      hash: demoHash,
      sellers: ids,
      pivots: demoPivots,
      currencies: ['CLP', 'USD'],
      modules: MODULE_CODES,
      brands: ownBrands.map((b) => b.id),
      classifications: roots,
      pivot: demoPivots[0],
      admin: true, // configures Operaciones (sellers, feed sources, API keys)
    });
    await account({
      org: 'Comercial Limitada',
      email: DEMO_ACCOUNTS[1].email,
      name: 'Usuario Limitado',
      hash: limitedHash,
      sellers: limitedSellers,
      pivots: [limitedPivot],
      currencies: ['CLP'],
      modules: ['dpm', 'reports'],
      brands: [],
      classifications: [],
      pivot: limitedPivot,
      admin: false,
    });
  });
}

/** The demo load an interrupted start left unfinished (size and last day), or null. */
export async function unfinishedDemoSeed(pool: pg.Pool): Promise<{ size: DemoSize; today: string } | null> {
  const { rows } = await pool.query<{ size: DemoSize; today: string }>(
    'select size, today::text as today from demo_seed where finished_at is null',
  );
  return rows[0] ?? null;
}

/** Root classification names of the demo tree (for documentation and tests). */
export const DEMO_ROOTS = TREE.map((r) => r.name);
