import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The API process's resident memory, kept under a soft limit (issue 30, "Memory ≤ 1.5 GB on large").
//
// What it answers: the arrays a request or a warm-up step makes and drops (a pivot's model loaded from its
// saved bytes, a window's priced copy, a chart's columns) are ArrayBuffers outside V8's heap; V8 frees them
// only at its next full collection, which it starts from the heap's own growth, not from the process's
// resident size. On the large market the warm-ups swung the process up to 1,302–1,463 MiB (three runs of
// five over 1.5 × 10⁹ B) and left ~375 MiB of such dead arrays resident for ~26 s after they ended
// (docs/benchmarks.md "large", fifteenth session). So: one full collection once the warm-ups end, and one
// whenever the resident size is over the soft limit (checked every second, at most one per `minGapMs`).
//
// What it does not reach: the pool threads' heaps (chart, export) are collected by their own V8 and are
// capped (platform/pool), and memory that is live. A full collection holds the event loop (~70–110 ms on
// large), so one started by the size waits for a moment without requests (app.ts: a second without any;
// a burst's requests would each wait for it) unless the size is over URGENT × the limit; and while
// collections leave the size over the limit (live memory, which collecting again would not free) the gap
// between them doubles, up to MAX_GAP_MS.

/** The longest gap between two collections started by the size (the live memory is over the limit). */
export const MAX_GAP_MS = 5 * 60_000;

/**
 * Over this multiple of the soft limit a collection does not wait for a moment without requests: with the
 * default limit (1200 MiB) 1,380 MiB = 1.45 × 10⁹ B, under issue 30's 1.5 × 10⁹ B (at 1.25, a run of the
 * rows that never left a quiet second reached 1,500 MiB before its collection freed 109 MiB: sixteenth
 * session).
 */
export const URGENT = 1.15;

/** V8's full collection (`gc()`), exposed once for the process. */
let collector: (() => void) | undefined;
export function fullCollection(): () => void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  return collector;
}

export interface MemoryWatchOptions {
  /** Resident bytes above which a full collection runs (0: no collection at all, not even when asked). */
  softLimitBytes: number;
  /** How often the resident size is read. */
  everyMs?: number;
  /**
   * Whether no request is being answered: a collection started by the size waits for such a moment (it
   * holds the event loop), unless the size is over URGENT × the limit. Default: always.
   */
  idle?: () => boolean;
  /** Least time between two collections started by the size. */
  minGapMs?: number;
  /** Resident bytes now (tests give their own). */
  rss?: () => number;
  /** Runs a full collection (tests give their own). */
  collect?: () => void;
  /**
   * Told of every collection, `everyMs` after it: why, the resident bytes before and then (V8 unmaps the
   * dead arrays' memory on a background thread after the collection), and its milliseconds.
   */
  onCollect?: (c: { reason: string; before: number; after: number; ms: number }) => void;
}

export interface MemoryWatch {
  /**
   * A full collection at the next moment without requests (at once when idle now), whatever the size
   * (e.g. the warm-ups ended); counts for the gap. Only with a soft limit (the check that runs it).
   */
  collectWhenIdle(reason: string): void;
  /** The collections run so far. */
  readonly collections: number;
  stop(): void;
}

export function watchMemory(opts: MemoryWatchOptions): MemoryWatch {
  const everyMs = opts.everyMs ?? 1000;
  const minGapMs = opts.minGapMs ?? 10_000;
  const rss = opts.rss ?? (() => process.memoryUsage.rss());
  const collect = () => (opts.collect ?? fullCollection())(); // (gc exposed at the first collection)
  const idle = opts.idle ?? (() => true);
  let last = Number.NEGATIVE_INFINITY;
  let gap = minGapMs;
  let collections = 0;
  /** A collection whose freeing is not judged yet (V8 frees the dead arrays' memory on a background thread). */
  let judging: NodeJS.Timeout | undefined;
  const run = (reason: string, before: number) => {
    const t = performance.now();
    collect();
    last = performance.now();
    collections++;
    const ms = last - t;
    clearTimeout(judging);
    judging = setTimeout(() => {
      judging = undefined;
      const after = rss();
      // (a collection runs only with a limit: the timer and collectWhenIdle need one)
      gap = after > opts.softLimitBytes ? Math.min(gap * 2, MAX_GAP_MS) : minGapMs;
      opts.onCollect?.({ reason, before, after, ms });
    }, everyMs).unref();
  };
  /** A collection asked for (collectWhenIdle), waiting for a moment without requests. */
  let asked: string | null = null;
  const timer =
    opts.softLimitBytes > 0
      ? setInterval(() => {
          if (judging) return;
          const now = rss();
          if (asked !== null && idle()) {
            run(asked, now);
            asked = null;
            return;
          }
          if (now <= opts.softLimitBytes || performance.now() - last < gap) return;
          if (idle()) run('soft limit', now);
          else if (now > URGENT * opts.softLimitBytes) run('soft limit, under load', now);
        }, everyMs).unref()
      : undefined;
  return {
    collectWhenIdle: (reason) => {
      if (opts.softLimitBytes <= 0) return;
      if (idle() && !judging) run(reason, rss());
      else asked = reason;
    },
    get collections() {
      return collections;
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(judging);
    },
  };
}
