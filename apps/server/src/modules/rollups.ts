// Every roll-up kept at ingest time registers itself when its module is imported. Importing this file
// registers all of them, so data entering by any path (server, seed CLI, benchmarks) keeps every
// roll-up up to date. A feature with a roll-up adds its module here.
// Pricing is imported (registered) last, so that it runs last in the ingest transaction: the pivots' rows
// it locks (pricing_pivots.version, pricing/maintain.ts) are held until the commit, and every seller's
// listings are offers of the same pivots — runs of different sellers wait for each other from there on.
import './ingest/rollups.js';
import './promotions/rollup.js';
import './image-verification/rollup.js';
import './notifications/rollup.js';
import './assortment/rollup.js';
import './pricing/rollup.js';
