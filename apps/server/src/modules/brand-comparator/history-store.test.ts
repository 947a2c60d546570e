import { effectivePriceFor, PRICE_MODES } from '@vigia/domain';
import { describe, expect, it } from 'vitest';
import { mulberry32 as random } from '../demo/random.js';
import { HistoryStore, type IntervalRow } from './history.js';

// The history's compact layout (history.ts HistoryStore: valid_from and a state index per slot, valid_to
// implicit with gap slots, distinct states in a table, sealed to exact-size arrays) against the plain
// reading of the intervals themselves: the interval covering an instant (valid_from ≤ t < valid_to) and
// the last interval that began before an instant, on pseudo-random histories with gaps, closed ends,
// repeated and decimal prices, at every boundary, a millisecond either side and instants between.

type Row = IntervalRow;

const T0 = Date.UTC(2026, 5, 1);
const PRICES = [990, 1290, 12345.67, 0.1, 19.99, 7, 100000.05];

/** Listing `id`'s intervals: ascending, contiguous or with a gap, the last open or closed. */
function history(rnd: () => number, id: number): Row[] {
  const rows: Row[] = [];
  let t = T0 + Math.floor(rnd() * 86_400_000);
  const n = Math.floor(rnd() * 6); // 0..5 intervals
  for (let i = 0; i < n; i++) {
    const from = t;
    const to = from + 1 + Math.floor(rnd() * 5 * 86_400_000);
    const last = i === n - 1;
    const pick = () => PRICES[Math.floor(rnd() * PRICES.length)];
    const currency = rnd() < 0.3 ? 'USD' : 'CLP';
    rows.push([
      id,
      from,
      last && rnd() < 0.5 ? null : to,
      rnd() < 0.1 ? null : pick(),
      rnd() < 0.5 ? null : pick(),
      rnd() < 0.8 ? null : pick(),
      rnd() < 0.2,
      currency,
      rnd() < 0.5 ? 'NORMAL' : 'SALE',
    ]);
    // the next interval begins where this one ended (most) or later (unpublished in between)
    t = rnd() < 0.7 ? to : to + 1 + Math.floor(rnd() * 86_400_000);
  }
  return rows;
}

/** The instants worth asking: every boundary, a millisecond either side, between, and fractions. */
function instants(rows: Row[]): number[] {
  const out = [T0 - 1];
  for (const r of rows)
    for (const b of [r[1], r[2]]) if (b !== null) out.push(b - 1, b - 0.25, b, b + 0.5, b + 1, b + 3_600_000);
  return out;
}

const covering = (rows: Row[], t: number) => rows.find((r) => r[1] <= t && (r[2] === null || r[2] > t));
const lastBefore = (rows: Row[], t: number) => rows.filter((r) => r[1] < t).at(-1);

const listed = (r: Row) => ({ normal: r[3], sale: r[4], exclusive: r[5] });

