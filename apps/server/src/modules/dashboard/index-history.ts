import { addDays, DASHBOARD_DEFAULT_PERIOD_DAYS, daysInclusive } from '@vigia/domain';
import type pg from 'pg';
import { allowLongStatements, withTransaction } from '../../db/database.js';
import { loadFx, today } from '../../market/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { dayZone } from '../ingest/index.js';
import { addGroupIndex, dailyClp, WARM_DAYS } from './days.js';
import { readSavedHistory, readSavedRecent, saveHistory, saveRecent } from './history-snapshot.js';
import { type IndexDays, mergeDays, type TheirDays } from './merge-days.js';
import { selectIndexHistory } from './queries.js';
import {
  makeSelectionSums,
  SELECTION_MAX_SELLERS,
  type SelectionSums,
  selectionBytes,
  selectionDays,
} from './selection-sums.js';

// The price index and deviation of closed days for ANY competitor selection (issue 30 part 2;
// docs/metrics.md "Dashboard"). They cannot be summed per seller (each match group's lowest competitor
// depends on which competitors are chosen), so each API process holds, per pivot, the price history of
// every confirmed-matched listing of the pivot's match groups over the warm window (the closed days the
// presets and their previous periods cover) in typed arrays, loaded once a day; a selection's index per
// day is then one pass over the groups in memory — the same fold days.ts `computeDays` does over the
// rows of selectIndexIntervals, which a new selection had to read from price_intervals (2–5 s on the
// medium market). Closed days never change (ingestion refuses older observations); the groups are those
// of the load (the stored per-scope figures of the older path keep those of their computation). The days
// are those of a market zone (the organisation's once its roll-up rows are ready, ingest zones.ts
// dayZone): one history per (pivot, zone), its intervals cut at that zone's day ends. The first process to
// load a window saves the history in the database (history-snapshot.ts, migration 511); a process that
// starts later that day, or a second API process, reads it instead of the intervals.

export interface IndexHistory {
  pivot: number;
  /** the zone of the days */
  zone: string;
  /** the window: closed days held, first and last (the day before the load's today) */
  from: string;
  to: string;
  /** listings of group g: groupStart[g] .. groupStart[g + 1] − 1 (groups in match-group order) */
  groupStart: Int32Array;
  /** per listing: seller, classification (−1: none), its intervals start[k] .. start[k + 1] − 1 */
  seller: Int32Array;
  cls: Int32Array;
  start: Int32Array;
  /** per interval: currency (index into `currencies`), effective price, covered days a..b (window offsets) */
  cur: Uint8Array;
  price: Float64Array;
  a: Int16Array;
  b: Int16Array;
  currencies: string[];
  /** bytes of the typed arrays */
  bytes: number;
}

/** Builds the typed arrays from selectIndexHistory's rows (ordered by match group). */
export function buildIndexHistory(
  pivot: number,
  zone: string,
  from: string,
  to: string,
  rows: {
    group_id: string;
    seller_id: number;
    classification_id: number | null;
    currencies: string[];
    prices: number[];
    a: number[];
    b: number[];
  }[],
): IndexHistory {
  let intervals = 0;
  let groups = 0;
  for (let i = 0; i < rows.length; i++) {
    intervals += rows[i].prices.length;
    if (i === 0 || rows[i].group_id !== rows[i - 1].group_id) groups++;
  }
  const groupStart = new Int32Array(groups + 1);
  const seller = new Int32Array(rows.length);
  const cls = new Int32Array(rows.length);
  const start = new Int32Array(rows.length + 1);
  const cur = new Uint8Array(intervals);
  const price = new Float64Array(intervals);
  const a = new Int16Array(intervals);
  const b = new Int16Array(intervals);
  const currencies: string[] = [];
  let g = -1;
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (i === 0 || r.group_id !== rows[i - 1].group_id) groupStart[++g] = i;
    seller[i] = r.seller_id;
    cls[i] = r.classification_id ?? -1;
    start[i] = k;
    for (let j = 0; j < r.prices.length; j++, k++) {
      let c = currencies.indexOf(r.currencies[j]);
      if (c < 0) c = currencies.push(r.currencies[j]) - 1;
      cur[k] = c;
      price[k] = r.prices[j];
      a[k] = r.a[j];
      b[k] = r.b[j];
    }
  }
  groupStart[groups] = rows.length;
  start[rows.length] = k;
  const bytes = [groupStart, seller, cls, start, cur, price, a, b].reduce((s, x) => s + x.byteLength, 0);
  return { pivot, zone, from, to, groupStart, seller, cls, start, cur, price, a, b, currencies, bytes };
}

