// Public face of the ingest path: what the demo seeder and the features may call. Features subscribe
// to ingest through registry.ts (registerRollup); the ingest path itself calls no feature.
export { clearIngestCaches, ingestObservations, type Observation } from './ingest.js';
export { suggestTitleMatches, syncListingCurrent } from './matching.js';
export { type RollupContext, type RollupUpdater, registerRollup, registerZoneRebuild } from './registry.js';
export {
  dayZone,
  deferrableRollups,
  rebuildDeferred,
  releaseRollupZone,
  requestRollupZone,
} from './zones.js';
