import { moduleBeside, task, WorkerPool } from '../../platform/pool/index.js';
import { type ChartJob, type ChartResult, computeChart } from './distribution.js';
import { dateGroups, leafGroups, type SellerSpans } from './model.js';

// The range and scatter-plot charts (and a third currency's type averages) are computed in the platform's worker pool (platform/pool), two
// threads (the cores of the target machine), so that concurrent requests use every core and the event
// loop stays free for the other requests' I/O. A chart is tens of milliseconds of CPU over the sellers'
// in-memory promotions (model.ts); the columns are in SharedArrayBuffers, so a job sends references, not
// copies. The queue is bounded: a burst beyond it is answered 503 with Retry-After. A thread lost under a
// chart is replaced and the chart computed again on the new thread (the pool's behaviour); the former
// fall-back to the event loop after three lost threads is gone — it moved the heaviest work of the API
// onto the loop every other request shares exactly when the machine was in trouble.
//
// Charts are not aborted when their client leaves: an answer is memoised and shared by every concurrent
// request for the same question (answers.ts), so one client's disconnect must not end it for the others.

const chartTask = task(moduleBeside(import.meta.url, './distribution'), 'computeChart', computeChart);

export const chartPool = new WorkerPool({
  name: 'charts',
  threads: 2,
  // both threads from the first chart on (each compiles its code once), kept while the server runs
  minThreads: 2,
  idleTimeoutMs: 10 * 60_000,
  maxQueue: 64,
  heapMb: 256,
  atomics: 'sync',
});

/** Only what the chart reads of each seller (its other fields stay here). */
function shared(job: ChartJob): ChartJob {
  const models = job.models.map((s): SellerSpans => {
    const { sellerId, n } = s;
    const { leaf, first, last, promo, cur } = s;
    const part: Partial<SellerSpans> =
      job.kind === 'range'
        ? { sellerId, n, groups: leafGroups(s) }
        : job.kind === 'type'
          ? { sellerId, n, dated: dateGroups(s) }
          : { sellerId, n, leaf, first, last, promo, cur, product: s.product };
    return part as SellerSpans;
  });
  return { ...job, models };
}

/** The chart, computed by a thread of the pool. */
export async function chartOf<J extends ChartJob>(job: J): Promise<ChartResult<J>> {
  return (await chartPool.run(chartTask, [shared(job)])) as ChartResult<J>;
}