/**
 * Days at the end of the window saved apart (history-snapshot.ts `recent`): the landing period's closed days
 * with those of the period before it (the default 7 days: 6 closed + 7), what a starting process's first
 * dashboard answer reads.
 */
export const RECENT_DAYS = 2 * DASHBOARD_DEFAULT_PERIOD_DAYS - 1;

/** The first day of the recent part of a window ending `to`. */
const recentStart = (to: string) => addDays(to, -(RECENT_DAYS - 1));

/**
 * The last `days` days of `h`'s window as a history of its own: the same groups and listings, only the
 * intervals that cover one of those days, their days counted from the new first day (an interval begun
 * before it starts on it). Its answers over those days are `h`'s (history-snapshot.test.ts). Null when the
 * window is not longer than `days`.
 */
export function recentOf(h: IndexHistory, days = RECENT_DAYS): IndexHistory | null {
  const D = daysInclusive(h.from, h.to);
  if (days < 1 || days >= D) return null;
  const shift = D - days;
  let m = 0;
  for (let k = 0; k < h.b.length; k++) if (h.b[k] >= shift) m++;
  const n = h.seller.length;
  const start = new Int32Array(n + 1);
  const cur = new Uint8Array(m);
  const price = new Float64Array(m);
  const a = new Int16Array(m);
  const b = new Int16Array(m);
  let j = 0;
  for (let i = 0; i < n; i++) {
    start[i] = j;
    for (let k = h.start[i]; k < h.start[i + 1]; k++) {
      if (h.b[k] < shift) continue;
      cur[j] = h.cur[k];
      price[j] = h.price[k];
      a[j] = Math.max(h.a[k] - shift, 0);
      b[j] = h.b[k] - shift;
      j++;
    }
  }
  start[n] = j;
  const { groupStart, seller, cls } = h;
  const arrays = { groupStart, seller, cls, start, cur, price, a, b };
  return {
    ...arrays,
    pivot: h.pivot,
    zone: h.zone,
    from: addDays(h.from, shift),
    to: h.to,
    currencies: h.currencies,
    bytes: Object.values(arrays).reduce((s, x) => s + x.byteLength, 0),
  };
}

/**
 * Listing `i`'s lowest positive price per asked day, in CLP (`rates` per currency and day), kept in
 * `out[base + d]` where lower than what is there (NaN: nothing yet); `bounds` [lowest, highest] day written
 * widened. A listing's intervals ascend (a and b both): read from its last one back, past those that begin
 * after the asked days, up to the first that ends before them.
 */
function lowestByDay(
  h: IndexHistory,
  i: number,
  off: number,
  D: number,
  rates: Float64Array[],
  out: Float64Array,
  base: number,
  bounds: Int32Array,
): void {
  for (let k = h.start[i + 1] - 1; k >= h.start[i]; k--) {
    const last = Math.min(h.b[k] - off, D - 1);
    if (last < 0) break;
    const first = Math.max(h.a[k] - off, 0);
    if (first > last) continue;
    const rate = rates[h.cur[k]];
    for (let d = first; d <= last; d++) {
      const p = h.price[k] * rate[d];
      if (!(p > 0)) continue;
      if (!(p >= out[base + d])) out[base + d] = p;
      if (d < bounds[0]) bounds[0] = d;
      if (d > bounds[1]) bounds[1] = d;
    }
  }
}

/**
 * The pivot's side of indexDays over [from, to]: per match group g and day d, my lowest price in CLP
 * (`mine[g × D + d]`, NaN: none) and whether the group has any (`any[g]`). It does not depend on the
 * competitors: kept on the history for a few (roots, days, rates) at once, so that a new competitor
 * selection (the dashboard's first answer, issue 30) reads only its competitors' listings.
 */
