import { memoOn, tallyOf } from './compute.js';
import { type Resolved, scored } from './service.js';

/** KPIs and index split in the flat shape other modules read (the dashboard's general indicators). */
export interface KpiRow {
  total: number;
  match: number;
  published_match: number;
  normal: number;
  sale: number;
  exclusive: number;
  stock_out: number;
  cheapest: number;
  in_range: number;
  dearer: number;
  without_index: number;
  average_index: number | null;
}

/**
 * The pricing KPIs of a resolved scope (service.ts resolveScope), computed as the DPM screens do: from
 * the same scored set and tally they keep per scope (scored, memo 'tally'), so that the dashboard's
 * indicators and DPM's KPIs of one scope are one computation, and a repeated scope none.
 */
export function pricingKpis(resolved: Resolved): KpiRow {
  const set = scored(resolved);
  const t = memoOn(set, 'tally', () => tallyOf(set, set.filtered));
  const { publishedMatch, ...rest } = t.kpis();
  return { ...rest, published_match: publishedMatch, ...t.split() };
}
