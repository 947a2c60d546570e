// The pricing feature's public face for other features (ARCHITECTURE: features import each other only
// through index.ts). The price index definition (priceIndex in packages/domain metrics, the scoring in
// compute.ts) and the license-checked scope resolution stay here; other features reuse them.
export { memoOn, type ScoredSet, tallyBy, tallyBySeller } from './compute.js';
export { classificationsOutside, selectRates } from './queries.js';
export { groupOut, type Resolved, resolveScope, scored, sellerGroupOut } from './service.js';
