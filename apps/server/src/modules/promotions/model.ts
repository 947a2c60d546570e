import { DEFAULT_TIMEZONE, discountPercentOrNaN, PRICE_TYPES } from '@vigia/domain';
import type pg from 'pg';
import { emptySlot, freshValue, type VersionedSlot } from '../../lib/versioned-slot.js';
import { selectSellerVersions } from '../../platform/change-signal.js';
import { readModelsOf, touches } from '../../platform/read-model.js';

// In-memory copy of promo_spans, per seller and market zone (the zone's days: migration 470) and per API process (like the pricing model,
// modules/pricing/model.ts). The range and scatter-plot answers need every promotion of a window —
// exact quantiles of their prices, distinct listings per price bucket — which no additive roll-up
// gives; scanning the copy's columns takes milliseconds where the same query over promo_spans took
// seconds on the medium market (docs/metrics.md "Promotions — speed"). So do the type averages in a
// currency other than CLP: each promotion at its own first day's rates, which the cumulative rows'
// sums cannot give (queries.ts selectTypePrices).
//
// A seller's copy is valid while its version (the change signal's, platform/change-signal.ts: the
// seller's 'listings' version, bumped by every ingest run, and its 'products' version, bumped when its
// products were deleted) is unchanged. The copies live in the read-model holder, which loads them after
// start-up and refreshes a seller's when the signal names a change of it (promotionsReadModels). When it
// moved, only the promotions an ingest run may have changed are reloaded: a run on day D ≥ Dm (Dm =
// the seller's latest run day when the copy was read; ingest refuses older runs) opens promotions on
// D, ends open ones on D − 1, deletes ones opened on D or re-opens ones ended on D − 1 (rollup.ts). So
// every promotion a later run changed has, before or after the change, last_day null or ≥ Dm − 1 or
// first_day ≥ Dm: the copy drops its rows matching that and reads the stored rows matching it. After a
// deletion of products the seller is read again whole.

/** Days since 1970-01-01 of a yyyy-MM-dd day. */
export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
/** The yyyy-MM-dd day of a dayNumber. */
export const dayString = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
/**
 * `last` of a running promotion. The days are kept in 16 bits (issue 30, memory and the charts' reads:
 * 8 bytes less per promotion, ~38 MB on the large market with the leaf groups): day numbers 0 …
 * RUNNING − 1, 1970-01-01 to 2149-06-05; a promotion dated outside them is refused when read (load).
 */
export const RUNNING = 65_535;

/** One seller's promotions, as columns sorted by (product, first day). */
export interface SellerSpans {
  sellerId: number;
  /** the market zone whose promotions these are (their days are that zone's) */
  zone: string;
  /** `listings:products` versions when read */
  version: string;
  deleted: string;
  /** the seller's latest succeeded run day in `zone` (day number) when read; null without runs */
  lastRunDay: number | null;
  n: number;
  /** the earliest first day (day number; RUNNING when n = 0) */
  minFirst: number;
  product: Float64Array;
  /** classification leaf when the promotion started (0: none) */
  leaf: Int32Array;
  first: Uint16Array;
  /** last day, RUNNING while running */
  last: Uint16Array;
  /** promotion price in the listing's currency; NaN when missing */
  promo: Float64Array;
  /** normal price in the listing's currency; NaN when missing (the type averages: distribution.ts typeChart) */
  normal: Float64Array;
  /** price type, as its index in the domain's PRICE_TYPES */
  type: Uint8Array;
  /** index into the model's `currencies` */
  cur: Uint8Array;
  /** the columns again, grouped by leaf (built on first use, see leafGroups) */
  groups?: LeafGroups;
  /** the promotions summed per leaf, type, currency and days (built on first use, see dateGroups) */
  dated?: DateGroups;
  /** the running promotions' positions grouped by leaf (built on first use, see runningByLeaf) */
  running?: LeafPositions;
}

/**
 * A seller's promotions grouped by leaf, as contiguous copies of the columns a range reads: positions
 * `at(leaf)[0] … at(leaf)[1] − 1` are the leaf's promotions, in the seller's order. A question about one
 * classification reads only its leaves' stretches, sequentially (through an index into the main columns
 * it read scattered memory: the range's main cost on the medium market).
 */
export interface LeafGroups {
  at: Map<number, [number, number]>;
  first: Uint16Array;
  last: Uint16Array;
  promo: Float64Array;
  cur: Uint8Array;
}

/**
 * A column of n values in shared memory: the chart threads (chart-pool.ts) read the copies without copying
 * them. A copy never changes once built (a refresh builds another).
 */
