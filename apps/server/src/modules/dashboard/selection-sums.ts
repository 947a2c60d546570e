import { priceIndexValue } from '@vigia/domain';
import type { IndexDays, TheirDays } from './merge-days.js';

// The dashboard's index for ANY competitor selection of a history's sellers, from one table per (roots,
// days, rates) (issue 30: a new selection merged the chosen sellers' sides, ~14 ms of the event loop a
// request on the large market, and at 16 requests at once the merges queued: c16 p95 480–600 ms).
//
// Per group and day the selection's lowest price is that of its first seller in the order of price (ties
// by the seller's place in the table). So a seller s's price counts for a selection S exactly when s is in
// S and none of the sellers cheaper than s that day (`cheaper`, a mask) is: the table adds each (group,
// day, seller)'s index into the bucket T[s][cheaper][day], then sums every bucket over the subsets of each
// mask (F[s][U] = Σ T[s][m] over m ⊆ U: the subset-sum transform); a selection's figure on day d is
// Σ_{s ∈ S} F[s][not S][d] — |S| × D reads instead of a merge of the chosen sides. Sizes: sellers × 2^sellers
// × D × 3 values of 8 bytes (11 competitors, 13 days: 7 MB), so it is made only for a few sellers.

/** The most sellers a table covers (2^12 masks per seller and day). */
export const SELECTION_MAX_SELLERS = 12;

export interface SelectionSums {
  key: string;
  /** the sellers covered, in the table's order (bit j of a mask: sellers[j]) */
  sellers: number[];
  D: number;
  /**
   * per seller j, mask U and day d, at 3 × ((j × 2^n + U) × D + d): Σ over the masks m ⊆ U of T[j][m][d] —
   * the indexes' sum, that of |index − 100| and their number side by side (one cache line for the three:
   * in three arrays the making's scattered additions cost more than their arithmetic)
   */
  cells: Float64Array;
}

/** Bytes of a table over `sellers` sellers and D days (to decide whether to make it). */
export const selectionBytes = (sellers: number, D: number) => sellers * 2 ** sellers * D * 3 * 8;

/**
 * Makes the table of `sides` (one per seller of `sellers`, in that order) against the pivot's side
 * (`mine`, `any`: merge-days.ts). Asynchronous in slices of groups (`yieldEvery` groups between two turns
 * of the event loop), so that the requests waiting are answered while it is made.
 */
export async function makeSelectionSums(
  key: string,
  sellers: number[],
  mine: Float64Array | Float32Array,
  any: Uint8Array,
  D: number,
  sides: TheirDays[],
  pause: () => Promise<void> = () => new Promise((r) => setImmediate(r)),
  yieldEvery = 8192,
): Promise<SelectionSums> {
  const S = sides.length;
  if (S !== sellers.length || S > SELECTION_MAX_SELLERS) throw new Error('makeSelectionSums: sellers');
  const M = 2 ** S;
  const cells = new Float64Array(S * M * D * 3);
  const G = any.length;
  const at = new Int32Array(S);
  const scratch = {
    js: new Int32Array(S),
    ps: new Float64Array(S * D),
    slot: new Int32Array(S),
    vs: new Float64Array(S),
    offs: new Float64Array(S),
  };
  for (let g0 = 0; g0 < G; g0 += yieldEvery) {
    addGroups(g0, Math.min(G, g0 + yieldEvery), cells, M, D, mine, any, sides, at, scratch);
    await pause();
  }
  // the subset sums, bit by bit (a mask of seller j never holds bit j: those entries are never read)
  for (let j = 0; j < S; j++) {
    for (let b = 0; b < S; b++) {
      if (b === j) continue;
      const bit = 1 << b;
      for (let U = 0; U < M; U++) {
        if (!(U & bit)) continue;
        const to = (j * M + U) * D * 3;
        const from = (j * M + (U ^ bit)) * D * 3;
        for (let x = 0; x < D * 3; x++) cells[to + x] += cells[from + x];
      }
    }
    await pause();
  }
  return { key, sellers, D, cells };
}

