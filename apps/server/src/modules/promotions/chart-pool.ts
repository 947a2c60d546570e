import { moduleBeside, task, WorkerPool } from '../../platform/pool/index.js';
import { type ChartJob, type ChartResult, computeChart } from './charts.js';
import type { ScatterRow, WindowScope } from './distribution.js';
import { dateGroups, leafGroups, RUNNING, type SellerSpans } from './model.js';
import { fromIndex, pairsBytes, type ScatterIndex, type ScatterPairs } from './scatter-index.js';

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

const chartTask = task(moduleBeside(import.meta.url, './charts'), 'computeChart', computeChart);

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
          : job.kind === 'scatter-answer'
            ? { sellerId, n, product: s.product }
            : { sellerId, n, leaf, first, last, promo, cur, product: s.product };
    return part as SellerSpans;
  });
  return { ...job, models };
}

/** The chart, computed by a thread of the pool. */
export async function chartOf<J extends ChartJob>(job: J): Promise<ChartResult<J>> {
  return (await chartPool.run(chartTask, [shared(job)])) as ChartResult<J>;
}

// The scatter plot of a window ending on or after the copies' latest first day (scatter-index.ts): its
// index and its pairs per width are built once by a thread and kept here, in shared memory, per question
// (the copies, the asked leaves and the factors of their promotions' first days); each request then only
// counts the pairs of its first day. Kept: the last ENTRIES questions, and per question the pairs of
// PAIR_WIDTHS widths, within PAIRS_BYTES in all (8 bytes a (listing, bucket) pair: 14 MB for all roots and
// every seller on the large market, 1.75 M pairs of 4.7 M promotions). The copies' versions are in the key:
// a refreshed copy is another question; the factors of the promotions' first days are compared whole.

const ENTRIES = 4;
const PAIR_WIDTHS = 2;
const PAIRS_BYTES = 96 * 2 ** 20;

interface ScatterEntry {
  /** the factors the index was built with: each currency's, from day0 to the copies' latest run day */
  factors: Float64Array;
  index: Promise<ScatterIndex>;
  pairs: Map<number, { ready: Promise<ScatterPairs[]>; bytes: number }>;
}

const scatterEntries = new Map<string, ScatterEntry>();

/** The factors of `scope.fx` up to day `last` (a question's part that the key's text does not hold). */
function factorsUpTo(scope: WindowScope, last: number): Float64Array {
  const days = last - scope.day0 + 1;
  const currencies = scope.fx.length / scope.span;
  const out = new Float64Array(currencies * days);
  for (let c = 0; c < currencies; c++)
    out.set(scope.fx.subarray(c * scope.span, c * scope.span + days), c * days);
  return out;
}

/** Equal factors, NaN (no rate) equal to NaN. */
function sameFactors(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/** Forgets the kept scatter indexes (tests). */
export function clearScatterIndexes(): void {
  scatterEntries.clear();
}

/** The kept pairs' bytes (tests, docs). */
export function scatterIndexBytes(): number {
  let n = 0;
  for (const e of scatterEntries.values()) for (const p of e.pairs.values()) n += p.bytes;
  return n;
}

/**
 * The scatter plot (distribution.ts scatterChart's width and rows) of `scope` over the copies `models`:
 * from the kept index and pairs when the window ends on or after every copy's latest run day (so on or
 * after every promotion's first day), else computed over the window's promotions.
 */
export async function scatterOf(
  models: SellerSpans[],
  scope: WindowScope,
  sample: number,
): Promise<{ width: number; rows: ScatterRow[] }> {
  const whole = () => chartOf({ kind: 'scatter', models, scope, sample });
  let lastRun = -1;
  for (const s of models) {
    if (!s.n) continue;
    if (s.lastRunDay === null) return whole();
    lastRun = Math.max(lastRun, s.lastRunDay);
  }
  if (lastRun < 0 || scope.to < lastRun || lastRun >= RUNNING) return whole();
  // one question whatever the order of the sellers (each pivot lists itself first): the index and pairs of
  // the copies in seller order, the answer's rows in the asked order
  const sorted = [...models].sort((a, b) => a.sellerId - b.sellerId);
  const key = `${scope.day0}|${sorted.map((s) => `${s.sellerId}:${s.zone}:${s.version}:${s.n}`)}|${scope.leaves}|${scope.fxKey}`;
  const factors = factorsUpTo(scope, lastRun);
  let entry = scatterEntries.get(key);
  if (entry && !sameFactors(entry.factors, factors)) entry = undefined;
  // (a kept entry is set again below, as the most recent)
  if (entry) scatterEntries.delete(key);
  else {
    entry = { factors, index: chartOf({ kind: 'scatter-index', models: sorted, scope }), pairs: new Map() };
    entry.index.catch(() => scatterEntries.delete(key));
  }
  scatterEntries.set(key, entry);
  while (scatterEntries.size > ENTRIES) scatterEntries.delete(scatterEntries.keys().next().value as string);
  const index = await entry.index;
  if (scope.to < index.maxFirst) return whole();
  const fi = fromIndex(index, scope.from);
  const width = index.widths[fi];
  let pairs = entry.pairs.get(width);
  if (!pairs) {
    const kept = { ready: chartOf({ kind: 'scatter-pairs', models: sorted, scope, width, index }), bytes: 0 };
    pairs = kept;
    const mine = entry;
    kept.ready.then(
      (p) => {
        kept.bytes = pairsBytes(p);
        trimPairs();
      },
      () => mine.pairs.delete(width),
    );
    entry.pairs.set(width, kept);
    while (entry.pairs.size > PAIR_WIDTHS) entry.pairs.delete(entry.pairs.keys().next().value as number);
  }
  const bySeller = await pairs.ready;
  const asked = models.map((s) => bySeller[sorted.indexOf(s)]);
  const rows = await chartOf({ kind: 'scatter-answer', models, pairs: asked, fi, width, sample });
  return { width, rows };
}

/** Drops the oldest questions' pairs while the kept ones hold more than PAIRS_BYTES. */
function trimPairs(): void {
  for (const e of scatterEntries.values()) {
    if (scatterIndexBytes() <= PAIRS_BYTES) return;
    for (const w of [...e.pairs.keys()]) if (scatterIndexBytes() > PAIRS_BYTES) e.pairs.delete(w);
  }
}
