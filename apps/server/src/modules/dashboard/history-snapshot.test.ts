import { addDays, daysInclusive } from '@vigia/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Database } from '../../db/database.js';
import { today } from '../../market/index.js';
import { readModelsOf } from '../../platform/read-model.js';
import { createTestDatabase } from '../../test/context.js';
import { seedTestMarket, tDay } from '../../test/test-market.js';
import { dropRollupZone } from '../ingest/zones.js';
import { WARM_DAYS } from './days.js';
import {
  decodeHistory,
  encodeHistory,
  readSavedHistory,
  readSavedRecent,
  saveHistory,
} from './history-snapshot.js';
import {
  buildIndexHistory,
  heldIndexHistory,
  historyWindow,
  type IndexHistory,
  indexDays,
  indexHistoryOrSaved,
  loadIndexHistory,
  RECENT_DAYS,
  recentOf,
  selectionTablesOf,
} from './index-history.js';
import { selectIndexHistory } from './queries.js';

// The dashboard's index history saved whole (history-snapshot.ts, migration 511): what a starting process,
// or a second API process, reads instead of the price intervals — for exactly its window, and only when
// the saved bytes are whole. The market of ../../test/test-market.ts (pivot 10; group E1 has its P1
// against Rival A, Rival B in PEN and Rival C).

let db: Database;
const PIVOT = 10;
const ZONE = 'America/Santiago';
const w = historyWindow(today(new Date(), ZONE), WARM_DAYS);
const q = { pivot: PIVOT, zone: ZONE, ...w };
const recentFrom = addDays(w.to, -(RECENT_DAYS - 1));
const pools: pg.Pool[] = [];

/** A process of its own: a pool whose read-model holder holds no history yet. */
function process(): pg.Pool {
  const pool = createPool(db.url, 3);
  pools.push(pool);
  return pool;
}

/** The history of [from, to] built from the tables (the statement loadIndexHistory runs). */
async function fromTables(from: string, to: string): Promise<IndexHistory> {
  const rows = await selectIndexHistory(db.pool, { from, to, pivot: PIVOT, zone: ZONE });
  return buildIndexHistory(PIVOT, ZONE, from, to, rows);
}

const ARRAYS = ['groupStart', 'seller', 'cls', 'start', 'cur', 'price', 'a', 'b'] as const;

/** A history plainly: its window, currencies, size, and every array with its kind. */
function plain(h: IndexHistory | null) {
  if (!h) return null;
  return {
    pivot: h.pivot,
    zone: h.zone,
    from: h.from,
    to: h.to,
    currencies: h.currencies,
    bytes: h.bytes,
    arrays: ARRAYS.map((n) => [n, h[n].constructor.name, Array.from(h[n])]),
  };
}

/** The saved row of the pivot and zone (window and size), if any. */
async function savedRow(): Promise<{ from_day: string; to_day: string; bytes: number } | undefined> {
  const { rows } = await db.pool.query(
    `select from_day, to_day, length(data) as bytes from dashboard_index_history_snapshots
      where pivot_id = $1 and zone = $2`,
    [PIVOT, ZONE],
  );
  return rows[0];
}