/**
 * A selection's figures per day from a table (the same as mergeDays of the selection's sides, the sums
 * added in another order); null when a chosen seller is not in the table. `competitors`: distinct.
 */
export function selectionDays(t: SelectionSums, competitors: readonly number[]): IndexDays | null {
  const { D } = t;
  const M = 2 ** t.sellers.length;
  let chosen = 0;
  for (const c of competitors) {
    const j = t.sellers.indexOf(c);
    if (j < 0) return null;
    chosen |= 1 << j;
  }
  const U = (M - 1) & ~chosen;
  const sum = new Float64Array(D);
  const dev = new Float64Array(D);
  const n = new Int32Array(D);
  for (let j = 0; j < t.sellers.length; j++) {
    if (!(chosen & (1 << j))) continue;
    for (let d = 0, x = (j * M + U) * D * 3; d < D; d++, x += 3) {
      sum[d] += t.cells[x];
      dev[d] += t.cells[x + 1];
      n[d] += t.cells[x + 2];
    }
  }
  return { sum, dev, n };
}

interface Scratch {
  js: Int32Array;
  ps: Float64Array;
  slot: Int32Array;
  vs: Float64Array;
  offs: Float64Array;
}

/**
 * Adds groups g0..g1 − 1 into the buckets (makeSelectionSums; `at`: each side's next entry). A function
 * of its own, not the loop of the asynchronous one, so that it is optimised as a plain loop.
 */
function addGroups(
  g0: number,
  g1: number,
  cells: Float64Array,
  M: number,
  D: number,
  mine: Float64Array | Float32Array,
  any: Uint8Array,
  sides: TheirDays[],
  at: Int32Array,
  { js, ps, slot, vs, offs }: Scratch,
): void {
  const S = sides.length;
  for (let g = g0; g < g1; g++) {
    let k = 0;
    for (let j = 0; j < S; j++) {
      const { groups, low } = sides[j];
      if (at[j] < groups.length && groups[at[j]] === g) {
        js[k] = j;
        const from = at[j]++ * D;
        const to = k * D;
        // one loop per kind of array: a read of either kind in one loop was the slowest line here
        if (low instanceof Float32Array) for (let d = 0; d < D; d++) ps[to + d] = low[from + d];
        else for (let d = 0; d < D; d++) ps[to + d] = low[from + d];
        k++;
      }
    }
    if (k === 0 || any[g] !== 1) continue;
    let before = false; // the day before had my price, and `slot` holds its buckets
    for (let d = 0; d < D; d++) {
      const my = mine[g * D + d];
      if (!(my > 0)) {
        before = false;
        continue;
      }
      // prices mostly hold from one day to the next: the day before's buckets and indexes are reused
      let same = before && my === mine[g * D + d - 1];
      for (let a = 0; same && a < k; a++) {
        const p = ps[a * D + d];
        const q = ps[a * D + d - 1];
        same = p === q || (!(p > 0) && !(q > 0));
      }
      if (!same)
        for (let a = 0; a < k; a++) {
          const p = ps[a * D + d];
          if (!(p > 0)) {
            slot[a] = -1; // NaN: no price that day
            continue;
          }
          let cheaper = 0;
          for (let b = 0; b < k; b++) {
            const q = ps[b * D + d];
            if (q > 0 && (q < p || (q === p && js[b] < js[a]))) cheaper |= 1 << js[b];
          }
          slot[a] = (js[a] * M + cheaper) * D * 3;
          vs[a] = priceIndexValue(my, p);
          offs[a] = Math.abs(vs[a] - 100);
        }
      before = true;
      for (let a = 0; a < k; a++) {
        if (slot[a] < 0) continue;
        const x = slot[a] + d * 3;
        cells[x] += vs[a];
        cells[x + 1] += offs[a];
        cells[x + 2]++;
      }
    }
  }
}
