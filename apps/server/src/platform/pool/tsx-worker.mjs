// A pool thread under the tests, which run the TypeScript sources without a build (pool.ts picks this
// file when it is itself a .ts): registers tsx's loader in this thread, then serves the dispatcher from
// worker.ts. The built server's threads load worker.js directly.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./worker.ts');
export default run;