export function column<T>(type: { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, n: number): T {
  return new type(new SharedArrayBuffer(n * type.BYTES_PER_ELEMENT));
}

/**
 * Positions into a seller's columns grouped by leaf: `pos[at(leaf)[0]] … pos[at(leaf)[1] − 1]` are the
 * leaf's, in the seller's order.
 */
export interface LeafPositions {
  at: Map<number, [number, number]>;
  pos: Int32Array;
}

/**
 * The seller's running promotions (`last` = RUNNING) by leaf (built once per copy, 4 bytes a running
 * promotion): the duration chart's running groups (distribution.ts runningGroups) read only the asked
 * leaves' running promotions instead of passing over every promotion of every seller (~29 ms a
 * classification on the large market's 4.7 M promotions).
 */
export function runningByLeaf(s: SellerSpans): LeafPositions {
  s.running ??= byLeaf(s, (i) => s.last[i] === RUNNING);
  return s.running;
}

/**
 * The positions `i` of the seller's columns for which `keep(i)`, grouped by leaf (two passes: count per
 * leaf, then place), each leaf's in the seller's order.
 */
function byLeaf(s: SellerSpans, keep: (i: number) => boolean): LeafPositions {
  const count = new Map<number, number>();
  let n = 0;
  for (let i = 0; i < s.n; i++)
    if (keep(i)) {
      count.set(s.leaf[i], (count.get(s.leaf[i]) ?? 0) + 1);
      n++;
    }
  const at = new Map<number, [number, number]>();
  let start = 0;
  for (const [leaf, k] of count) {
    at.set(leaf, [start, start]);
    start += k;
  }
  const pos = new Int32Array(n);
  for (let i = 0; i < s.n; i++)
    if (keep(i)) {
      const range = at.get(s.leaf[i]) as [number, number];
      pos[range[1]++] = i;
    }
  return { at, pos };
}

/** The seller's leaf groups (built once per copy). */
export function leafGroups(s: SellerSpans): LeafGroups {
  if (s.groups) return s.groups;
  const { at, pos } = byLeaf(s, () => true);
  const g: LeafGroups = {
    at,
    first: column(Uint16Array, s.n),
    last: column(Uint16Array, s.n),
    promo: column(Float64Array, s.n),
    cur: column(Uint8Array, s.n),
  };
  for (let k = 0; k < s.n; k++) {
    const i = pos[k];
    g.first[k] = s.first[i];
    g.last[k] = s.last[i];
    g.promo[k] = s.promo[i];
    g.cur[k] = s.cur[i];
  }
  s.groups = g;
  return g;
}

/**
 * A seller's promotions summed per (leaf, price type, currency, first day, last day): what the type
 * averages read of them (distribution.ts typeChart). A promotion's factor to the asked currency depends
 * only on its currency and first day, so a group's prices convert as one: Σ price × factor = factor ×
 * Σ price. Promotions start and end together in campaigns — on the large market's first 50 days ~9
 * promotions a group — so a window reads the groups instead of every promotion. Per group: how many
 * promotions, and the sum and count of their normal prices, promotion prices and discounts (each over
 * the promotions that have one; the discount as distribution.ts computes it, in cents).
 */
export interface DateGroups {
  n: number;
  leaf: Int32Array;
  type: Uint8Array;
  cur: Uint8Array;
  first: Uint16Array;
  last: Uint16Array;
  count: Int32Array;
  normalSum: Float64Array;
  normalN: Int32Array;
  promoSum: Float64Array;
  promoN: Int32Array;
  discSum: Float64Array;
  discN: Int32Array;
}

/** The seller's date groups (built once per copy, in the seller's order of first appearance). */
export function dateGroups(s: SellerSpans): DateGroups {
  if (s.dated) return s.dated;
  // per leaf, its groups by (type, currency, first, last) as one number (2 + 8 + 16 + 16 bits)
  const index = new Map<number, Map<number, number>>();
  const of = new Int32Array(s.n);
  let g = 0;
  for (let i = 0; i < s.n; i++) {
    let byKey = index.get(s.leaf[i]);
    if (!byKey) {
      byKey = new Map();
      index.set(s.leaf[i], byKey);
    }
    const key = ((s.type[i] * 256 + s.cur[i]) * 65_536 + s.first[i]) * 65_536 + s.last[i];
    let k = byKey.get(key);
    if (k === undefined) {
      k = g++;
      byKey.set(key, k);
    }
    of[i] = k;
  }
  const d: DateGroups = {
    n: g,
    leaf: column(Int32Array, g),
    type: column(Uint8Array, g),
    cur: column(Uint8Array, g),
    first: column(Uint16Array, g),
    last: column(Uint16Array, g),
    count: column(Int32Array, g),
    normalSum: column(Float64Array, g),
    normalN: column(Int32Array, g),
    promoSum: column(Float64Array, g),
    promoN: column(Int32Array, g),
    discSum: column(Float64Array, g),
    discN: column(Int32Array, g),
  };
  for (let i = 0; i < s.n; i++) {
    const k = of[i];
    if (d.count[k]++ === 0) {
      d.leaf[k] = s.leaf[i];
      d.type[k] = s.type[i];
      d.cur[k] = s.cur[i];
      d.first[k] = s.first[i];
      d.last[k] = s.last[i];
    }
    const normal = s.normal[i];
    const promo = s.promo[i];
    if (!Number.isNaN(normal)) {
      d.normalSum[k] += normal;
      d.normalN[k]++;
    }
    if (!Number.isNaN(promo)) {
      d.promoSum[k] += promo;
      d.promoN[k]++;
    }
    const disc = discountPercentOrNaN(Math.round(normal * 100), Math.round(promo * 100));
    if (!Number.isNaN(disc)) {
      d.discSum[k] += disc;
      d.discN[k]++;
    }
  }
  s.dated = d;
  return d;
}

interface Store {
  currencies: string[];
  /** by `zone|seller` (slotKey) */
  sellers: Map<string, VersionedSlot<SellerSpans>>;
}

const slotKey = (zone: string, sellerId: number) => `${zone}|${sellerId}`;

const storeOf = (pool: pg.Pool): Store =>
  readModelsOf(pool).state('promotion-spans', () => ({ currencies: [], sellers: new Map() }));

/** Currency codes by the index the copies store (only grows). */
export const currenciesOf = (pool: pg.Pool) => storeOf(pool).currencies;

const LAST_RUN_DAY = `
select (vigia_day(max(observed_at), $2::text) - date '1970-01-01') as day
  from ingest_runs where seller_id = $1 and status = 'succeeded'`;

/** The seller's promotions in zone $3 ($2 null), or those a run on day $2 or later may have changed. */
const SPANS = `
select product_id::float8 as product, coalesce(classification_id, 0) as leaf,
       first_day - date '1970-01-01' as first, coalesce(last_day - date '1970-01-01', ${RUNNING}) as last,
       vigia_promo_price(promo_price)::float8 as promo, currency, normal_price::float8 as normal, price_type
  from promo_spans
 where zone = $3 and seller_id = $1
   and ($2::int is null or last_day is null or last_day >= date '1970-01-01' + $2::int - 1
        or first_day >= date '1970-01-01' + $2::int)
 order by product_id, first_day, id`;

type SpanRecord = [number, number, number, number, number | null, string, number | null, string];

/** Versions of the sellers' promotions (change signal: `listings:products`; `0:0` never changed). */
export async function sellerVersions(
  db: pg.Pool | pg.PoolClient,
  sellers: number[],
): Promise<Map<number, { version: string; deleted: string }>> {
  const found = await selectSellerVersions(db, sellers);
  return new Map(
    sellers.map((id) => {
      const v = found.get(id);
      const deleted = String(v?.products ?? 0);
      return [id, { version: `${v?.listings ?? 0}:${deleted}`, deleted }];
    }),
  );
}

function empty(sellerId: number, zone: string, n: number): SellerSpans {
  return {
    sellerId,
    zone,
    version: '',
    deleted: '',
    lastRunDay: null,
    n,
    minFirst: RUNNING,
    product: column(Float64Array, n),
    leaf: column(Int32Array, n),
    first: column(Uint16Array, n),
    last: column(Uint16Array, n),
    promo: column(Float64Array, n),
    normal: column(Float64Array, n),
    type: column(Uint8Array, n),
    cur: column(Uint8Array, n),
  };
}

/** Reads the seller's promotions in `zone`, whole or (`prev`) only those changed since `prev` was read. */
async function load(pool: pg.Pool, store: Store, sellerId: number, zone: string, prev: SellerSpans | null) {
  const client = await pool.connect();
  let records: SpanRecord[];
  let version: { version: string; deleted: string };
  let lastRunDay: number | null;
  let since: number | null = null;
  try {
    // one snapshot: the version, the run day and the promotions agree
    await client.query('begin isolation level repeatable read read only');
    version = (await sellerVersions(client, [sellerId])).get(sellerId) ?? { version: '0:0', deleted: '0' };
    const run = await client.query<{ day: number | null }>(LAST_RUN_DAY, [sellerId, zone]);
    lastRunDay = run.rows[0]?.day ?? null;
    if (prev && prev.deleted === version.deleted && prev.lastRunDay !== null) since = prev.lastRunDay;
    const res = await client.query<SpanRecord>({
      text: SPANS,
      values: [sellerId, since, zone],
      rowMode: 'array',
    });
    records = res.rows;
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  const curIndex = (c: string) => {
    let i = store.currencies.indexOf(c);
    if (i < 0) {
      if (store.currencies.length >= 255) throw new Error('demasiadas divisas en las promociones');
      i = store.currencies.push(c) - 1;
    }
    return i;
  };
  const typeIndex = (t: string) => {
    const i = (PRICE_TYPES as readonly string[]).indexOf(t);
    if (i < 0) throw new Error(`tipo de precio desconocido en promo_spans: ${t}`);
    return i;
  };
  // kept rows of the previous copy: those no run since it could have changed
  const keep: number[] = [];
  if (prev && since !== null)
    for (let i = 0; i < prev.n; i++)
      if (prev.last[i] !== RUNNING && prev.last[i] < since - 1 && prev.first[i] < since) keep.push(i);
  const out = empty(sellerId, zone, keep.length + records.length);
  out.version = version.version;
  out.deleted = version.deleted;
  out.lastRunDay = lastRunDay;
  // merge both (each sorted by product, first day) into product order
  const p = prev as SellerSpans;
  let a = 0;
  let b = 0;
  const takePrev = () => {
    if (a >= keep.length) return false;
    if (b >= records.length) return true;
    const pp = p.product[keep[a]];
    const rp = records[b][0];
    return pp < rp || (pp === rp && p.first[keep[a]] <= records[b][2]);
  };
  for (let k = 0; k < out.n; k++) {
    if (takePrev()) {
      const i = keep[a++];
      out.product[k] = p.product[i];
      out.leaf[k] = p.leaf[i];
      out.first[k] = p.first[i];
      out.last[k] = p.last[i];
      out.promo[k] = p.promo[i];
      out.normal[k] = p.normal[i];
      out.type[k] = p.type[i];
      out.cur[k] = p.cur[i];
    } else {
      const r = records[b++];
      if (!(r[2] >= 0 && r[2] < RUNNING && r[3] >= 0 && r[3] <= RUNNING))
        throw new Error(`promo_spans: días fuera del rango de la copia (${r[2]}, ${r[3]})`);
      out.product[k] = r[0];
      out.leaf[k] = r[1];
      out.first[k] = r[2];
      out.last[k] = r[3];
      out.promo[k] = r[4] === null ? Number.NaN : r[4];
      out.cur[k] = curIndex(r[5]);
      out.normal[k] = r[6] === null ? Number.NaN : r[6];
      out.type[k] = typeIndex(r[7]);
    }
    if (out.first[k] < out.minFirst) out.minFirst = out.first[k];
  }
  return out;
}

/**
 * The copies of the sellers' promotions in `zone` (a zone of rollup_zones: ingest zones.ts dayZone) at
 * their current versions (read or refreshed as needed; a load in progress is shared by concurrent
 * requests).
 */
export async function sellerSpans(pool: pg.Pool, sellers: number[], zone: string): Promise<SellerSpans[]> {
  const store = storeOf(pool);
  const versions = await sellerVersions(pool, sellers);
  return Promise.all(
    sellers.map(async (id) => {
      const want = versions.get(id)?.version ?? '0:0';
      let slot = store.sellers.get(slotKey(zone, id));
      if (!slot) {
        slot = emptySlot();
        store.sellers.set(slotKey(zone, id), slot);
      }
      return freshValue(
        slot,
        (m) => atLeast(m.version, want),
        (previous) => load(pool, store, id, zone, previous),
      );
    }),
  );
}

/** Whether version `have` (`seq:deleted`) is `want` or newer (both counters only grow). */
function atLeast(have: string, want: string): boolean {
  const [hs, hd] = have.split(':').map(Number);
  const [ws, wd] = want.split(':').map(Number);
  return hs >= ws && hd >= wd;
}

/**
 * The promotions copies in the read-model holder: every seller's in the deployment's zone is read after
 * start-up (not under the tests: they read them on first use; another zone's on its first question),
 * and a held copy is brought to its seller's new version when the change signal names a change of its
 * listings or products.
 */
export function promotionsReadModels(pool: pg.Pool): void {
  const holder = readModelsOf(pool);
  holder.warmUp('promotion-spans', async () => {
    const { rows } = await pool.query<{ id: number }>('select id from sellers order by id');
    for (const r of rows) {
      await holder.pause(); // the requests first (platform/read-model.ts)
      await sellerSpans(pool, [r.id], DEFAULT_TIMEZONE);
    }
  });
  holder.subscribe('promotion-spans', async (changes) => {
    const byZone = new Map<string, number[]>();
    for (const key of storeOf(pool).sellers.keys()) {
      const at = key.lastIndexOf('|');
      const zone = key.slice(0, at);
      const id = Number(key.slice(at + 1));
      if (changes !== 'all' && !touches(changes, ['listings', 'products'], new Set([id]))) continue;
      byZone.set(zone, [...(byZone.get(zone) ?? []), id]);
    }
    for (const [zone, ids] of byZone) await sellerSpans(pool, ids, zone);
  });
}
