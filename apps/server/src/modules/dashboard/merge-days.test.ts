import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../demo/random.js';
import { mergeDays, type TheirDays } from './merge-days.js';
import { makeSelectionSums, selectionDays } from './selection-sums.js';

// The merge of a new competitor selection (merge-days.ts: the sides read in step, a group's index reused
// while its prices hold) against a plain pass day by day, written here from the definition (docs/metrics.md
// "Dashboard"): per group and day, the lowest competitor price among the chosen sides, my price against it
// when both exist, the sums of the indexes and of |index − 100| and their number per day, groups in
// ascending order.

/** D days of a price that changes now and then, with days without a price (NaN). */
function days(r: () => number, D: number, fraction: boolean, ties = false): Float64Array {
  const out = new Float64Array(D);
  // with ties: prices from a few values, so that sellers often share the lowest
  const price = () =>
    (ties ? 1000 * (1 + Math.floor(r() * 3)) : 1000 + Math.floor(r() * 9000)) + (fraction ? 0.37 : 0);
  let p = price();
  let none = r() < 0.2;
  for (let d = 0; d < D; d++) {
    if (r() < 0.15) p = price();
    if (r() < 0.1) none = !none;
    out[d] = none ? Number.NaN : p;
  }
  return out;
}

function reference(mine: Float64Array[], any: Uint8Array, D: number, sides: Map<number, Float64Array>[]) {
  const sum = new Float64Array(D);
  const dev = new Float64Array(D);
  const n = new Int32Array(D);
  for (let g = 0; g < mine.length; g++) {
    if (any[g] !== 1) continue;
    for (let d = 0; d < D; d++) {
      let best = Number.NaN;
      for (const side of sides) {
        const p = side.get(g)?.[d];
        if (p !== undefined && p > 0 && !(best <= p)) best = p;
      }
      const my = mine[g][d];
      if (!(my > 0 && best > 0)) continue;
      const v = (100 * my) / best;
      sum[d] += v;
      dev[d] += Math.abs(v - 100);
      n[d]++;
    }
  }
  return { sum, dev, n };
}

/** A pivot's side of G groups and S competitors' sides of D days (seeded); `ties`: prices from a few values. */
function fixture(seed: number, D: number, S: number, G: number, fraction: boolean, ties = false) {
  const r = rng(seed);
  const mineDense = Array.from({ length: G }, () => days(r, D, fraction));
  const any = Uint8Array.from(mineDense, (m) => (m.some((p) => p > 0) ? 1 : 0));
  const mine = new Float64Array(G * D);
  for (const [g, m] of mineDense.entries()) mine.set(m, g * D);
  const sides: Map<number, Float64Array>[] = [];
  const theirs: TheirDays[] = [];
  for (let j = 0; j < S; j++) {
    const side = new Map<number, Float64Array>();
    for (let g = 0; g < G; g++) if (r() < 0.6) side.set(g, days(r, D, fraction && j === 0, ties));
    const low = new Float64Array(side.size * D);
    for (const [e, row] of [...side.values()].entries()) low.set(row, e * D);
    sides.push(side);
    theirs.push({
      key: String(j),
      groups: Int32Array.from(side.keys()),
      lo: new Int16Array(side.size),
      hi: new Int16Array(side.size),
      // a side in 4-byte floats where its prices are whole pesos (index-history.ts narrowed)
      low: fraction && j === 0 ? low : new Float32Array(low),
    });
  }
  return { mineDense, mine: fraction ? mine : new Float32Array(mine), any, sides, theirs };
}

describe('mergeDays', () => {
  it('gives the sums of a day-by-day pass, bit for bit, for sides of every shape', () => {
    for (const [seed, D, S, G, fraction] of [
      [1, 13, 3, 400, false],
      [2, 1, 2, 50, false],
      [3, 27, 5, 300, true],
      [4, 7, 1, 200, false],
      [5, 13, 0, 30, false],
    ] as const) {
      const f = fixture(seed, D, S, G, fraction);
      const got = mergeDays(f.mine, f.any, D, f.theirs);
      const want = reference(f.mineDense, f.any, D, f.sides);
      expect(got, `seed ${seed}`).toEqual(want);
      expect(got.n.some((x) => x > 0) || S === 0, `seed ${seed}: something counted`).toBe(true);
    }
  });
});

// The table of every selection (selection-sums.ts) against the merge of each selection's sides: the same
// counts, and the same sums but for the order of the additions.
describe('selection sums', () => {
  it('give every selection of the sellers the figures of its merge, ties and days without a price included', async () => {
    for (const [seed, D, S, G, fraction, ties] of [
      [11, 13, 5, 400, false, false],
      [12, 13, 6, 300, false, true],
      [13, 1, 3, 80, true, true],
      [14, 9, 1, 100, false, false],
    ] as const) {
      const f = fixture(seed, D, S, G, fraction, ties);
      const sellers = Array.from({ length: S }, (_, j) => 100 + j);
      const t = await makeSelectionSums('k', sellers, f.mine, f.any, D, f.theirs, async () => {}, 7);
      let compared = 0;
      for (let mask = 1; mask < 2 ** S; mask++) {
        const chosen = sellers.filter((_, j) => mask & (1 << j));
        const got = selectionDays(t, chosen);
        const want = mergeDays(
          f.mine,
          f.any,
          D,
          f.theirs.filter((_, j) => mask & (1 << j)),
        );
        expect(got?.n, `seed ${seed} mask ${mask}`).toEqual(want.n);
        for (let d = 0; d < D; d++) {
          expect(got?.sum[d]).toBeCloseTo(want.sum[d], 6);
          expect(got?.dev[d]).toBeCloseTo(want.dev[d], 6);
        }
        compared += want.n.reduce((a, b) => a + b, 0);
      }
      expect(compared, `seed ${seed}: something counted`).toBeGreaterThan(0);
      expect(selectionDays(t, [100, 99]), 'a seller outside the table').toBeNull();
    }
  });
});