/** Waits for the history saved behind a load (of the window starting `from`, at least `bytes` long). */
async function savedFor(from: string, bytes = 1) {
  for (let i = 0; i < 200; i++) {
    const s = await savedRow();
    if (s && s.from_day === from && s.bytes >= bytes) return s;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no history saved for ${from}`);
}

/**
 * indexDays over a few periods and competitor selections (CLP 1, USD 900, PEN 250 on every day); with
 * `mineKey`, the pivot's and competitors' sides kept on the history and reused.
 */
function answers(h: IndexHistory, mineKey?: string, pen = 250) {
  const out: unknown[] = [];
  for (const [from, to] of [
    [tDay(12), tDay(1)],
    [tDay(4), tDay(2)],
    [w.from, w.to],
  ])
    for (const competitors of [[20], [30], [50], [20, 30, 50], [50, 20, PIVOT, 20]]) {
      const D = daysInclusive(from, to);
      const clp = (c: string) => new Float64Array(D).fill(c === 'PEN' ? pen : c === 'USD' ? 900 : 1);
      const r = indexDays(h, { competitors, rootClasses: null, from, to, clp, mineKey });
      out.push([from, to, competitors, Array.from(r.sum), Array.from(r.dev), Array.from(r.n)]);
    }
  return out;
}

/** Runs `fn` while price_intervals cannot be read: the history then cannot come from the tables. */
async function withoutIntervals(fn: () => Promise<void>) {
  await db.pool.query('alter table price_intervals rename to price_intervals_hidden');
  try {
    await expect(fromTables(w.from, w.to)).rejects.toThrow(/price_intervals/);
    await fn();
  } finally {
    await db.pool.query('alter table price_intervals_hidden rename to price_intervals');
  }
}

let ref: IndexHistory;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedTestMarket(db);
  ref = await fromTables(w.from, w.to);
});

afterAll(async () => {
  for (const p of pools) await p.end();
  await db?.close();
});

describe('the saved index history', () => {
  it('encodes and decodes to the same arrays, and refuses bytes of another window or cut short', () => {
    // the fixture gives a history worth comparing: groups, listings of several sellers, PEN and CLP
    expect(ref.groupStart.length - 1).toBe(2); // E1 and P3 alone in its group
    expect(new Set(ref.seller)).toEqual(new Set([10, 20, 30, 40, 50]));
    expect([...ref.currencies].sort()).toEqual(['CLP', 'PEN']);
    expect(ref.price.length).toBeGreaterThan(ref.seller.length);
    const bytes = encodeHistory(ref);
    expect(bytes.length % 8).toBe(0);
    expect(plain(decodeHistory(bytes, q))).toEqual(plain(ref));
    expect(decodeHistory(bytes, { ...q, from: addDays(w.from, 1) })).toBeNull();
    expect(decodeHistory(bytes, { ...q, to: addDays(w.to, -1) })).toBeNull();
    expect(decodeHistory(bytes, { ...q, zone: 'Asia/Tokyo' })).toBeNull();
    expect(decodeHistory(bytes, { ...q, pivot: 20 })).toBeNull();
    expect(decodeHistory(bytes.subarray(0, bytes.length - 8), q)).toBeNull();
    expect(decodeHistory(Buffer.concat([Buffer.from('VPM1'), bytes.subarray(4)]), q)).toBeNull();
    expect(decodeHistory(Buffer.from('VIH1\x05\x00\x00\x00{"a":'), q)).toBeNull();
  });

  it('a load from the tables saves the history; read back (in slices or whole) it equals the built one', async () => {
    expect(await savedRow()).toBeUndefined();
    const h = await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
    expect(plain(h)).toEqual(plain(ref));
    const s = await savedFor(w.from);
    expect(s).toEqual({ from_day: w.from, to_day: w.to, bytes: encodeHistory(ref).length });
    // 64-byte slices (64 KiB in the product): the value comes back in many pieces
    expect(s.bytes / 64).toBeGreaterThan(5);
    expect(plain(await readSavedHistory(db.pool, q, 64))).toEqual(plain(ref));
    expect(plain(await readSavedHistory(db.pool, q, 1 << 30))).toEqual(plain(ref));
  });

  it('a new process reads the saved history, not the tables, and answers the same', async () => {
    await savedFor(w.from);
    const expected = answers(ref);
    // some day of some selection has an index (the comparison is not of empty answers)
    expect(expected.some((a) => (a as number[][])[5].some((n) => n > 0))).toBe(true);
    await withoutIntervals(async () => {
      const h = await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
      expect(plain(h)).toEqual(plain(ref));
      expect(answers(h)).toEqual(expected);
    });
  });

  it("a starting process's first request waits for the saved history being read, not the tables", async () => {
    await savedFor(w.from);
    await withoutIntervals(async () => {
      // nothing held yet: the first ask starts the read and gets its answer (the per-scope statement it
      // would otherwise stand in for reads price_intervals, hidden here)
      const p = process();
      const answer = indexHistoryOrSaved(p, PIVOT, ZONE, w.from, w.to);
      // the warm-ups give way while a request waits for the read (ReadModels.forRequest)
      expect(readModelsOf(p).yielding).toBe(true);
      expect(plain(await answer)).toEqual(plain(ref));
      expect(readModelsOf(p).yielding).toBe(false);
      expect(plain(heldIndexHistory(p, PIVOT, ZONE, w.from, w.to))).toEqual(plain(ref));
    });
    // no saved history of the window asked: null at once, the history loads from the tables behind
    const from = addDays(w.from, 1);
    const p = process();
    expect(await indexHistoryOrSaved(p, PIVOT, ZONE, from, w.to)).toBeNull();
    expect(plain(await loadIndexHistory(p, PIVOT, ZONE, from, w.to))).toEqual(
      plain(await fromTables(from, w.to)),
    );
    await savedFor(from);
    // the window the other tests read saved again
    await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
    await savedFor(w.from);
  });

  it("the competitors' sides kept per seller answer as the pass over their intervals, new and reused", () => {
    const direct = answers(ref);
    expect(direct.some((a) => (a as number[][])[5].some((n) => n > 0))).toBe(true);
    expect(answers(ref, 'all')).toEqual(direct); // computed
    expect(answers(ref, 'all')).toEqual(direct); // reused
    // PEN at 250.37: a side in pesos with cents, which 4-byte floats cannot hold (kept in 8 bytes)
    const cents = answers(ref, undefined, 250.37);
    expect(cents).not.toEqual(direct);
    expect(answers(ref, 'all', 250.37)).toEqual(cents);
    expect(answers(ref, 'all', 250.37)).toEqual(cents);
    // a selection naming the pivot and a seller twice counts as its other sellers once
    const D = daysInclusive(w.from, w.to);
    const clp = () => new Float64Array(D).fill(1);
    const of = (competitors: number[], mineKey?: string) => {
      const r = indexDays(ref, { competitors, rootClasses: null, from: w.from, to: w.to, clp, mineKey });
      return [Array.from(r.sum), Array.from(r.dev), Array.from(r.n)];
    };
    expect(of([50, 20, PIVOT, 20], 'all')).toEqual(of([20, 50]));
    expect(of([50, 20, PIVOT, 20])).toEqual(of([20, 50], 'all'));
  });

  it("the table of every selection, made behind the first ones, answers as the merge of the selection's sides", async () => {
    const h = await fromTables(w.from, w.to);
    const merged = answers(h, 'all'); // merged; the tables are made behind
    expect(selectionTablesOf(h).making).toBe(true);
    for (let i = 0; i < 1000 && selectionTablesOf(h).making; i++) await new Promise((r) => setTimeout(r, 10));
    // three periods, two tables kept (the last two made)
    expect(selectionTablesOf(h)).toEqual({
      kept: [expect.stringMatching(/^all\|/), expect.stringMatching(/^all\|/)],
      making: false,
    });
    // (the sums are added in another order: equal to a few places, not always bit for bit)
    const fromTables2 = answers(h, 'all');
    expect(fromTables2.length).toBe(merged.length);
    for (const [k, a] of (fromTables2 as unknown[][]).entries()) {
      const b = (merged as unknown[][])[k];
      expect(a.slice(0, 3)).toEqual(b.slice(0, 3));
      expect(a[5], `${k}: counts`).toEqual(b[5]);
      for (const col of [3, 4])
        for (const [d, x] of (a[col] as number[]).entries())
          expect(x).toBeCloseTo((b[col] as number[])[d], 9);
    }
  });

  it('a history saved for another window is not read', async () => {
    await savedFor(w.from);
    const other = { from: addDays(w.from, 1), to: w.to };
    await withoutIntervals(async () => {
      // the saved one is of w: a load of another window must go to the tables (which cannot be read)
      await expect(loadIndexHistory(process(), PIVOT, ZONE, other.from, other.to)).rejects.toThrow(
        /price_intervals/,
      );
      await expect(loadIndexHistory(process(), PIVOT, ZONE, w.from, addDays(w.to, -1))).rejects.toThrow(
        /price_intervals/,
      );
    });
    // loaded from the tables, it equals their history and replaces the saved one (one per pivot and zone)
    const h = await loadIndexHistory(process(), PIVOT, ZONE, other.from, other.to);
    expect(plain(h)).toEqual(plain(await fromTables(other.from, other.to)));
    await savedFor(other.from);
    expect(h.price.length).toBeGreaterThan(0);
    // an earlier window (a process still on yesterday's) does not write over a later one
    const earlier = await fromTables(addDays(w.from, -1), addDays(w.to, -1));
    expect(await saveHistory(db.pool, earlier, null)).toBe(false);
    expect((await savedRow())?.from_day).toBe(other.from);
    // w again: loaded from the tables, saved over
    expect(plain(await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to))).toEqual(plain(ref));
    await savedFor(w.from);
  });

  it('a saved history cut short or not one is passed over: the tables answer, and it is saved again', async () => {
    const whole = (await savedFor(w.from)).bytes;
    for (const damage of [
      'substring(data from 1 for length(data) - 9)',
      "overlay(data placing 'XXXX'::bytea from 1)",
      "'VIH1'::bytea",
    ]) {
      await db.pool.query(
        `update dashboard_index_history_snapshots set data = ${damage} where pivot_id = $1`,
        [PIVOT],
      );
      expect(await readSavedHistory(db.pool, q)).toBeNull();
      const h = await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
      expect(plain(h)).toEqual(plain(ref));
      expect(answers(h)).toEqual(answers(ref));
      // saved whole again by that load
      let again: IndexHistory | null = null;
      for (let i = 0; i < 200 && !again; i++) {
        again = await readSavedHistory(db.pool, q);
        if (!again) await new Promise((r) => setTimeout(r, 25));
      }
      expect(plain(again)).toEqual(plain(ref));
      expect((await savedRow())?.bytes).toBe(whole);
    }
  });

  it("the window's last days as a history of their own answer as the whole one over those days", () => {
    expect(recentOf(ref)?.from).toBe(recentFrom);
    expect(recentOf(ref)?.to).toBe(w.to);
    // the fixture's intervals are all of the last 13 days: its last 5 cut some short and leave some out
    const cut = tDay(5);
    const recent = recentOf(ref, 5) as IndexHistory;
    expect(recent.from).toBe(cut);
    expect(recent.to).toBe(w.to);
    // fewer intervals (those ended before its first day left out), the same groups and listings
    expect(recent.price.length).toBeLessThan(ref.price.length);
    expect(recent.price.length).toBeGreaterThan(0);
    expect(Array.from(recent.seller)).toEqual(Array.from(ref.seller));
    expect(Array.from(recent.groupStart)).toEqual(Array.from(ref.groupStart));
    // an interval begun before the first day starts on it (offsets from the recent window)
    expect(Math.min(...recent.a)).toBe(0);
    expect(Math.max(...recent.b)).toBe(4);
    const over = (h: IndexHistory, mineKey?: string) => {
      const out: unknown[] = [];
      for (const [from, to] of [
        [cut, w.to],
        [tDay(4), tDay(2)],
        [cut, cut],
      ])
        for (const competitors of [[20], [30], [50], [20, 30, 50]]) {
          const D = daysInclusive(from, to);
          const clp = (c: string) => new Float64Array(D).fill(c === 'PEN' ? 250 : 1);
          const r = indexDays(h, { competitors, rootClasses: null, from, to, clp, mineKey });
          out.push([from, to, competitors, Array.from(r.sum), Array.from(r.dev), Array.from(r.n)]);
        }
      return out;
    };
    const whole = over(ref);
    expect(whole.some((a) => (a as number[][])[5].some((n) => n > 0))).toBe(true);
    expect(over(recent)).toEqual(whole);
    expect(over(recent, 'all')).toEqual(whole);
    // a day before its window is not one of its days
    expect(() => over({ ...recent, from: addDays(cut, 1) })).toThrow(/outside/);
    // a window not longer than the days asked is not cut
    expect(recentOf(ref, daysInclusive(w.from, w.to))).toBeNull();
  });

  it("the window's last days are saved beside it; a request that needs only them is answered from them", async () => {
    await db.pool.query('delete from dashboard_index_history_snapshots');
    await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
    await savedFor(w.from);
    expect(plain(await readSavedRecent(db.pool, q, recentFrom))).toEqual(plain(recentOf(ref)));
    // saved for another first day, it is not read
    expect(await readSavedRecent(db.pool, q, addDays(recentFrom, 1))).toBeNull();
    // the whole value unreadable and the intervals hidden: only the last days can answer
    await db.pool.query(
      `update dashboard_index_history_snapshots set data = 'VIH1'::bytea where pivot_id = $1`,
      [PIVOT],
    );
    await withoutIntervals(async () => {
      const p = process();
      const h = await indexHistoryOrSaved(p, PIVOT, ZONE, w.from, w.to, tDay(6));
      expect(plain(h)).toEqual(plain(recentOf(ref)));
      // days before them: the whole history (unreadable here: none, the caller answers from the tables)
      expect(await indexHistoryOrSaved(p, PIVOT, ZONE, w.from, w.to, addDays(recentFrom, -1))).toBeNull();
    });
    // saved before migration 541 (no last days): a process that reads the whole value saves them
    await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to);
    await savedFor(w.from);
    await db.pool.query('update dashboard_index_history_snapshots set recent = null where pivot_id = $1', [
      PIVOT,
    ]);
    expect(await readSavedRecent(db.pool, q, recentFrom)).toBeNull();
    await withoutIntervals(async () => {
      expect(plain(await loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to))).toEqual(plain(ref));
    });
    let recent: IndexHistory | null = null;
    for (let i = 0; i < 200 && !recent; i++) {
      recent = await readSavedRecent(db.pool, q, recentFrom);
      if (!recent) await new Promise((r) => setTimeout(r, 25));
    }
    expect(plain(recent)).toEqual(plain(recentOf(ref)));
  });

  it('a zone no organisation uses any more takes its saved histories with it', async () => {
    const TOKYO = 'Asia/Tokyo';
    await db.pool.query('insert into rollup_zones (zone, ready) values ($1, true)', [TOKYO]);
    expect(await saveHistory(db.pool, { ...ref, zone: TOKYO }, null)).toBe(true);
    expect(await readSavedHistory(db.pool, { ...q, zone: TOKYO })).not.toBeNull();
    expect(await dropRollupZone(db.pool, TOKYO)).toBe(true);
    const { rows } = await db.pool.query('select zone from dashboard_index_history_snapshots order by zone');
    expect(rows).toEqual([{ zone: ZONE }]);
  });

  it('processes loading and saving at once leave one whole history', async () => {
    await db.pool.query('delete from dashboard_index_history_snapshots');
    const loaded = await Promise.all(
      [1, 2, 3].map(() => loadIndexHistory(process(), PIVOT, ZONE, w.from, w.to)),
    );
    for (const h of loaded) expect(plain(h)).toEqual(plain(ref));
    await Promise.all(loaded.map((h) => saveHistory(process(), h, recentOf(h))));
    await savedFor(w.from);
    expect(plain(await readSavedHistory(db.pool, q))).toEqual(plain(ref));
  });
});
