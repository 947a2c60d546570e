import { registerRollup } from '../ingest/registry.js';
import { pricingRollup } from './maintain.js';

// Importing this module registers the pricing roll-up (maintain.ts) with ingest: the read model of the
// built pivots follows every ingest batch, in its transaction. modules/rollups.ts imports it.
registerRollup('pricing', pricingRollup);
