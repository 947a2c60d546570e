import { registerMatchChangeHook, registerRollup } from '../ingest/registry.js';
import { pricingRollup, refreshPricingForListings } from './maintain.js';

// Importing this module subscribes the pricing read model (maintain.ts) to ingest: it follows every
// ingest batch (a roll-up, in the batch's transaction) and every match a person confirms or rejects
// (a match-change hook, in that decision's transaction). modules/rollups.ts imports it.
registerRollup('pricing', pricingRollup);
registerMatchChangeHook('pricing', refreshPricingForListings);
