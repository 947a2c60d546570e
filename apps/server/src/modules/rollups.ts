// Every roll-up kept at ingest time registers itself when its module is imported. Importing this file
// registers all of them, so data entering by any path (server, seed CLI, benchmarks) keeps every
// roll-up up to date. A feature with a roll-up adds its module here.
import './ingest/rollups.js';
import './pricing/rollup.js';
import './promotions/rollup.js';
import './image-verification/rollup.js';
import './notifications/rollup.js';
import './assortment/rollup.js';
