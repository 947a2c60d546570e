import { DEFAULT_PRICE_MODE, effectivePriceFor } from '@vigia/domain';
import type pg from 'pg';
import { type RollupContext, type RollupUpdater, registerRollup, rollupUpdaters } from './registry.js';
import './rollups.js'; // the built-in roll-ups register themselves: they run on every ingest

export { type RollupContext, type RollupUpdater, registerRollup };

/**
 * The one way data enters Vigía. Feed imports, the crawler and the demo generator all hand a batch of
 * observations of one seller at one instant to `ingestObservations`, which in ONE transaction:
 *   1. upserts the listings (products) with their brand, seller category and classification;
 *   2. closes the open price interval of every listing whose observed state changed and opens a new one;
 *   3. updates listing_current (the snapshot the screens read);
 *   4. puts new listings with an EAN into their match group (EAN equality → confirmed);
 *   5. in a full run, unpublishes listings the seller no longer shows and stamps sellers.last_crawl_at;
 *   6. runs every registered roll-up updater for the seller and day (a roll-up may also look at the
 *      listings the run touches before step 1, to maintain its aggregates by difference).
 * The run is recorded in ingest_runs (in the same transaction); a failed run is recorded as failed with its
 * error after the rollback, and nothing else of it is kept.
 *
 * Fast path (migrations/011_ingest_fastpath.sql): a daily full run mostly repeats what is stored. Every
 * observation's price state and description are hashed; the hashes are compared with those stored with
 * the listing (products.descr_hash, listing_current.obs_hash) — taken from this process's memory of the
 * seller's previous run when sellers.ingest_seq shows no other run came in between, else read in one
 * query. Only the listings that differ (new, changed, re-published) go through steps 1–4, where their
 * values are compared exactly. Runs of one seller are serialised by the seller's row lock (taken first);
 * runs of different sellers proceed concurrently (brands and EAN groups are created in sorted order so
 * that two of them cannot deadlock). Invariant kept here: listing_current.since = valid_from of the
 * listing's open interval.
 *
 * Statements whose plan cannot go wrong (single-row writes, the staging insert) are prepared once per
 * connection (named); those that join the staged rows with the listings are planned on every run: a plan
 * cached while a fresh database's statistics still said its tables were empty scanned whole tables on
 * every later run (seen: the small seed's PostgreSQL time doubled).
 */

export interface Observation {
  productId: string; // the seller's own id
  sku?: string | null;
  ean?: string | null;
  name?: string | null;
  brand?: string | null; // brand name as the seller shows it
  url?: string | null;
  imageUrl?: string | null;
  categoryPath?: string[] | null; // the seller's breadcrumb, root first
  classificationId?: number | null; // leaf of v2_classification when known
  normalPrice: number | null;
  salePrice?: number | null;
  exclusivePrice?: number | null;
  byquantityPrice?: number | null;
  byquantityQty?: number | null;
  priceType?: 'NORMAL' | 'SALE' | 'EXCLUSIVE' | 'BYQUANTITY' | null; // derived when absent
  stockOut?: boolean;
  currency?: string | null; // default: the seller's currency
}

export interface IngestRun {
  sellerId: number;
  source: 'demo' | 'feed' | 'crawler' | 'test';
  /** full: the whole catalogue was observed (missing listings are unpublished); partial: only these. */
  mode: 'full' | 'partial';
  observedAt: Date;
}

export interface IngestOptions {
  /**
   * false: the run's transaction commits asynchronously (`synchronous_commit = off`): much faster for
   * bulk loads (the demo generator); a crash may lose the last runs, never corrupt them. Default true.
   */
  durable?: boolean;
}

export interface IngestResult {
  runId: number;
  observations: number;
  changes: number;
  newListings: number;
  unpublished: number;
}

/** Price type of an observation that does not state it: the kind of its lowest price. */
export function derivePriceType(o: Observation): NonNullable<Observation['priceType']> {
  if (o.priceType) return o.priceType;
  const normal = o.normalPrice ?? Number.POSITIVE_INFINITY;
  const sale = o.salePrice ?? Number.POSITIVE_INFINITY;
  const exclusive = o.exclusivePrice ?? Number.POSITIVE_INFINITY;
  if (o.exclusivePrice != null && exclusive <= sale && exclusive < normal) return 'EXCLUSIVE';
  if (o.salePrice != null && sale < normal) return 'SALE';
  if (o.byquantityPrice != null && o.byquantityPrice < normal) return 'BYQUANTITY';
  return 'NORMAL';
}

/**
 * Effective price stored in listing_current (docs/metrics.md "Effective price"): the domain's
 * effectivePriceFor in the default price mode — the lowest of the normal, sale and exclusive prices present.
 */
