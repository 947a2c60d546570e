// The entry of a feed import's thread (feeds/import-pool.ts names this module as its task): a composition
// root, as main.ts is for a process — every roll-up registers itself (rollups.ts), as in the server, so
// that the run keeps them current; then the run itself (feeds/import-thread.ts).
import './rollups.js';

export { importRunInThread } from './feeds/import-thread.js';
