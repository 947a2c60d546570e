// Public face of the feeds feature (Operaciones): what the CLI and the bench call.
export { createRun, executeRun, newReadCounts, readParts, sellerTermsOf } from './import.js';
export { runImport, setImportLimits } from './import-pool.js';
export { enqueueFeedImport, enqueueRunOf, FEED_IMPORT_QUEUE, registerRunQueuer } from './jobs.js';
export { FeedError, parseFeed } from './parse.js';
export { crawlPageCountsSql } from './queries.js';
export { requeueRun, startRun } from './runs.js';
