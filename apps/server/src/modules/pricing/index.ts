// Public face of the pricing feature: what other features may use (the dashboard's general indicators
// read the pricing KPIs of a scope resolved as the DPM screens resolve it).
export { type KpiRow, selectPricingKpis } from './kpi.js';
export { type Resolved, resolveScope, scored } from './service.js';
