import { priceIndexValue } from '@vigia/domain';

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
  /** 4-byte floats when every price of the side is one exactly (index-history.ts narrowed) */
  low: Float64Array | Float32Array;
}

/**
 * indexDays from the competitors' sides: per group of mine, the lowest of theirs per day. The sides are
 * read in step (their groups ascend), so the lowest of a group's days is a buffer of D values — a buffer
 * of every group's days (11 MB a request on the large market) was slower: this machine's memory, not its
 * arithmetic, sets the pace (issue 30).
 */
export function mergeDays(
  mine: Float64Array | Float32Array,
  any: Uint8Array,
  D: number,
  theirs: TheirDays[],
): IndexDays {
  const sum = new Float64Array(D);
  const dev = new Float64Array(D);
  const n = new Int32Array(D);
  const best = new Float64Array(D);
  const G = any.length;
  // per side: its next entry and that entry's group (G: none left)
  const at = new Int32Array(theirs.length);
  const next = Int32Array.from(theirs, (t) => (t.groups.length ? t.groups[0] : G));
  let g = Math.min(G, ...next);
  while (g < G) {
    let first = true;
    let following = G;
    for (let j = 0; j < theirs.length; j++) {
      if (next[j] === g) {
        const { groups, low } = theirs[j];
        const e = at[j]++;
        if (first) for (let d = 0, k = e * D; d < D; d++, k++) best[d] = low[k];
        else
          for (let d = 0, k = e * D; d < D; d++, k++) {
            const p = low[k];
            if (p < best[d] || !(best[d] > 0)) best[d] = p; // NaN: no price that day
          }
        first = false;
        next[j] = e + 1 < groups.length ? groups[e + 1] : G;
      }
      if (next[j] < following) following = next[j];
    }
    // the group's days in ascending order (a day without either price: none); its prices mostly stay
    // the same from one day to the next, so the day before's index is reused
    if (any[g] === 1) {
      let lastMy = Number.NaN;
      let lastTheir = Number.NaN;
      let v = 0;
      let off = 0;
      for (let d = 0, k = g * D; d < D; d++, k++) {
        const my = mine[k];
        const their = best[d];
        if (!(my > 0 && their > 0)) continue;
        if (my !== lastMy || their !== lastTheir) {
          v = priceIndexValue(my, their);
          off = Math.abs(v - 100);
          lastMy = my;
          lastTheir = their;
        }
        sum[d] += v;
        dev[d] += off;
        n[d]++;
      }
    }
    g = following;
  }
  return { sum, dev, n };
}