interface MineDays {
  key: string;
  /** 4-byte floats when every price is one exactly (narrowed): half the bytes kept and merged */
  mine: Float64Array | Float32Array;
  any: Uint8Array;
}
const MINE_KEPT = 4;
/**
 * …and at most this many bytes of them per history (issue 30, memory: on the large market one entry of
 * the 7-day preset with its previous period is 104,592 groups × 13 days × 4 bytes, 5.4 MB — 8 bytes a
 * price when one is not a 4-byte float; a 90-day one with its previous 75–150 MB, not kept — a new
 * selection then computes the pivot's side again).
 */
const MINE_KEPT_BYTES = 24 * 1024 * 1024;
const mineKept = new WeakMap<IndexHistory, MineDays[]>();

/**
 * Puts `made` first in `kept` (a history's list of kept values, most recent first) and keeps the most
 * recent ones whose bytes together fit in `maxBytes`, `maxCount` at most.
 */
function keepRecent<T>(
  kept: T[],
  made: T,
  bytesOf: (t: T) => number,
  maxBytes: number,
  maxCount = Number.POSITIVE_INFINITY,
): void {
  kept.unshift(made);
  let bytes = 0;
  let i = 0;
  for (; i < kept.length && i < maxCount; i++) {
    bytes += bytesOf(kept[i]);
    if (bytes > maxBytes) break;
  }
  kept.length = i;
}

function mineDays(
  h: IndexHistory,
  rootClasses: Set<number> | null,
  off: number,
  D: number,
  rates: Float64Array[],
  key: string | undefined,
  ratesKey: string,
): MineDays {
  const kept = mineKept.get(h) ?? [];
  const full = key === undefined ? undefined : `${key}|${ratesKey}`;
  const hit = full === undefined ? undefined : kept.find((m) => m.key === full);
  if (hit) return hit;
  const groups = h.groupStart.length - 1;
  const mine = new Float64Array(groups * D).fill(Number.NaN);
  const any = new Uint8Array(groups);
  const bounds = new Int32Array(2);
  // the pivot's own listings only (bySellerOf), not every listing of every group: on the large market a
  // start's first dashboard answer spent ~180 ms here testing each competitor listing's seller
  const { listings, groupOf } = bySellerOf(h);
  const own = listings.get(h.pivot) ?? new Int32Array(0);
  for (let j = 0; j < own.length; j++) {
    const i = own[j];
    if (rootClasses && !rootClasses.has(h.cls[i])) continue;
    const g = groupOf[i];
    bounds[0] = D;
    bounds[1] = -1;
    lowestByDay(h, i, off, D, rates, mine, g * D, bounds);
    if (bounds[1] >= 0) any[g] = 1;
  }
  // narrowed only when it may be kept: a side too large to keep (a 90-day period's) is used once as it is
  const fits = full !== undefined && mine.byteLength / 2 + any.byteLength <= MINE_KEPT_BYTES;
  const made = { key: full ?? '', mine: fits ? narrowed(mine) : mine, any };
  if (fits && made.mine.byteLength + any.byteLength <= MINE_KEPT_BYTES) {
    keepRecent(kept, made, (m) => m.mine.byteLength + m.any.byteLength, MINE_KEPT_BYTES, MINE_KEPT);
    mineKept.set(h, kept);
  }
  return made;
}

/*
 * A competitor's side of indexDays over [from, to] (TheirDays, merge-days.ts) depends neither on the
 * pivot's roots nor on the other competitors: kept on the history for the sellers recently asked (issue
 * 30: the dashboard with a new competitor selection read every chosen seller's intervals again; a
 * selection is a few of a dozen sellers, so its sellers' sides are mostly known and the selection costs a
 * merge, merge-days.ts).
 */
/** …at most this many bytes of them per history (one seller's 7-day preset with its previous period on
 * the large market: ~50,000 groups × 13 days × 4 bytes, ~2.6 MB — 8 bytes a price when one is not a
 * 4-byte float: the three sellers in PEN and MXN; the eleven competitors of pivot 116 hold ~34 MB, and
 * with 32 MiB random selections evicted and made sides again: c16 p95 689–1,049 ms), and a side is made
 * this way only when it would fit in a quarter of that at 8 bytes (a 90-day period reads the intervals
 * directly, as before). */