/** Every listing at every instant: the store answers as the rows read plainly. */
function expectAnswers(store: HistoryStore, byId: Map<number, Row[]>) {
  let compared = 0;
  const rates = store.rates(new Map([['CLP', 1]])); // USD: no rate (NaN)
  for (const [id, rows] of byId) {
    const ts = Float64Array.from(instants(rows));
    const [first, count] = store.range(id);
    const got = new Float64Array(ts.length);
    const sorted = ts.slice().sort();
    for (const mode of PRICE_MODES)
      for (const inStockOnly of [false, true]) {
        // in any order, and ascending (each search from the previous one's slot)
        for (const [at, ascending] of [
          [ts, false],
          [sorted, true],
        ] as const) {
          HistoryStore.pricesAt(store.columns(), first, count, at, ascending, mode, rates, inStockOnly, got);
          at.forEach((t, d) => {
            const r = covering(rows, t);
            const want =
              !r || (inStockOnly && r[6]) || r[7] !== 'CLP'
                ? Number.NaN
                : (effectivePriceFor(listed(r), mode) ?? Number.NaN);
            expect(got[d], `listing ${id} at ${t} (${mode}, ${inStockOnly})`).toBe(want);
          });
        }
      }
    for (const t of ts) {
      const r = covering(rows, t);
      const s = store.stateAt(id, t);
      expect(s === undefined, `listing ${id} at ${t}`).toBe(r === undefined);
      if (!r || !s) continue;
      compared++;
      expect(s.stockOut).toBe(r[6]);
      expect(s.currency).toBe(r[7]);
      for (const m of PRICE_MODES) expect(s.effective[m]).toBe(effectivePriceFor(listed(r), m));
      // a closed day's state: the last interval that began before t, unless the last one did
      const out = new Int32Array(1);
      const gap = new Float64Array(1);
      const last = new Float64Array(1);
      store.ranges([id], new Int32Array(1), new Int32Array(1), last, []);
      HistoryStore.statesBefore(
        store.columns(),
        Int32Array.of(first),
        Int32Array.of(count),
        last,
        t,
        out,
        gap,
      );
      const before = lastBefore(rows, t);
      const expectState = before && before !== rows.at(-1);
      expect(out[0] >= 0, `closing state of ${id} at ${t}`).toBe(Boolean(expectState));
      if (!expectState || !before) continue;
      // unpublished at t (the interval ended before it): the instant its removal was found
      const ended = before[2] !== null && before[2] < t ? before[2] : Number.NaN;
      expect(gap[0], `gap of ${id} at ${t}`).toBe(ended);
      const none = new Float64Array(0);
      const st = store.closingStates(store.columns(), out, new Int32Array(0), gap, none);
      const j = out[0];
      expect([st.prices[3 * j], st.prices[3 * j + 1], st.prices[3 * j + 2]]).toEqual(
        [before[3], before[4], before[5]].map((v) => v ?? Number.NaN),
      );
      expect(st.stockOut[j] === 1).toBe(before[6]);
      expect(st.currencies[st.currency[j]]).toBe(before[7]);
      expect(st.priceTypes[st.priceType[j]]).toBe(before[8]);
    }
  }
  return compared;
}

