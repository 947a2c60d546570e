import { Worker } from 'node:worker_threads';
import { workerSpec } from '../../lib/worker-spec.js';
import { type ChartJob, type ChartResult, computeChart } from './distribution.js';
import { leafGroups, type SellerSpans } from './model.js';

// The range and scatter-plot charts are computed in a pool of THREADS threads (the cores of the target
// machine), so that concurrent requests use every core and the event loop stays
// free for the other requests' I/O. A chart is tens of milliseconds of CPU over the sellers' in-memory
// promotions (model.ts); the columns are in SharedArrayBuffers, so a job sends references, not copies.
// A thread that fails or exits is replaced; its job is computed here instead (and every job, once three
// threads in a row were lost).

const THREADS = 2;

interface Pending {
  job: ChartJob & { id: number };
  resolve: (v: unknown) => void;
  reject: (err: Error) => void;
}

const idle: Worker[] = [];
const busy = new Map<Worker, Pending>();
const queue: Pending[] = [];
let threads = 0;
let nextId = 1;
/** Threads lost in a row (none answered in between): from 3 on, charts are computed here. */
let lostInARow = 0;

function spawn(): Worker {
  const spec = workerSpec(import.meta.url, 'chart-worker');
  const w = new Worker(spec.file, { eval: spec.eval });
  w.unref(); // never keeps the process alive
  threads++;
  w.on('message', (res: { id: number; result?: unknown; error?: string }) => {
    const p = busy.get(w);
    busy.delete(w);
    idle.push(w);
    lostInARow = 0;
    if (p) {
      if (res.error !== undefined) p.reject(new Error(res.error));
      else p.resolve(res.result);
    }
    pump();
  });
  const lost = () => {
    const p = busy.get(w);
    if (!busy.delete(w) && !idle.includes(w)) return; // already dropped
    const at = idle.indexOf(w);
    if (at >= 0) idle.splice(at, 1);
    threads--;
    lostInARow++;
    if (p) runHere(p); // the thread died under it
    pump();
  };
  w.on('error', lost);
  w.on('exit', lost);
  return w;
}

function runHere(p: Pending) {
  try {
    p.resolve(computeChart(p.job));
  } catch (e) {
    p.reject(e as Error);
  }
}

function pump() {
  if (lostInARow >= 3) {
    // threads do not start here: no more attempts
    for (let p = queue.shift(); p; p = queue.shift()) runHere(p);
    return;
  }
  // all threads from the first chart on; the longest idle one takes the next job, so that every thread gets
  // work (and compiles its code) even when requests come one at a time
  while (threads < THREADS) idle.push(spawn());
  while (queue.length) {
    const w = idle.shift();
    if (!w) return;
    const p = queue.shift() as Pending;
    busy.set(w, p);
    w.postMessage(p.job);
  }
}

/** Only what the chart reads of each seller (its other fields stay here). */
function shared(job: ChartJob): ChartJob {
  const models = job.models.map(
    (s) =>
      (job.kind === 'range'
        ? { sellerId: s.sellerId, n: s.n, groups: leafGroups(s) }
        : {
            sellerId: s.sellerId,
            n: s.n,
            product: s.product,
            leaf: s.leaf,
            first: s.first,
            last: s.last,
            promo: s.promo,
            cur: s.cur,
          }) as SellerSpans,
  );
  return { ...job, models };
}

/** The chart, computed by a thread of the pool (or here without threads). */
export function chartOf<J extends ChartJob>(job: J): Promise<ChartResult<J>> {
  if (lostInARow >= 3) return Promise.resolve(computeChart(job)); // threads do not start here (pump)
  return new Promise((resolve, reject) => {
    queue.push({ job: { ...shared(job), id: nextId++ }, resolve: resolve as (v: unknown) => void, reject });
    pump();
  });
}
