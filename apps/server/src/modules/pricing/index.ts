// Public face of the pricing feature: what other features may use (the dashboard's general indicators
// read the pricing KPIs of a scope resolved as the DPM screens resolve it; the brand comparator reuses the
// price index scoring — priceIndex in packages/domain, the scoring in compute.ts — instead of copying it).
export { type ClosingState, type ClosingStates, provideClosingStates } from './as-of.js';
export {
  memoOn,
  offerCounted,
  offerInOf,
  type ScoredSet,
  tallyByBrand,
  tallyBySeller,
} from './compute.js';
export { type KpiRow, pricingKpis } from './kpi.js';
export { getPivotModel, heldPivots, licensedPivots, type PivotModel } from './model.js';
export { selectChangedIds } from './queries.js';
export {
  groupOut,
  indexTotals,
  type Lookups,
  lookupScope,
  lookupsKey,
  type Resolved,
  type RowSubset,
  resolveScope,
  scored,
  sellerGroupOut,
  withModel,
} from './service.js';