export function effectivePrice(
  o: Pick<Observation, 'normalPrice' | 'salePrice' | 'exclusivePrice'>,
): number | null {
  return effectivePriceFor(
    { normal: o.normalPrice, sale: o.salePrice, exclusive: o.exclusivePrice },
    DEFAULT_PRICE_MODE,
  );
}

// cyrb53, a fast 53-bit hash (fits a JS number and a bigint column exactly), streamed over several
// fields (no string is built): values are fed in order, each followed by a separator; null/undefined
// feed a marker of their own.
let h1 = 0;
let h2 = 0;
function feedString(str: string): void {
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
}
function feedCode(ch: number): void {
  h1 = Math.imul(h1 ^ ch, 2654435761);
  h2 = Math.imul(h2 ^ ch, 1597334677);
}
// A number is fed as a tag and the two 32-bit halves of its IEEE-754 representation (no string is
// built); a string as its characters; null/undefined as a marker of their own.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
function feed(v: string | number | boolean | null | undefined): void {
  if (v === null || v === undefined) feedCode(3);
  else if (typeof v === 'number') {
    f64[0] = v;
    feedCode(4);
    feedCode(u32[0]);
    feedCode(u32[1]);
  } else feedString(typeof v === 'string' ? v : String(v));
  feedCode(1);
}
function digest(): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hash of what an observation says about prices and stock (what a new interval is opened for). */
function priceHash(o: Observation, currency: string, type: string): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  feed(o.normalPrice);
  feed(o.salePrice);
  feed(o.exclusivePrice);
  feed(o.byquantityPrice);
  feed(type);
  feed(o.stockOut ? 1 : 0);
  feed(currency);
  return digest();
}

/**
 * The description hash of an observation object, remembered with the field values it was computed from:
 * a caller that passes the same objects run after run (the demo generator updates prices in place)
 * costs eight identity comparisons instead of hashing every string again.
 */
interface DescrMemo {
  dh: number;
  sku: Observation['sku'];
  ean: Observation['ean'];
  name: Observation['name'];
  brand: Observation['brand'];
  url: Observation['url'];
  imageUrl: Observation['imageUrl'];
  categoryPath: Observation['categoryPath'];
  path: string[] | null; // a copy of categoryPath when hashed (the array may be changed in place)
  classificationId: Observation['classificationId'];
}

function samePath(a: string[] | null | undefined, copy: string[] | null): boolean {
  if (!a || !copy) return !a && !copy;
  if (a.length !== copy.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== copy[i]) return false;
  return true;
}
// Kept on the observation object itself under a symbol (invisible to JSON and Object.keys): a property
// read costs a fraction of a WeakMap look-up, which showed in profiles at millions of observations.
const DESCR_MEMO = Symbol('vigia.ingest.descrMemo');
type Memoized = Observation & { [DESCR_MEMO]?: DescrMemo };

function descrHashOf(o: Memoized): number {
  const m = o[DESCR_MEMO];
  if (
    m &&
    m.sku === o.sku &&
    m.ean === o.ean &&
    m.name === o.name &&
    m.brand === o.brand &&
    m.url === o.url &&
    m.imageUrl === o.imageUrl &&
    m.classificationId === o.classificationId &&
    m.categoryPath === o.categoryPath &&
    samePath(o.categoryPath, m.path)
  ) {
    return m.dh;
  }
  const dh = descrHash(o);
  if (!Object.isExtensible(o)) return dh; // a frozen observation is hashed every time
  o[DESCR_MEMO] = {
    dh,
    sku: o.sku,
    ean: o.ean,
    name: o.name,
    brand: o.brand,
    url: o.url,
    imageUrl: o.imageUrl,
    categoryPath: o.categoryPath,
    path: o.categoryPath ? [...o.categoryPath] : null,
    classificationId: o.classificationId,
  };
  return dh;
}

/** Hash of what an observation says about the listing itself. */
function descrHash(o: Observation): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  feed(o.sku);
  feed(o.ean);
  feed(o.name);
  feed(o.brand);
  feed(o.url);
  feed(o.imageUrl);
  if (o.categoryPath) {
    for (const level of o.categoryPath) {
      feedString(level);
      feedCode(2);
    }
  } else feedCode(3);
  feedCode(1);
  feed(o.classificationId);
  return digest();
}

const PRICE_FIELDS = ['normalPrice', 'salePrice', 'exclusivePrice', 'byquantityPrice'] as const;

function validPrice(v: number | null | undefined): boolean {
  return v === null || v === undefined || (Number.isFinite(v) && v >= 0 && v < 1e12);
}

function validate(o: Observation, i: number): void {
  const where = () => `observación ${i} (${o.productId})`;
  if (!o.productId || o.productId.length > 200) throw new Error(`${where()}: productId inválido`);
  // The four fields spelled out: a loop over their names costs a keyed property look-up each.
  if (
    validPrice(o.normalPrice) &&
    validPrice(o.salePrice) &&
    validPrice(o.exclusivePrice) &&
    validPrice(o.byquantityPrice)
  )
    return;
  for (const k of PRICE_FIELDS) if (!validPrice(o[k])) throw new Error(`${where()}: ${k} fuera de rango`);
}

