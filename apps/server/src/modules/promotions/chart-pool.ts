import { moduleBeside, task, WorkerPool } from '../../platform/pool/index.js';
import { type ChartJob, type ChartResult, computeChart } from './charts.js';
import type { ScatterRow, WindowScope } from './distribution.js';
import { dateGroups, leafGroups, RUNNING, type SellerSpans } from './model.js';
import type { TypePricesRow } from './queries.js';
import type { RangeIndex } from './range-index.js';
import { fromIndex, pairsBytes, type ScatterIndex, type ScatterPairs } from './scatter-index.js';
import { type TypeIndex, typeFromIndex } from './type-index.js';

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
      job.kind === 'range' || job.kind === 'range-index' || job.kind === 'range-answer'
        ? { sellerId, n, groups: leafGroups(s) }
        : job.kind === 'type' || job.kind === 'type-index'
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

// The scatter plot, the type averages and the range chart of a window ending on or after the copies' latest
// first day (scatter-index.ts, type-index.ts, range-index.ts): what every first day needs is built once by a
// thread and kept here, in shared memory, per question (the sellers, the asked leaves and currency); each
// request then only reads its first day's part. A value built from other copies (a run refreshed them:
// their versions) or other factors of the promotions' first days (compared whole) is replaced, not kept
// beside. Kept for the scatter plot: the last SCATTER_QUESTIONS questions and per question the pairs of
// PAIR_WIDTHS widths, within PAIRS_BYTES in all (8 bytes a (listing, bucket) pair: 14 MB for all roots and
// every seller on the large market, 1.75 M pairs of 4.7 M promotions); for the type averages the last
// TYPE_QUESTIONS (7 sums per seller, asked classification, price type and last day: ~5 MB for all roots on
// large); for the range chart the last RANGE_QUESTIONS (one classification each: ≤ 7 bytes a promotion of
// a bin whose prices differ, and 4 per seller, price bin and last day).

const SCATTER_QUESTIONS = 4;
const PAIR_WIDTHS = 2;
const PAIRS_BYTES = 96 * 2 ** 20;
const TYPE_QUESTIONS = 4;
const RANGE_QUESTIONS = 12;

/** A question of a window ending on or after every copy's latest run day. */
interface LatestQuestion {
  /** the copies in seller order (each pivot lists itself first: one question whatever the order) */
  sorted: SellerSpans[];
  /** the sellers and zone, the asked leaves and currency: one entry each */
  key: string;
  /** what the entry's value was built from besides: the copies' versions and sizes, the axis' first day */
  copies: string;
  /** the factors of `scope.fx` from day0 to the copies' latest run day */
  factors: Float64Array;
}

/** The question of `scope` when its window ends on or after every copy's latest run day, else null. */
function latestQuestion(models: SellerSpans[], scope: WindowScope): LatestQuestion | null {
  let lastRun = -1;
  for (const s of models) {
    if (!s.n) continue;
    if (s.lastRunDay === null) return null;
    lastRun = Math.max(lastRun, s.lastRunDay);
  }
  if (lastRun < 0 || scope.to < lastRun || lastRun >= RUNNING) return null;
  const sorted = [...models].sort((a, b) => a.sellerId - b.sellerId);
  const sellers = sorted.map((s) => `${s.sellerId}:${s.zone}`);
  const copies = `${scope.day0}|${sorted.map((s) => `${s.version}:${s.n}`)}`;
  const days = lastRun - scope.day0 + 1;
  const currencies = scope.fx.length / scope.span;
  const factors = new Float64Array(currencies * days);
  for (let c = 0; c < currencies; c++)
    factors.set(scope.fx.subarray(c * scope.span, c * scope.span + days), c * days);
  return { sorted, key: `${sellers}|${scope.leaves}|${scope.fxKey}`, copies, factors };
}