const THEIRS_KEPT_BYTES = 48 * 1024 * 1024;
const theirsKept = new WeakMap<IndexHistory, TheirDays[]>();

/** Per seller, its listings of the history (ascending: their groups ascend), and each listing's group. */
interface BySeller {
  listings: Map<number, Int32Array>;
  groupOf: Int32Array;
}
const bySellerKept = new WeakMap<IndexHistory, BySeller>();

function bySellerOf(h: IndexHistory): BySeller {
  const kept = bySellerKept.get(h);
  if (kept) return kept;
  const n = h.seller.length;
  const groupOf = new Int32Array(n);
  for (let g = 0; g < h.groupStart.length - 1; g++)
    for (let i = h.groupStart[g]; i < h.groupStart[g + 1]; i++) groupOf[i] = g;
  // counted and placed by seller id in typed arrays (ids are a table's serial: small): with Maps read and
  // written per listing this took ~175 ms of a start's first dashboard answer on the large market
  let top = 0;
  for (let i = 0; i < n; i++) if (h.seller[i] > top) top = h.seller[i];
  const counts = new Int32Array(top + 1);
  for (let i = 0; i < n; i++) counts[h.seller[i]]++;
  const listings = new Map<number, Int32Array>();
  const lists: Int32Array[] = [];
  for (let s = 0; s <= top; s++)
    if (counts[s] > 0) {
      lists[s] = new Int32Array(counts[s]);
      listings.set(s, lists[s]);
    }
  const filled = new Int32Array(top + 1);
  for (let i = 0; i < n; i++) {
    const s = h.seller[i];
    lists[s][filled[s]++] = i;
  }
  const made = { listings, groupOf };
  bySellerKept.set(h, made);
  return made;
}

/**
 * `low` in 4-byte floats when every price in it is one exactly (a market's own currency: whole pesos up
 * to 16,777,216), else itself: half the memory a side keeps and the merge reads, the same values.
 */
function narrowed(low: Float64Array): Float64Array | Float32Array {
  for (let k = 0; k < low.length; k++) {
    const p = low[k];
    if (!Number.isNaN(p) && Math.fround(p) !== p) return low; // (NaN: no price, kept as NaN)
  }
  return new Float32Array(low);
}

/** Whether a seller's side of D days is made and kept (theirDays) rather than its intervals read. */
const sideFits = (listings: Int32Array, D: number) => listings.length * D * 8 <= THEIRS_KEPT_BYTES / 4;

/** `seller`'s side over the asked days (daysOf), kept or made; every caller checked sideFits. */
function theirDays(h: IndexHistory, seller: number, days: Days): TheirDays {
  const { off, D, rates, ratesKey } = days;
  const key = `${seller}|${ratesKey}`;
  const { listings: bySeller, groupOf } = bySellerOf(h);
  const listings = bySeller.get(seller) ?? new Int32Array(0);
  const kept = theirsKept.get(h) ?? [];
  const at = kept.findIndex((t) => t.key === key);
  if (at >= 0) {
    const [hit] = kept.splice(at, 1);
    kept.unshift(hit);
    return hit;
  }
  let E = 0;
  for (let j = 0; j < listings.length; j++)
    if (j === 0 || groupOf[listings[j]] !== groupOf[listings[j - 1]]) E++;
  const groups = new Int32Array(E);
  const lo = new Int16Array(E);
  const hi = new Int16Array(E);
  const low = new Float64Array(E * D).fill(Number.NaN);
  const bounds = new Int32Array(2);
  let e = -1;
  for (let j = 0; j < listings.length; j++) {
    const i = listings[j];
    if (e < 0 || groups[e] !== groupOf[i]) {
      e++;
      groups[e] = groupOf[i];
      bounds[0] = D;
      bounds[1] = -1;
    }
    lowestByDay(h, i, off, D, rates, low, e * D, bounds);
    lo[e] = bounds[0];
    hi[e] = bounds[1];
  }
  const made = { key, groups, lo, hi, low: narrowed(low) };
  keepRecent(kept, made, (t) => t.low.byteLength + t.groups.byteLength * 2, THEIRS_KEPT_BYTES);
  theirsKept.set(h, kept);
  return made;
}

