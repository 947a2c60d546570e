// The market core (docs/architecture.md "Market core"): what every analysis feature needs about the
// market, in one place — the request's scope under the license, exchange rates, days and periods,
// listing access and listing-state rules, search normalisation. Features import it from here only.
// Pure rules live in packages/domain and are re-exported where the server needs them together.

export { foldText, isHistoricalAt, lastSeenAt, normalizeSearch } from '@vigia/domain';
export { resolvePeriod, TZ_SQL, today } from './days.js';
export {
  cents,
  clpMap,
  type FxTable,
  loadFx,
  type Rates,
  ratesTo,
  selectClpRates,
  selectClpRateTexts,
  selectRates,
} from './fx.js';
export { categoryPaths, lastSeenSql } from './listing.js';
export {
  assertClassificationsLicensed,
  classificationsOutside,
  listingInLicense,
  type MarketScope,
  optionalPivot,
  type Requester,
  resolveCurrency,
  resolveMarketScope,
  resolvePivot,
  resolveSellers,
  userCurrency,
  visibleSellers,
} from './scope.js';
