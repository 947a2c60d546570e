import type pg from 'pg';
import { type PricingScope, scoreModel, tallyOf } from './compute.js';
import { getPivotModel } from './model.js';

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

/** The pricing KPIs of a resolved scope (service.ts resolveScope), computed as the DPM screens do. */
export async function selectPricingKpis(pool: pg.Pool, scope: PricingScope): Promise<KpiRow> {
  const model = await getPivotModel(pool, scope.pivot);
  const set = scoreModel(model, scope);
  const t = tallyOf(set, set.filtered);
  const { publishedMatch, ...rest } = t.kpis();
  return { ...rest, published_match: publishedMatch, ...t.split() };
}