/*
 * The selection tables (selection-sums.ts) of a history: for the asked days, the index of every selection
 * of its competitors whose sides are made (sideFits) in |S| × D reads. Made behind the first selection of
 * those days and roots (that one, and those that come while it is made, merge their sides) when the table
 * would hold at most SUMS_BYTES: 11 competitors over the 7-day preset with its previous period (13 days)
 * 7 MB; a 30-day one's 32 MB is not made (a selection then merges, as before).
 */
const SUMS_BYTES = 16 * 1024 * 1024;
const SUMS_KEPT = 2;
const sumsKept = new WeakMap<IndexHistory, SelectionSums[]>();
const sumsMaking = new WeakMap<IndexHistory, Set<string>>();

function makeSumsBehind(
  h: IndexHistory,
  rootClasses: Set<number> | null,
  days: Days,
  mineKey: string,
  full: string,
): void {
  const making = sumsMaking.get(h) ?? new Set<string>();
  if (making.has(full)) return;
  const { listings } = bySellerOf(h);
  const sellers = [...listings.keys()]
    .filter((s) => s !== h.pivot && sideFits(listings.get(s) as Int32Array, days.D))
    .sort((x, y) => x - y);
  if (sellers.length < 2 || sellers.length > SELECTION_MAX_SELLERS) return;
  if (selectionBytes(sellers.length, days.D) > SUMS_BYTES) return;
  making.add(full);
  sumsMaking.set(h, making);
  const pause = () => new Promise<void>((r) => setImmediate(r));
  void (async () => {
    const sides: TheirDays[] = [];
    for (const s of sellers) {
      await pause();
      sides.push(theirDays(h, s, days));
    }
    await pause();
    const { mine, any } = mineDays(h, rootClasses, days.off, days.D, days.rates, mineKey, days.ratesKey);
    const made = await makeSelectionSums(full, sellers, mine, any, days.D, sides, pause);
    const kept = sumsKept.get(h) ?? [];
    keepRecent(kept, made, (t) => t.cells.byteLength, Number.POSITIVE_INFINITY, SUMS_KEPT);
    sumsKept.set(h, kept);
  })()
    // the table only saves time: a failure keeps none, selections go on merging their sides, and the next
    // one of these days tries again (the key leaves `making`)
    .catch(() => {})
    .finally(() => making.delete(full));
}

/** The keys of the selection tables kept on a history, and whether any is being made (tests). */
export const selectionTablesOf = (h: IndexHistory) => ({
  kept: (sumsKept.get(h) ?? []).map((t) => t.key),
  making: (sumsMaking.get(h)?.size ?? 0) > 0,
});

interface IndexQuery {
  competitors: number[];
  /** classification ids under the license roots; null: the whole tree */
  rootClasses: Set<number> | null;
  from: string;
  to: string;
  clp: (currency: string) => Float64Array;
  mineKey?: string;
}

/** The asked days in the history's window (`off`: the first one's offset), their rates and what keys both. */
type Days = ReturnType<typeof daysOf>;
function daysOf(h: IndexHistory, q: Pick<IndexQuery, 'from' | 'to' | 'clp'>) {
  const D = daysInclusive(q.from, q.to);
  const off = daysInclusive(h.from, q.from) - 1;
  if (off < 0 || q.to > h.to) throw new Error(`indexDays: ${q.from}..${q.to} outside ${h.from}..${h.to}`);
  const rates = h.currencies.map((c) => q.clp(c));
  return { D, off, rates, ratesKey: `${off}|${D}|${rates.map((r) => r.join(',')).join(';')}` };
}

/**
 * Every competitor's side (theirDays) of the dashboard's default period — its closed days and those of
 * the period before it, the 2 × 7 − 1 days before the history's next day — made behind the history's
 * load, seller by seller after the requests waiting, so that the first new selections of the landing
 * screen merge instead of reading intervals (issue 30: c1 p95 125 ms on large when they did).
 */
