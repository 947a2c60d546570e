// Public face of image verification for other features.
//
// Notifications: `onCheckClassified(name, listener)` is the hook point for "a picture check turned
// incorrect": listeners get every check the scoring job measured (events.ts CheckClassifiedEvent) after
// the measure is stored; keep the ones with classification === 'incorrect'.
export { type CheckClassifiedEvent, type CheckClassifiedListener, onCheckClassified } from './events.js';
export { measureSimilarity, SIMILARITY_ALGORITHM, type SimilarityResult } from './similarity.js';