/** Equal factors, NaN (no rate) equal to NaN. */
function sameFactors(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/** A question's kept value: built from its second ask (`ready`), `done` once built. */
interface Kept<V> {
  copies: string;
  factors: Float64Array;
  asks: number;
  ready?: Promise<V>;
  done?: V;
}

/**
 * What is kept per question: the last `max` asked (the least recently asked goes first). A question's
 * value is built from its second ask — a question asked once (a memoised screen's window) costs nothing —
 * and until it is built its requests are answered over the window's promotions, as before: a first
 * answer is never slower than that pass (the build runs beside it, on the other thread).
 */
class KeptQuestions<V, E extends Kept<V>> {
  readonly entries = new Map<string, E>();
  constructor(private readonly max: number) {}

  /** The question's entry (`make`: a new one); `build` starts at its second ask (failing: the next retries). */
  get(q: LatestQuestion, make: () => E, build: () => Promise<V>): E {
    let entry = this.entries.get(q.key);
    // built from other copies (a run refreshed them) or other factors: replaced, not kept beside
    if (entry && (entry.copies !== q.copies || !sameFactors(entry.factors, q.factors))) entry = undefined;
    // (a kept entry is set again below, as the most recent)
    if (entry) this.entries.delete(q.key);
    else entry = make();
    const e = entry;
    if (++e.asks >= 2 && !e.ready) {
      e.ready = build();
      e.ready.then(
        (value) => {
          e.done = value;
        },
        () => {
          e.ready = undefined; // built again at the next ask
        },
      );
    }
    this.entries.set(q.key, e);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return e;
  }
}

interface ScatterEntry extends Kept<ScatterIndex> {
  pairs: Map<number, { ready: Promise<ScatterPairs[]>; done?: ScatterPairs[]; bytes: number }>;
}

const scatterKept = new KeptQuestions<ScatterIndex, ScatterEntry>(SCATTER_QUESTIONS);
const typeKept = new KeptQuestions<TypeIndex, Kept<TypeIndex>>(TYPE_QUESTIONS);
const rangeKept = new KeptQuestions<RangeIndex, Kept<RangeIndex>>(RANGE_QUESTIONS);

/** Answers given from a kept index (tests: the indexes were used). */
export const keptAnswers = { scatter: 0, type: 0, range: 0 };

/** Forgets the kept indexes (tests). */
export function clearScatterIndexes(): void {
  scatterKept.entries.clear();
  typeKept.entries.clear();
  rangeKept.entries.clear();
}

/** The kept scatter pairs' bytes (tests, docs). */
export function scatterIndexBytes(): number {
  let n = 0;
  for (const e of scatterKept.entries.values()) for (const p of e.pairs.values()) n += p.bytes;
  return n;
}

/** How many scatter questions are kept (tests). */
export const scatterQuestions = () => scatterKept.entries.size;

/** How many type and range indexes are kept built (tests). */
export const typeIndexes = () => [...typeKept.entries.values()].filter((e) => e.done).length;
export const rangeIndexes = () => [...rangeKept.entries.values()].filter((e) => e.done).length;

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
  const q = latestQuestion(models, scope);
  if (!q) return whole();
  const entry = scatterKept.get(
    q,
    () => ({ copies: q.copies, factors: q.factors, asks: 0, pairs: new Map() }),
    () => chartOf({ kind: 'scatter-index', models: q.sorted, scope }),
  );
  const index = entry.done;
  if (!index || scope.to < index.maxFirst) return whole();
  const fi = fromIndex(index, scope.from);
  const width = index.widths[fi];
  let pairs = entry.pairs.get(width);
  if (!pairs) {
    const kept: { ready: Promise<ScatterPairs[]>; done?: ScatterPairs[]; bytes: number } = {
      ready: chartOf({ kind: 'scatter-pairs', models: q.sorted, scope, width, index }),
      bytes: 0,
    };
    pairs = kept;
    kept.ready.then(
      (p) => {
        kept.done = p;
        kept.bytes = pairsBytes(p);
        trimPairs();
      },
      () => entry.pairs.delete(width),
    );
    entry.pairs.set(width, kept);
    while (entry.pairs.size > PAIR_WIDTHS) entry.pairs.delete(entry.pairs.keys().next().value as number);
  }
  const bySeller = pairs.done;
  if (!bySeller) return whole();
  const asked = models.map((s) => bySeller[q.sorted.indexOf(s)]);
  const rows = await chartOf({ kind: 'scatter-answer', models, pairs: asked, fi, width, sample });
  keptAnswers.scatter++;
  return { width, rows };
}

/** Drops the oldest questions' pairs while the kept ones hold more than PAIRS_BYTES. */
function trimPairs(): void {
  for (const e of scatterKept.entries.values()) {
    if (scatterIndexBytes() <= PAIRS_BYTES) return;
    for (const w of [...e.pairs.keys()]) if (scatterIndexBytes() > PAIRS_BYTES) e.pairs.delete(w);
  }
}

/**
 * The type averages (distribution.ts typeChart) of `scope` over the copies `models`: from the kept sums
 * when the window ends on or after every copy's latest run day, else computed over the window's promotions.
 */
export async function typeOf(models: SellerSpans[], scope: WindowScope): Promise<TypePricesRow[]> {
  const whole = () => chartOf({ kind: 'type', models, scope });
  const q = latestQuestion(models, scope);
  if (!q) return whole();
  const entry = typeKept.get(
    q,
    () => ({ copies: q.copies, factors: q.factors, asks: 0 }),
    () => chartOf({ kind: 'type-index', models: q.sorted, scope }),
  );
  const index = entry.done;
  if (!index || scope.to < index.maxFirst) return whole();
  const sums = models.map((s) => index.sums[q.sorted.indexOf(s)]);
  keptAnswers.type++;
  return typeFromIndex(models, { ...index, sums }, fromIndex(index, scope.from));
}

/**
 * The range chart (distribution.ts rangeChart) of `scope` over the copies `models`: from the kept bins when
 * the window ends on or after every copy's latest run day, else computed over the window's promotions.
 */
export async function rangeOf(models: SellerSpans[], scope: WindowScope, ranges: number) {
  const whole = () => chartOf({ kind: 'range', models, scope, ranges });
  const q = latestQuestion(models, scope);
  if (!q) return whole();
  const entry = rangeKept.get(
    q,
    () => ({ copies: q.copies, factors: q.factors, asks: 0 }),
    () => chartOf({ kind: 'range-index', models: q.sorted, scope }),
  );
  const index = entry.done;
  if (!index || scope.to < index.maxFirst) return whole();
  keptAnswers.range++;
  return chartOf({
    kind: 'range-answer',
    models: q.sorted,
    scope,
    index,
    fi: fromIndex(index, scope.from),
    ranges,
  }).then((r) => ({
    points: r.points,
    // in the asked sellers' order, as rangeChart gives them
    counts: models.flatMap((s) => r.counts.filter((c) => c.seller_id === s.sellerId)),
  }));
}