export async function warmSides(pool: pg.Pool, h: IndexHistory): Promise<number> {
  const to = h.to;
  const from = addDays(to, -(2 * DASHBOARD_DEFAULT_PERIOD_DAYS - 2));
  if (from < h.from) return 0;
  const clp = dailyClp(await loadFx(pool, h.currencies, from, to), from, daysInclusive(from, to));
  const days = daysOf(h, { from, to, clp });
  let made = 0;
  for (const [seller, l] of bySellerOf(h).listings) {
    if (seller === h.pivot || !sideFits(l, days.D)) continue;
    await readModelsOf(pool).pause();
    theirDays(h, seller, days);
    made++;
  }
  return made;
}

/** The keys of the competitors' sides kept on a history (tests). */
export const sidesKept = (h: IndexHistory): string[] => (theirsKept.get(h) ?? []).map((t) => t.key);

/**
 * Per day of [from, to] (inside the window): the sum of the groups' indexes, of |index − 100| and their
 * number — per match group my lowest price (pivot listings under the roots) against the lowest in-stock
 * competitor price among `competitors`, both in CLP at the day's rates (`clp(currency)[d]`, d from `from`).
 * `mineKey` names the roots (rootClasses) for keeping the pivot's side (mineDays) and the competitors'
 * (theirDays, when small enough); without it, nothing is kept and the competitors' intervals are read.
 */
export function indexDays(h: IndexHistory, q: IndexQuery): IndexDays {
  const days = daysOf(h, q);
  const { D, off, rates } = days;
  const { mine, any } = mineDays(h, q.rootClasses, off, D, rates, q.mineKey, days.ratesKey);
  const { listings } = bySellerOf(h);
  // (a seller with no listing of the history has no side and no price)
  const competitors = [...new Set(q.competitors)].filter((s) => s !== h.pivot && listings.has(s));
  if (q.mineKey !== undefined && competitors.every((s) => sideFits(listings.get(s) as Int32Array, D))) {
    const full = `${q.mineKey}|${days.ratesKey}`;
    const table = (sumsKept.get(h) ?? []).find((t) => t.key === full);
    const fromTable = table ? selectionDays(table, competitors) : null;
    if (fromTable) return fromTable;
    if (!table) makeSumsBehind(h, q.rootClasses, days, q.mineKey, full);
    return mergeDays(
      mine,
      any,
      D,
      competitors.map((s) => theirDays(h, s, days)),
    );
  }
  // competitors by seller id (a mask: one read per listing instead of a Set lookup)
  const chosen = new Uint8Array(Math.max(0, ...competitors) + 1);
  for (const c of competitors) chosen[c] = 1;
  const sum = new Float64Array(D);
  const dev = new Float64Array(D);
  const n = new Int32Array(D);
  const best = new Float64Array(D);
  const bounds = new Int32Array(2);
  const groups = h.groupStart.length - 1;
  for (let g = 0; g < groups; g++) {
    if (any[g] !== 1) continue; // no price of mine on any day: no index
    bounds[0] = D;
    bounds[1] = -1;
    for (let i = h.groupStart[g]; i < h.groupStart[g + 1]; i++) {
      const s = h.seller[i];
      if (!(s < chosen.length && chosen[s] === 1)) continue;
      if (bounds[1] < 0) best.fill(Number.NaN);
      lowestByDay(h, i, off, D, rates, best, 0, bounds);
    }
    if (bounds[1] >= 0) addGroupIndex(mine, best, bounds[0], bounds[1], sum, dev, n, g * D);
  }
  return { sum, dev, n };
}

interface Slot {
  /** the window's last day the held history (or the one loading) ends on */
  to: string;
  history: IndexHistory | null;
  loading: Promise<IndexHistory> | null;
  /** the read of the window's saved history (null: none saved, or unreadable); set when the load begins */
  saved: Promise<IndexHistory | null> | null;
  /**
   * the read of its last days saved apart (recentOf; null: none saved, or unreadable), begun with the
   * slot: the whole value is read after it, when the load begins
   */
  recent: Promise<IndexHistory | null>;
}

/** Held histories by `${pivot} ${zone}`. */
const slotsOf = (pool: pg.Pool) =>
  readModelsOf(pool).state('dashboard-index-history', () => new Map<string, Slot>());

