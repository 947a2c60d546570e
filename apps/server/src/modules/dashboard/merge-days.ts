import { priceIndex } from '@vigia/domain';

// The dashboard's index of a competitor selection from the sides kept per seller (index-history.ts
// indexDays). Tried in the chart pool (issue 30, 2026-11-29 fourth session): c16 p50 381 → 351 ms but p95
// 478 → 722 ms on the large market — the two cores were already busy (the event loop, PostgreSQL, the
// bench's client), and a merge in a thread took ~19 ms instead of ~12: it runs on the event loop.

/** Per day: the sum of the groups' indexes, of |index − 100| and their number. */
export interface IndexDays {
  sum: Float64Array;
  dev: Float64Array;
  n: Int32Array;
}

/**
 * A competitor's side over a period of D days: per match group where the seller has a listing (`groups`,
 * ascending), its lowest price in CLP per day (`low[e × D + d]`, NaN: none) and the days with a price
 * (`lo[e]`..`hi[e]`, hi −1: none).
 */
export interface TheirDays {
  key: string;
  groups: Int32Array;
  lo: Int16Array;
  hi: Int16Array;
  low: Float64Array;
}

/**
 * The selection's lowest price per group and day, written by mergeDays (one process thread answers one
 * request at a time, and mergeDays does not yield): groups × days × 8 bytes, as large as a pivot's side
 * (mineDays) — ~11 MB for the 7-day preset on the large market — and kept rather than made per request.
 */
let scratch = new Float64Array(0);
/** mergeDays' scratch is used up to this size; a larger period reads the intervals directly. */
export const SCRATCH_MAX_BYTES = 32 * 1024 * 1024;

/** indexDays from the competitors' sides: per group of mine, the lowest of theirs per day. */
export function mergeDays(mine: Float64Array, any: Uint8Array, D: number, theirs: TheirDays[]): IndexDays {
  const sum = new Float64Array(D);
  const dev = new Float64Array(D);
  const n = new Int32Array(D);
  const cells = any.length * D;
  if (scratch.length < cells) scratch = new Float64Array(cells);
  const best = scratch.fill(Number.NaN, 0, cells);
  for (const { groups, lo, hi, low } of theirs)
    for (let e = 0; e < groups.length; e++) {
      const at = groups[e] * D;
      for (let d = lo[e], k = e * D + d; d <= hi[e]; d++, k++) {
        const p = low[k];
        if (!(p > 0)) continue;
        if (!(p >= best[at + d])) best[at + d] = p;
      }
    }
  // the days of a group in ascending order, as addGroupIndex adds them (a day without either price: none)
  for (let g = 0, k = 0; g < any.length; g++, k += D) {
    if (any[g] !== 1) continue; // no price of mine on any day: no index
    for (let d = 0; d < D; d++) {
      const my = mine[k + d];
      const their = best[k + d];
      if (!(my > 0 && their > 0)) continue;
      const v = priceIndex(my, their) as number;
      sum[d] += v;
      dev[d] += Math.abs(v - 100);
      n[d]++;
    }
  }
  return { sum, dev, n };
}
