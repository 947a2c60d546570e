// Public face of matching (issue 29): the run (pipeline.ts) that the data paths call after an import,
// and the decisions (decide.ts) that every change of match membership goes through.
export { applyMatchChanges, confirmMatch, decideMatches, rejectMatch } from './decide.js';
export { enqueueSellerMatching, MATCH_SELLER_QUEUE } from './jobs.js';
export { refreshMatchKeys } from './keys.js';
export { type MatchRunOptions, type MatchRunResult, runMatching, thresholdsOf } from './pipeline.js';