function logLoad(pool: pg.Pool, h: IndexHistory, from: 'saved' | 'tables', t0: number): void {
  readModelsOf(pool).debug(
    { pivot: h.pivot, zone: h.zone, from, ms: Math.round(performance.now() - t0), bytes: h.bytes },
    'dashboard: index history loaded',
  );
}

/**
 * The slot of the pivot's history over [from, to] (days of `zone`); made — replacing an older window's,
 * and the read of the window's last days saved apart begun — when there is none of that window.
 */
function slotOf(pool: pg.Pool, pivot: number, zone: string, from: string, to: string): Slot {
  const slots = slotsOf(pool);
  const key = `${pivot} ${zone}`;
  const held = slots.get(key);
  if (held?.to === to) return held;
  const recentFrom = recentStart(to);
  const recent =
    recentFrom > from ? readSavedRecent(pool, { pivot, zone, from, to }, recentFrom) : Promise.resolve(null);
  const slot: Slot = { to, history: null, loading: null, saved: null, recent: recent.catch(() => null) };
  slots.set(key, slot);
  return slot;
}

/**
 * Loads the pivot's history over [from, to] (days of `zone`) and holds it (replacing an older window's):
 * the one saved in the database for that window when there is one, else from the tables, then saved.
 */
export function loadIndexHistory(
  pool: pg.Pool,
  pivot: number,
  zone: string,
  from: string,
  to: string,
): Promise<IndexHistory> {
  const slots = slotsOf(pool);
  const key = `${pivot} ${zone}`;
  const slot = slotOf(pool, pivot, zone, from, to);
  if (slot.history) return Promise.resolve(slot.history);
  if (slot.loading) return slot.loading;
  const t0 = performance.now();
  // saved by the first process that loaded this window (history-snapshot.ts): ~0.x s instead of the
  // statement below; a value of another window, or unreadable, is passed over. After the read of its last
  // days (slotOf): on a start, both read at once slowed the first dashboard answer that needs only those
  const q = { pivot, zone, from, to };
  const savedRead = slot.recent.then(() => readSavedHistory(pool, q));
  slot.saved = savedRead.catch(() => null);
  slot.loading = (async () => {
    const saved = await savedRead;
    if (saved) {
      logLoad(pool, saved, 'saved', t0);
      // saved before its last days were (migration 541): saved now, behind
      if (!(await slot.recent))
        setImmediate(() => {
          const recent = recentOf(saved);
          if (recent) void saveRecent(pool, saved, recent);
        });
      return saved;
    }
    // long work on a large market (every matched listing's intervals over the window: more than the
    // requests' 30 s under load, issue 30): its own transaction with a longer statement timeout
    const rows = await withTransaction(pool, async (client) => {
      await allowLongStatements(client);
      return selectIndexHistory(client, { from, to, pivot, zone });
    });
    const h = buildIndexHistory(pivot, zone, from, to, rows);
    logLoad(pool, h, 'tables', t0);
    // saved behind the answer (a failure is logged, the history held all the same)
    setImmediate(() => void saveHistory(pool, h, recentOf(h)));
    return h;
  })()
    .then((h) => {
      if (slots.get(key) === slot) {
        slot.history = h;
        slot.loading = null;
        // its last days apart are not needed any more (not kept: ~16 MB a pivot on the large market)
        slot.recent = Promise.resolve(null);
        // behind the answer; a failure costs only the first selections' speed
        warmSides(pool, h).catch((err) => readModelsOf(pool).debug({ err: String(err) }, 'dashboard: sides'));
      }
      return h;
    })
    .catch((err) => {
      if (slots.get(key) === slot) slot.loading = null;
      throw err;
    });
  return slot.loading;
}

/**
 * The pivot's history over [from, to] if this process holds it; else null, its load started behind (or
 * left running) — the caller answers from the database meanwhile ("serve from what is loaded", issue 30:
 * on the large market the load takes tens of seconds after a start).
 */