describe('brand comparator history store (compact layout)', () => {
  it('answers as the intervals themselves, at every boundary and between', () => {
    const rnd = random(30);
    const byId = new Map<number, Row[]>();
    for (let id = 1; id <= 200; id++) byId.set(id * 7919, history(rnd, id * 7919));
    const store = new HistoryStore();
    const ids = [...byId.keys()];
    // put in batches, as loadIntervals does
    for (let i = 0; i < ids.length; i += 64) {
      const part = ids.slice(i, i + 64);
      store.put(
        part,
        part.flatMap((id) => byId.get(id) ?? []),
      );
    }
    expect(expectAnswers(store, byId)).toBeGreaterThan(1000);
    const rows = [...byId.values()].flat();
    const s = store.stats();
    // one slot per interval and one per gap (an interval that ended before the next began, or last)
    const gaps = [...byId.values()].reduce(
      (n, list) =>
        n + list.filter((r, i) => r[2] !== null && (i === list.length - 1 || list[i + 1][1] > r[2])).length,
      0,
    );
    expect(gaps).toBeGreaterThan(50);
    expect(s.gaps).toBe(gaps);
    expect(s.slots).toBe(rows.length + gaps);
    // distinct states only
    const distinct = new Set(rows.map((r) => JSON.stringify(r.slice(3))));
    expect(s.states).toBe(distinct.size);
    expect(s.states).toBeLessThan(rows.length);
    store.seal();
    expect(store.stats()).toMatchObject({ spareSlots: 0, spareStates: 0, spareListings: 0, garbage: 0 });
    expect(expectAnswers(store, byId)).toBeGreaterThan(1000);
  });

  it('keeps prices exact, decimals included (12345.67 USD), as the table of distinct states', () => {
    const store = new HistoryStore();
    const prices = [12345.67, 0.1, 0.2, 0.30000000000000004, 99999999.99, 1e-7, 5e15 + 1];
    store.put(
      [1],
      prices.map(
        (p, i): Row => [1, T0 + i * 1000, T0 + (i + 1) * 1000, p, p / 3, null, false, 'USD', 'SALE'],
      ),
    );
    store.seal();
    prices.forEach((p, i) => {
      const s = store.stateAt(1, T0 + i * 1000 + 500);
      expect(s?.effective.NORMAL_PRICE).toBe(p);
      expect(s?.effective.NORMAL_SALE_PRICE).toBe(p / 3);
      expect(s?.currency).toBe('USD');
    });
    // the last one closed: nothing after it
    expect(store.stateAt(1, T0 + prices.length * 1000)).toBeUndefined();
  });

  it('stores a re-read listing once: unchanged keeps its slots, changed leaves garbage that a seal drops', () => {
    const rnd = random(7);
    const byId = new Map<number, Row[]>();
    for (let id = 1; id <= 120; id++) byId.set(id, history(rnd, id));
    const store = new HistoryStore();
    const ids = [...byId.keys()];
    store.put(
      ids,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
    store.seal();
    const sealed = store.stats();
    const generation = store.generation;
    // the same listings read again (a second pivot's load): nothing moves
    store.put(
      ids,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
    expect(store.stats().slots).toBe(sealed.slots);
    expect(store.generation).toBe(generation);
    store.seal();
    expect(store.stats()).toEqual(sealed);

    // before the change: a closed day's states handed out (the arrays must stay true after the seal)
    const changedIds = ids.filter((id) => (byId.get(id) ?? []).length > 1).slice(0, 20);
    const target = changedIds[0];
    const firstRow = (byId.get(target) ?? [])[0];
    const cols = store.columns();
    const [f0, c0] = store.range(target);
    const handed = new Int32Array(1);
    const last = new Float64Array(1);
    store.ranges([target], new Int32Array(1), new Int32Array(1), last, []);
    const gap = new Float64Array(1);
    HistoryStore.statesBefore(cols, Int32Array.of(f0), Int32Array.of(c0), last, firstRow[1] + 1, handed, gap);
    const held = store.closingStates(cols, handed, new Int32Array(0), gap, new Float64Array(0));
    const before = held.prices[3 * handed[0]];
    expect(before).toBe(firstRow[3] ?? Number.NaN);

    // a refresh of two listings: its lazy seal keeps their old slots (under 1/16 of the store)
    const two = changedIds.slice(-2);
    const refreshed = (id: number) =>
      (byId.get(id) ?? []).map((r): Row => [r[0], r[1], r[2], r[3], 1.5, r[5], r[6], r[7], r[8]]);
    store.put(two, two.flatMap(refreshed));
    store.seal(false);
    expect(store.stats().garbage).toBeGreaterThan(0);
    expect(store.stateAt(two[0], (byId.get(two[0]) ?? [])[0][1])?.effective.NORMAL_SALE_PRICE).toBe(1.5);
    for (const id of two) byId.set(id, refreshed(id));
    expect(expectAnswers(store, byId)).toBeGreaterThan(300);

    // some listings change (every interval's normal price moves): garbage until the seal
    for (const id of changedIds)
      byId.set(
        id,
        (byId.get(id) ?? []).map((r): Row => [r[0], r[1], r[2], 4242.42, r[4], r[5], r[6], r[7], r[8]]),
      );
    store.put(
      changedIds,
      changedIds.flatMap((id) => byId.get(id) ?? []),
    );
    const dirty = store.stats();
    expect(dirty.garbage).toBeGreaterThan(0);
    expect(expectAnswers(store, byId)).toBeGreaterThan(300);
    store.seal();
    const clean = store.stats();
    expect(clean).toMatchObject({ garbage: 0, spareSlots: 0, spareStates: 0, spareListings: 0 });
    expect(clean.slots).toBe(dirty.slots - dirty.garbage);
    // the states no slot uses any more are gone: the table holds exactly the live rows' distinct states
    expect(clean.states).toBe(new Set([...byId.values()].flat().map((r) => JSON.stringify(r.slice(3)))).size);
    expect(expectAnswers(store, byId)).toBeGreaterThan(300);
    // what was handed out before still reads as it did
    expect(held.prices[3 * handed[0]]).toBe(before);
    expect(store.stateAt(target, firstRow[1])?.effective.NORMAL_PRICE).toBe(4242.42);
  });
});