/** Category ids by "seller>level1>level2…", per database (pool); entries are added only after commit. */
let categoryCaches = new WeakMap<pg.Pool, Map<string, number>>();

function categoryCacheOf(pool: pg.Pool): Map<string, number> {
  let cache = categoryCaches.get(pool);
  if (!cache) {
    cache = new Map();
    categoryCaches.set(pool, cache);
  }
  return cache;
}

/** Resolves a seller breadcrumb to the id of its leaf in categories, creating missing levels. */
async function resolveCategory(
  client: pg.PoolClient,
  cache: Map<string, number>,
  pending: Map<string, number>,
  sellerId: number,
  path: string[],
): Promise<number> {
  let parent: number | null = null;
  let key = `${sellerId}`;
  for (let level = 0; level < path.length; level++) {
    const name = path[level].trim().slice(0, 200);
    key += `>${name}`;
    const cached = cache.get(key) ?? pending.get(key);
    if (cached !== undefined) {
      parent = cached;
      continue;
    }
    const res: pg.QueryResult<{ id: number }> = await client.query({
      name: 'ingest-category',
      text: `insert into categories (seller_id, parent_id, name, level) values ($1, $2, $3, $4)
       on conflict (seller_id, parent_id, name) do update set name = excluded.name
       returning id`,
      values: [sellerId, parent, name, level + 1],
    });
    parent = res.rows[0].id;
    pending.set(key, parent);
  }
  if (parent === null) throw new Error('categoría vacía');
  return parent;
}

/**
 * What ingest knows about a seller's listings (all of them, published or not) after its last run in
 * this process: per listing its id, whether it is published and the hashes stored with it. Valid while
 * sellers.ingest_seq (bumped by every run, in its transaction) and the seller's created_at are
 * unchanged, i.e. no other run (of any process) came in between; then a run needs no database read to
 * find what changed, what is new or what disappeared. A full run without it reads it (one query).
 */
interface ListingEntry {
  pid: number;
  ph: number | null;
  dh: number | null;
  pub: boolean;
  seen?: number; // runStamp of the last run that observed it (this process)
}
interface SellerState {
  seq: number;
  epoch: number;
  /** Every listing of the seller, published or not (pub), with the hashes stored with it. */
  listings: Map<string, ListingEntry>;
}
let sellerStates = new WeakMap<pg.Pool, Map<number, SellerState>>();

function sellerStatesOf(pool: pg.Pool): Map<number, SellerState> {
  let states = sellerStates.get(pool);
  if (!states) {
    states = new Map();
    sellerStates.set(pool, states);
  }
  return states;
}

/** Forgets cached category ids and listing states (tests that recreate databases, the seed CLI after --reset). */
export function clearIngestCaches(): void {
  categoryCaches = new WeakMap();
  sellerStates = new WeakMap();
}

async function resolveBrands(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  // Sorted: concurrent runs of different sellers insert new brands in the same order (no deadlock).
  const distinct = [...new Set(names.map((n) => n.trim()).filter(Boolean))].sort();
  const map = new Map<string, number>();
  if (!distinct.length) return map;
  const norm = distinct.map((n) => n.toLowerCase());
  await client.query({
    name: 'ingest-brands-insert',
    text: `insert into brands (name, normalized_name)
     select n, nn from unnest($1::text[], $2::text[]) as t(n, nn)
     order by nn
     on conflict (normalized_name) do nothing`,
    values: [distinct, norm],
  });
  const { rows } = await client.query<{ id: number; normalized_name: string }>(
    'select id, normalized_name from brands where normalized_name = any($1)',
    [norm],
  );
  const byNorm = new Map(rows.map((r) => [r.normalized_name, r.id]));
  for (const n of distinct) map.set(n, byNorm.get(n.toLowerCase())!);
  return map;
}

/**
 * The run's differing observations are staged in the temporary table `obs`, created once per database
 * connection and emptied at every commit (on commit delete rows): creating and dropping a table in every
 * run would write and delete its catalogue rows each time (and make every other connection drop its
 * cached plans and catalogue entries).
 */
const obsReady = new WeakSet<pg.PoolClient>();
async function ensureObsTable(client: pg.PoolClient): Promise<void> {
  if (obsReady.has(client)) return;
  // Outside the run's transaction, so that a run that fails does not take the table with it.
  await client.query(
    `create temp table if not exists obs (
       product_id text not null, sku text, ean text, name text, brand_id int, url text, image_url text,
       category_id int, classification_id int, normal_price numeric(14,2), sale_price numeric(14,2),
       exclusive_price numeric(14,2), byquantity_price numeric(14,2), byquantity_qty smallint, price_type text,
       stock_out boolean, currency text, effective_price numeric(14,2), pid bigint, was_published boolean,
       descr_changed boolean, ph bigint, dh bigint, described boolean, is_new boolean not null default false
     ) on commit delete rows`,
  );
  obsReady.add(client);
}