export function heldIndexHistory(
  pool: pg.Pool,
  pivot: number,
  zone: string,
  from: string,
  to: string,
): IndexHistory | null {
  const held = slotsOf(pool).get(`${pivot} ${zone}`);
  if (held?.to === to && held.history) return held.history;
  // joins a load in flight (loadIndexHistory); a failed one is tried again by the next request
  loadIndexHistory(pool, pivot, zone, from, to).catch(() => {});
  return null;
}

/**
 * As heldIndexHistory, but a request that finds the window's saved history being read waits for that
 * read instead of answering from the database meanwhile: null only when no saved history is there (or
 * it is unreadable) and the history loads from the tables behind. On a starting API process of the
 * large market the read is one value (0.2–0.4 s on a quiet machine), the per-scope statement it would
 * otherwise stand in for reads every matched listing's intervals of the period — on a busy machine it
 * ran into the 30-s statement timeout and the first dashboard request failed after 41 s, while the saved
 * read was done 20 s in (issue 30, sixth session). With `needFrom` (the first day the caller needs): the
 * window's last days saved apart (recentOf) answer when they begin on or before it — the whole value is
 * then not read for this request (its load begins with the warm-ups, or with a request that needs it).
 */
export async function indexHistoryOrSaved(
  pool: pg.Pool,
  pivot: number,
  zone: string,
  from: string,
  to: string,
  needFrom?: string,
): Promise<IndexHistory | null> {
  const slot = slotOf(pool, pivot, zone, from, to);
  if (slot.history) return slot.history;
  // a request waits for it: the warm-ups (pricing models, comparator history, promotions copies) pause
  // at their next step until it is read — on a cold start of the large market they kept the event loop
  // busy and the read of ~75 MB took 20 s (issue 30, seventh session)
  const holder = readModelsOf(pool);
  if (needFrom !== undefined) {
    const recent = await holder.forRequest(() => slot.recent);
    if (slot.history) return slot.history;
    if (recent && needFrom >= recent.from) return recent;
  }
  loadIndexHistory(pool, pivot, zone, from, to).catch(() => {});
  const saved = slot.saved;
  if (!saved) return null;
  return holder.forRequest(() => saved);
}

/**
 * Starts reading the pivot's history of the warm window in the day zone of `marketZone` unless this
 * process holds it or is reading it: the dashboard's cards ask for it first, so that on a cold start the
 * read runs beside the pricing model's load instead of after it (issue 30: the saved history's read
 * began ~7 s after the request on the large market, once the model was loaded). Only the window's last
 * days saved apart when there are (the landing period's answer needs only them; the whole value is read
 * with the warm-ups or for a request that needs it), else the whole history.
 */
export async function startIndexHistory(pool: pg.Pool, pivot: number, marketZone: string): Promise<void> {
  const zone = await dayZone(pool, marketZone);
  const w = historyWindow(today(new Date(), zone), WARM_DAYS);
  const slot = slotOf(pool, pivot, zone, w.from, w.to);
  if (!(await slot.recent)) await loadIndexHistory(pool, pivot, zone, w.from, w.to);
}

/** The window of closed days held: the `days` days before today. */
export function historyWindow(todayDay: string, days: number): { from: string; to: string } {
  return { from: addDays(todayDay, -days), to: addDays(todayDay, -1) };
}

/**
 * Every licensed pivot's history, in the day zone of each organisation licensing it, loaded in the
 * background once the API is ready.
 */
export function dashboardReadModels(pool: pg.Pool): void {
  const holder = readModelsOf(pool);
  holder.warmUp('dashboard-index-history', async () => {
    const { rows } = await pool.query<{ pivot: number; zone: string }>(
      `select distinct lp.seller_id as pivot, o.market_zone as zone
         from license_pivots lp join licenses l on l.id = lp.license_id join organisations o on o.id = l.org_id
        order by 1, 2`,
    );
    const zones = new Map<string, string>();
    for (const r of rows) {
      await holder.pause(); // the requests first (platform/read-model.ts)
      const zone = zones.get(r.zone) ?? (await dayZone(pool, r.zone));
      zones.set(r.zone, zone);
      const w = historyWindow(today(new Date(), zone), WARM_DAYS);
      await loadIndexHistory(pool, r.pivot, zone, w.from, w.to);
    }
  });
}
