import { typeRows, typeSums, type WindowScope } from './distribution.js';
import { dateGroups, RUNNING, type SellerSpans } from './model.js';
import type { TypePricesRow } from './queries.js';

// The type screen's promotions and averages in a currency other than CLP (distribution.ts typeChart) for
// a window that ends on or after the copies' latest first day, for any first day: such a window holds the
// promotions whose last day is ≥ its first day, so the sums of typeChart kept per last day and summed from
// the latest one answer every first day by a lookup (built once per question by a chart thread; a pass
// over every date group of every seller was ~50 ms of a chart thread per request on the large market —
// issue 30, new window each request at c16: 441–520 ms). The counts are typeChart's; the averages equal
// them up to the order of the float additions (promotions-model.test.ts compares both with the SQL).

/** The type sums of every first day of a window ending on or after `maxFirst`. */
export interface TypeIndex {
  /** the latest first day of a counted promotion (−1: none) */
  maxFirst: number;
  d0: number;
  cap: number;
  asked: number[];
  /** per seller, typeSums' sums by last-day index, summed from the last index down */
  sums: Float64Array[];
}

export function buildTypeIndex(models: SellerSpans[], scope: WindowScope): TypeIndex {
  const asked = new Set(scope.leaves);
  let minFirst = Number.POSITIVE_INFINITY;
  let maxFirst = -1;
  let maxEnded = -1;
  for (const s of models) {
    const { first, last, leaf, n } = dateGroups(s);
    for (let g = 0; g < n; g++) {
      if (!asked.has(leaf[g])) continue;
      if (first[g] < minFirst) minFirst = first[g];
      if (first[g] > maxFirst) maxFirst = first[g];
      if (last[g] !== RUNNING && last[g] > maxEnded) maxEnded = last[g];
    }
  }
  const d0 = maxFirst < 0 ? 0 : minFirst;
  const cap = maxFirst < 0 ? 0 : Math.max(0, maxEnded - d0 + 1);
  const { asked: classes, sums } = typeSums(models, scope, { d0, cap });
  const slots = cap + 1;
  for (const acc of sums)
    for (let o = 0; o < acc.length; o += slots)
      for (let j = slots - 2; j >= 0; j--) acc[o + j] += acc[o + j + 1];
  return { maxFirst, d0, cap, asked: classes, sums };
}

/** The type rows of a window whose first day has index `fi` (scatter-index.ts fromIndex). */
export const typeFromIndex = (
  models: Pick<SellerSpans, 'sellerId'>[],
  index: TypeIndex,
  fi: number,
): TypePricesRow[] => typeRows(models, index.asked, index.sums, index.cap + 1, fi);