export async function ingestObservations(
  pool: pg.Pool,
  run: IngestRun,
  observations: Observation[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const cache = categoryCacheOf(pool);
  const pending = new Map<string, number>();
  const states = sellerStatesOf(pool);
  const client = await pool.connect();
  try {
    await ensureObsTable(client);
    for (const r of rollupUpdaters) await r.prepare?.(client);
    // The working set is in memory: index probes cost about a sequential read (default 4× would make the
    // planner scan whole tables to join a few changed listings).
    await client.query(
      `begin; set local random_page_cost = 1.1${options.durable === false ? '; set local synchronous_commit = off' : ''}`,
    );
    const { result, next } = await applyBatch(
      client,
      { cache, pending },
      states.get(run.sellerId),
      run,
      observations,
    );
    await client.query('commit');
    for (const [k, v] of pending) cache.set(k, v);
    if (next) states.set(run.sellerId, next());
    else states.delete(run.sellerId);
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    states.delete(run.sellerId);
    // A failed run is recorded (and nothing else of it is kept).
    await pool
      .query(
        `insert into ingest_runs (seller_id, source, mode, observed_at, observations, status, error, finished_at)
         values ((select id from sellers where id = $1::int), $2, $3, $4, $5, 'failed', $6, now())`,
        [
          run.sellerId,
          run.source,
          run.mode,
          run.observedAt,
          observations.length,
          String(err instanceof Error ? err.message : err).slice(0, 2000),
        ],
      )
      .catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** An observation that differs from what is stored (new, changed, re-described or re-published). */
interface Candidate {
  o: Observation;
  pid: number | null; // as stored before the run (null: new listing)
  id: number | null; // after the run (a new listing's id once inserted)
  published: boolean;
  descr_changed: boolean;
  type: string;
  currency: string;
  ph: number;
  dh: number;
}

/** Marks the state's listings observed by the current run (see applyBatch). */
let runStamp = 0;

type ListingMap = SellerState['listings'];

async function applyBatch(
  client: pg.PoolClient,
  categories: { cache: Map<string, number>; pending: Map<string, number> },
  known: SellerState | undefined,
  run: IngestRun,
  observations: Observation[],
): Promise<{ result: IngestResult; next: (() => SellerState) | null }> {
  for (let i = 0; i < observations.length; i++) validate(observations[i], i);
  const t = run.observedAt;
  const partial = run.mode === 'partial';
  // The seller's row lock serialises runs of one seller (runs of different sellers proceed in parallel);
  // ingest_seq is bumped and a full run stamps last_crawl_at, returning the values from before.
  const seller = await client.query<{
    currency: string;
    seq: number;
    epoch: number;
    prev_crawl: Date | null;
    last: Date | null;
  }>({
    name: 'ingest-seller',
    text: `update sellers s set ingest_seq = o.ingest_seq + 1,
            last_crawl_at = case when $3 then o.last_crawl_at else greatest(coalesce(o.last_crawl_at, $2), $2) end
       from (select id, ingest_seq, last_crawl_at from sellers where id = $1 for update) o
      where s.id = o.id
     returning s.currency, o.ingest_seq as seq, extract(epoch from s.created_at)::float8 as epoch,
               o.last_crawl_at as prev_crawl,
               (select max(r.observed_at) from ingest_runs r where r.seller_id = s.id and r.status = 'succeeded') as last`,
    values: [run.sellerId, t, partial],
  });
  if (!seller.rowCount) throw new Error(`eCommerce ${run.sellerId} no existe`);
  const { currency: sellerCurrency, seq, epoch, prev_crawl: prevCrawl, last: lastT } = seller.rows[0];
  // Intervals are built forward in time: an observation older than the seller's last one is refused.
  if (lastT && t < lastT) {
    throw new Error(
      `observación anterior a la última registrada del eCommerce ${run.sellerId} (${lastT.toISOString()})`,
    );
  }

  let state = known && known.seq === seq && known.epoch === epoch ? known : null;
  if (!state && !partial) {
    // A full run without a current state reads the seller's listings once (all of them: a listing the
    // state does not hold is then new, and the published ones it holds but the run lacks are gone).
    const { rows } = await client.query<{
      product_id: string;
      id: number;
      published: boolean;
      dh: number | null;
      ph: number | null;
    }>(
      `select p.product_id, p.id, p.published, p.descr_hash as dh, lc.obs_hash as ph
         from products p left join listing_current lc on lc.product_id = p.id
        where p.seller_id = $1`,
      [run.sellerId],
    );
    const listings: ListingMap = new Map();
    for (const r of rows) listings.set(r.product_id, { pid: r.id, ph: r.ph, dh: r.dh, pub: r.published });
    state = { seq, epoch, listings };
  }

  // The last observation of a product id wins within one batch. Duplicates are rare: the listings the
  // state holds are stamped as observed by this run (no set of the batch's ids is built), and only when
  // an id shows up twice is the batch de-duplicated first.
  let batch = observations;
  let stamp = ++runStamp;
  let unknownIds = new Set<string>();
  const entries: (ListingEntry | undefined)[] = new Array(observations.length);
  const duplicated = () => {
    for (let i = 0; i < batch.length; i++) {
      const id = batch[i].productId;
      const e = state?.listings.get(id);
      entries[i] = e;
      if (e) {
        if (e.seen === stamp) return true;
        e.seen = stamp;
      } else if (unknownIds.has(id)) return true;
      else unknownIds.add(id);
    }
    return false;
  };
  if (duplicated()) {
    const byId = new Map<string, Observation>();
    for (const o of observations) byId.set(o.productId, o);
    batch = [...byId.values()];
    stamp = ++runStamp;
    unknownIds = new Set();
    duplicated();
  }
  const n = batch.length;

  // 0. Every observation's hashes, compared with what is stored: from the seller's state (a listing it
  // does not hold is new); a partial run without a state reads the observed listings from the database.
  const cand: Candidate[] = [];
  const lookup: Candidate[] = [];
  const lookupIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = batch[i];
    const type = derivePriceType(o);
    const c0 = o.currency ?? sellerCurrency;
    const currency = c0 === sellerCurrency ? c0 : c0.toUpperCase(); // the seller's own is stored upper-case
    const ph = priceHash(o, currency, type);
    const dh = descrHashOf(o);
    const e = entries[i];
    if (e) {
      if (e.pub && e.ph === ph && e.dh === dh) continue;
      cand.push({
        o,
        pid: e.pid,
        id: e.pid,
        published: e.pub,
        descr_changed: e.dh !== dh,
        type,
        currency,
        ph,
        dh,
      });
    } else {
      const c = { o, pid: null, id: null, published: false, descr_changed: true, type, currency, ph, dh };
      if (state) cand.push(c);
      else {
        lookup.push(c);
        lookupIds.push(o.productId);
      }
    }
  }
  if (lookup.length) {
    const { rows } = await client.query<{
      i: number;
      id: number;
      published: boolean;
      dh: number | null;
      ph: number | null;
    }>({
      text: `select o.i::int as i, p.id, p.published, p.descr_hash as dh, lc.obs_hash as ph
         from unnest($2::text[]) with ordinality as o(product_id, i)
         join products p on p.seller_id = $1 and p.product_id = o.product_id
         left join listing_current lc on lc.product_id = p.id`,
      values: [run.sellerId, lookupIds],
    });
    const stored = new Map(rows.map((r) => [r.i - 1, r]));
    for (let k = 0; k < lookup.length; k++) {
      const c = lookup[k];
      const r = stored.get(k);
      if (r) {
        if (r.published && r.ph === c.ph && r.dh === c.dh) continue;
        c.pid = c.id = r.id;
        c.published = r.published;
        c.descr_changed = r.dh !== c.dh;
      }
      cand.push(c);
    }
  }

  // Currencies other than the seller's must exist (price_intervals has no foreign key to check them:
  // migrations/045). Only candidates matter: any other observation repeats its stored state.
  const foreign = new Set<string>();
  for (const c of cand) if (c.currency !== sellerCurrency) foreign.add(c.currency);
  if (foreign.size) {
    const { rows } = await client.query<{ acronym: string }>(
      'select acronym from currencies where acronym = any($1::text[])',
      [[...foreign]],
    );
    const existing = new Set(rows.map((r) => r.acronym));
    const unknown = [...foreign].filter((c) => !existing.has(c)).sort();
    if (unknown.length) throw new Error(`moneda desconocida: ${unknown.join(', ')}`);
  }

  if (partial && n) {
    await client.query(
      'update products set last_seen = $2 where seller_id = $1 and product_id = any($3::text[]) and last_seen < $2',
      [run.sellerId, t, batch.map((o) => o.productId)],
    );
  }

  // Full run: the published listings the seller no longer shows (unpublished in step 5).
  const missing: number[] = [];
  if (!partial && state) {
    for (const e of state.listings.values()) if (e.pub && e.seen !== stamp) missing.push(e.pid);
  }

  // Roll-ups that maintain aggregates by difference see the touched listings before anything is written.
  const touchedBefore: number[] = [];
  for (const c of cand) if (c.pid !== null) touchedBefore.push(c.pid);
  touchedBefore.push(...missing);
  for (const r of rollupUpdaters) {
    await r.before?.(client, {
      sellerId: run.sellerId,
      observedAt: t,
      previousAt: lastT,
      touched: touchedBefore,
    });
  }

  let changes = 0;
  let newListings = 0;
  if (cand.length) {
    const obs = cand.map((c) => c.o);
    // Only new, re-published or re-described listings ("described": staged as such, the statements below
    // write their description) need their brand and seller category resolved.
    const described = cand.map((c) => c.pid === null || c.descr_changed || !c.published);
    const anyDescribed = described.some(Boolean);
    const anyNew = cand.some((c) => c.pid === null);
    const brandIds = anyDescribed
      ? await resolveBrands(
          client,
          obs.filter((_, i) => described[i]).map((o) => o.brand ?? ''),
        )
      : new Map<string, number>();
    const categoryIds: (number | null)[] = [];
    for (let i = 0; i < obs.length; i++) {
      const path = obs[i].categoryPath;
      categoryIds.push(
        described[i] && path?.length
          ? await resolveCategory(client, categories.cache, categories.pending, run.sellerId, path)
          : null,
      );
    }
    const col = <T>(f: (o: Observation, i: number) => T) => obs.map(f);
    // Descriptive fields are read only for the listings whose description is written (the others are
    // sent as nulls: nothing to serialise).
    const dcol = <T>(f: (o: Observation) => T) => obs.map((o, i) => (described[i] ? f(o) : null));
    await client.query({
      name: 'ingest-obs',
      text: `insert into obs (product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id,
                        normal_price, sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type,
                        stock_out, currency, effective_price, pid, was_published, descr_changed, ph, dh, described)
       select * from unnest(
          $1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[],
          $10::numeric(14,2)[], $11::numeric(14,2)[], $12::numeric(14,2)[], $13::numeric(14,2)[], $14::smallint[],
          $15::text[], $16::boolean[], $17::text[], $18::numeric(14,2)[], $19::bigint[], $20::boolean[],
          $21::boolean[], $22::bigint[], $23::bigint[], $24::boolean[])
         as t(product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id, normal_price,
              sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type, stock_out, currency,
              effective_price, pid, was_published, descr_changed, ph, dh, described)`,
      values: [
        col((o) => o.productId),
        dcol((o) => o.sku ?? null),
        dcol((o) => o.ean ?? null),
        dcol((o) => o.name ?? null),
        col((o) => (o.brand ? (brandIds.get(o.brand.trim()) ?? null) : null)),
        dcol((o) => o.url ?? null),
        dcol((o) => o.imageUrl ?? null),
        categoryIds,
        dcol((o) => o.classificationId ?? null),
        col((o) => o.normalPrice ?? null),
        col((o) => o.salePrice ?? null),
        col((o) => o.exclusivePrice ?? null),
        col((o) => o.byquantityPrice ?? null),
        col((o) => o.byquantityQty ?? null),
        cand.map((c) => c.type),
        col((o) => o.stockOut ?? false),
        cand.map((c) => c.currency),
        col((o) => effectivePrice(o)),
        cand.map((c) => c.pid),
        cand.map((c) => c.pid === null || c.published),
        cand.map((c) => c.descr_changed),
        cand.map((c) => c.ph),
        cand.map((c) => c.dh),
        described,
      ],
    });
    // No ANALYZE: the planner sizes the temp table from its pages, which is close enough here, and
    // with random_page_cost 1.1 it probes indexes for a few rows instead of scanning whole tables.

    // 1. Listings: insert the new ones; rewrite the description of changed or re-published ones.
    if (anyNew) {
      const { rows } = await client.query<{ product_id: string; id: number }>({
        text: `with ins as (
           insert into products (seller_id, product_id, sku, ean, name, brand_id, url, image_url, category_id,
                                 classification_id, first_seen, last_seen, published, descr_hash)
           select $1, product_id, sku, ean, name, brand_id, url, image_url, category_id, classification_id, $2, $2,
                  true, dh
             from obs where pid is null
           on conflict (seller_id, product_id) do nothing
           returning id, product_id
         )
         update obs o set pid = ins.id, is_new = true from ins where o.product_id = ins.product_id
         returning o.product_id, o.pid as id`,
        values: [run.sellerId, t],
      });
      newListings = rows.length;
      const at = new Map(cand.map((c) => [c.o.productId, c]));
      for (const r of rows) at.get(r.product_id)!.id = r.id;
    }
    if (cand.some((c, i) => described[i] && c.pid !== null)) {
      await client.query({
        text: `update products p set
            sku = coalesce(o.sku, p.sku), ean = coalesce(o.ean, p.ean), name = coalesce(o.name, p.name),
            brand_id = coalesce(o.brand_id, p.brand_id), url = coalesce(o.url, p.url),
            image_url = coalesce(o.image_url, p.image_url), category_id = coalesce(o.category_id, p.category_id),
            classification_id = coalesce(o.classification_id, p.classification_id),
            published = true, unpublished_at = null, descr_hash = o.dh
           from obs o
          where p.id = o.pid and not o.is_new and o.described`,
      });
    }
    // 4. Match by EAN: new listings, and listings whose EAN just appeared, join the EAN's group. Their ids
    // and EANs are passed as values (index probes whatever the statistics say). Groups are created in EAN
    // order so that concurrent runs of two sellers cannot deadlock.
    const matchPids: number[] = [];
    const matchEans: string[] = [];
    for (const c of cand) {
      const ean = c.o.ean;
      const id = c.id;
      if (ean && id !== null && (c.pid === null || c.descr_changed)) {
        matchPids.push(id);
        matchEans.push(ean);
      }
    }
    if (matchPids.length) {
      await client.query(
        `insert into match_groups (ean)
         select distinct t.ean from unnest($1::bigint[], $2::text[]) as t(pid, ean)
          where not exists (select 1 from match_members m where m.product_id = t.pid and m.status <> 'rejected')
          order by 1
         on conflict (ean) where ean is not null do nothing`,
        [matchPids, matchEans],
      );
      await client.query(
        `insert into match_members (group_id, product_id, method, confidence, status)
         select g.id, t.pid, 'ean', 1, 'confirmed'
           from unnest($1::bigint[], $2::text[]) as t(pid, ean) join match_groups g on g.ean = t.ean
          where not exists (select 1 from match_members m where m.product_id = t.pid and m.status <> 'rejected')
            and not exists (select 1 from match_members m where m.group_id = g.id and m.product_id = t.pid)
         on conflict do nothing`,
        [matchPids, matchEans],
      );
    }

    // 2–3. Changed observed state (or re-published): close the open interval, open a new one and
    // refresh the snapshot, in one statement (all parts see the state from before it).
    const { rows: changedRows } = await client.query<{ n: number }>({
      text: `with changed as materialized (
         select o.*, lc.since as open_from from obs o left join listing_current lc on lc.product_id = o.pid
          where lc.product_id is null or not o.was_published
             or (o.normal_price, o.sale_price, o.exclusive_price, o.byquantity_price, o.price_type, o.stock_out, o.currency)
                is distinct from
                (lc.normal_price, lc.sale_price, lc.exclusive_price, lc.byquantity_price, lc.price_type, lc.stock_out, lc.currency)
       ),
       -- the open interval of a listing starts at listing_current.since (ingest keeps it so): a primary-key
       -- probe per changed listing
       closed as (
         update price_intervals pi set valid_to = $1
           from changed c
          where pi.product_id = c.pid and pi.valid_from = c.open_from and pi.valid_to is null and pi.valid_from < $1
         returning 1
       ),
       -- a new interval from $1, or, when the open one already starts at $1 (a second run at the same
       -- instant), that one rewritten (a plain insert: no speculative insertion for the common case)
       opened as (
         insert into price_intervals (product_id, valid_from, normal_price, sale_price, exclusive_price,
                                      byquantity_price, byquantity_qty, price_type, stock_out, currency)
         select pid, $1, normal_price, sale_price, exclusive_price, byquantity_price, byquantity_qty, price_type,
                stock_out, currency
           from changed where open_from is distinct from $1
         returning 1
       ),
       reopened as (
         update price_intervals pi set
            normal_price = c.normal_price, sale_price = c.sale_price, exclusive_price = c.exclusive_price,
            byquantity_price = c.byquantity_price, byquantity_qty = c.byquantity_qty, price_type = c.price_type,
            stock_out = c.stock_out, currency = c.currency, valid_to = null
           from changed c
          where c.open_from = $1 and pi.product_id = c.pid and pi.valid_from = $1
         returning 1
       ),
       snapshot as (
         insert into listing_current as lc (product_id, seller_id, group_id, match_status, brand_id, classification_id,
                normal_price, sale_price, exclusive_price, byquantity_price, price_type, stock_out, currency,
                effective_price, previous_effective_price, price_changed_at, since, obs_hash, published)
         select c.pid, $2, mm.group_id, mm.status, p.brand_id, p.classification_id,
                c.normal_price, c.sale_price, c.exclusive_price, c.byquantity_price, c.price_type, c.stock_out, c.currency,
                c.effective_price, null, $1, $1, c.ph, true
           from changed c
           join products p on p.id = c.pid
           left join match_members mm on mm.product_id = c.pid and mm.status <> 'rejected'
          where c.described
         on conflict (product_id) do update set
            group_id = excluded.group_id, match_status = excluded.match_status,
            brand_id = excluded.brand_id, classification_id = excluded.classification_id,
            normal_price = excluded.normal_price, sale_price = excluded.sale_price,
            exclusive_price = excluded.exclusive_price, byquantity_price = excluded.byquantity_price,
            price_type = excluded.price_type, stock_out = excluded.stock_out, currency = excluded.currency,
            effective_price = excluded.effective_price,
            previous_effective_price = case when lc.effective_price is distinct from excluded.effective_price
                                            then lc.effective_price else lc.previous_effective_price end,
            price_changed_at = case when lc.effective_price is distinct from excluded.effective_price
                                    then excluded.price_changed_at else lc.price_changed_at end,
            since = excluded.since, obs_hash = excluded.obs_hash, published = true
         returning 1
       ),
       -- a listing whose description did not change keeps its brand, classification and match group:
       -- only its prices (one primary-key update, no look-up of its product and match)
       prices as (
         update listing_current lc set
            normal_price = c.normal_price, sale_price = c.sale_price, exclusive_price = c.exclusive_price,
            byquantity_price = c.byquantity_price, price_type = c.price_type, stock_out = c.stock_out,
            currency = c.currency, effective_price = c.effective_price,
            previous_effective_price = case when lc.effective_price is distinct from c.effective_price
                                            then lc.effective_price else lc.previous_effective_price end,
            price_changed_at = case when lc.effective_price is distinct from c.effective_price
                                    then $1 else lc.price_changed_at end,
            since = $1, obs_hash = c.ph, published = true
           from changed c
          where lc.product_id = c.pid and not c.described
         returning 1
       )
       select (select count(*) from changed)::int as n,
              (select count(*) from closed) + (select count(*) from opened) + (select count(*) from reopened)
              + (select count(*) from snapshot) + (select count(*) from prices) as w`,
      values: [t, run.sellerId],
    });
    changes = changedRows[0].n;
    // Every other candidate: its description, match group and observation hash in the snapshot (nothing
    // to do when every candidate changed: the statement above wrote all of that for them, after the
    // descriptions and matches were written).
    if (changes < cand.length)
      await client.query({
        text: `update listing_current lc set obs_hash = o.ph, brand_id = p.brand_id, classification_id = p.classification_id,
              group_id = mm.group_id, match_status = mm.status
         from obs o
         join products p on p.id = o.pid
         left join match_members mm on mm.product_id = o.pid and mm.status <> 'rejected'
        where lc.product_id = o.pid
          and (lc.obs_hash, lc.brand_id, lc.classification_id, lc.group_id, lc.match_status)
              is distinct from (o.ph, p.brand_id, p.classification_id, mm.group_id, mm.status)`,
      });
  }

  // 5. Full run: what the seller no longer shows is unpublished; its history stops here.
  let goneIds: string[] = [];
  if (missing.length) {
    const { rows: gone } = await client.query<{ id: number; product_id: string }>({
      text: `update products p set published = false, unpublished_at = $2, last_seen = coalesce($4::timestamptz, p.last_seen)
        where p.seller_id = $1 and p.published and p.id = any($3::bigint[])
       returning p.id, p.product_id`,
      values: [run.sellerId, t, missing, prevCrawl],
    });
    goneIds = gone.map((r) => r.product_id);
    await client.query({
      text: `with closed as (
         update price_intervals set valid_to = $2
          where product_id = any($1) and valid_to is null and valid_from < $2
         returning 1
       )
       update listing_current set published = false where product_id = any($1)`,
      values: [missing, t],
    });
  }
  const unpublished = missing.length;

  // The run's record (a failed run is recorded by ingestObservations after the rollback).
  const { rows: runRows } = await client.query<{ id: number }>({
    name: 'ingest-run',
    text: `insert into ingest_runs (seller_id, source, mode, observed_at, observations, status, changes, started_at, finished_at)
     values ($1, $2, $3, $4, $5, 'succeeded', $6, now(), clock_timestamp()) returning id`,
    values: [run.sellerId, run.source, run.mode, t, observations.length, changes],
  });
  const runId = runRows[0].id;

  // 6. Roll-ups, same transaction.
  const touched = [...cand.map((c) => c.id!), ...missing];
  for (const r of rollupUpdaters) {
    await r.fn(client, { sellerId: run.sellerId, observedAt: t, previousAt: lastT, runId, touched });
  }

  // The seller's state after this run (kept by ingestObservations once the transaction committed).
  // (Observed listings that were not candidates are stored as the state says.)
  const kept = state;
  const next = !kept
    ? null
    : () => {
        const listings = kept.listings;
        for (const id of goneIds) {
          const e = listings.get(id);
          if (e) e.pub = false;
        }
        for (const c of cand) listings.set(c.o.productId, { pid: c.id!, ph: c.ph, dh: c.dh, pub: true });
        return { seq: seq + 1, epoch, listings };
      };
  return { result: { runId, observations: n, changes, newListings, unpublished }, next };
}
