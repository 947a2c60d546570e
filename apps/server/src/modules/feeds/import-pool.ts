import { MessageChannel } from 'node:worker_threads';
import type pg from 'pg';
import { moduleBeside, ThreadFailure, task, WorkerPool } from '../../platform/pool/index.js';
import type { ImportConfig, RunHooks, RunRow } from './import.js';
import { type ImportThreadMessage, importRunInThread } from './import-thread.js';
import { requeueRun } from './runs.js';

// Feed import runs off the server's heap (issue 27, "resident memory stays flat"): each run is run whole
// in a thread of the imports pool (platform/pool) with a capped V8 heap (import-thread.ts). Measured on a
// 100,000-item Merchant XML feed (docs/benchmarks.md "feeds"): run on the main thread it allocated about
// 3 GB over the import (the XML parser's tags, the rows, the statements' array parameters, the rows the
// roll-ups read) and held under 40 MB of it, but V8 let the main heap grow by 250–280 MB of garbage
// before its first full collection; in a capped heap V8 collects as it approaches the cap, so the
// process grows by about the cap whatever the feed's size. A feed whose run needs more than the cap
// fails with that reason (not retried: it would need the same again); a thread lost otherwise (the
// server closing) puts the run back in the queue and the job is retried. The database sees a thread's
// end as its connections closing: the run's transaction is rolled back, nothing of it lands.

export interface ImportLimits {
  /** V8 old-generation cap of an import's thread (MB). */
  heapMb: number;
  /** V8 young-generation cap (MB). */
  youngMb: number;
}

const DEFAULT_LIMITS: ImportLimits = { heapMb: 128, youngMb: 16 };

// The thread loads the run through its composition root (modules/feed-import-thread.ts: every roll-up
// registered, as in the server), which re-exports importRunInThread.
const importTask = task(
  moduleBeside(import.meta.url, '../feed-import-thread'),
  'importRunInThread',
  importRunInThread,
);

function poolFor(l: ImportLimits): WorkerPool {
  return new WorkerPool({
    name: 'imports',
    // one import at a time per process (the 'feed-import' queue's concurrency); a few may wait
    threads: 1,
    maxQueue: 4,
    heapMb: l.heapMb,
    youngMb: l.youngMb,
    // the run talks to the main thread through its port while it runs: its event loop must turn
    atomics: 'disabled',
    // a run whose thread died is recorded (out of memory) or queued again by its job, not run twice here
    retryLostThread: false,
    idleTimeoutMs: 30_000,
  });
}

let limits: ImportLimits = { ...DEFAULT_LIMITS };
let importPool = poolFor(limits);

/** Changes the limits (tests force a tiny heap); no argument restores the defaults. */
export function setImportLimits(next?: Partial<ImportLimits>): void {
  const old = importPool;
  limits = { ...DEFAULT_LIMITS, ...next };
  importPool = poolFor(limits);
  old.close().catch(() => {});
}

/** The runs under way (→ their database), to end them when their server closes. */
const active = new Map<AbortController, string>();

/** Ends the runs under way on this database (its server is closing): they go back to the queue. */
export function stopImports(databaseUrl: string): void {
  for (const [controller, url] of active) if (url === databaseUrl) controller.abort();
}

/** Records a run that its thread could not finish (out of memory) as failed with `reason`. */
async function failRun(pool: pg.Pool, runId: number, reason: string, hooks: RunHooks): Promise<RunRow> {
  const { rows } = await pool.query<
    RunRow & { rows_read: number; rows_written: number; rows_rejected: number }
  >(
    `update import_runs set status = 'failed', finished_at = clock_timestamp(), error = $2, rows_written = 0,
            rows_changed = 0, unpublished = 0
      where id = $1 and status in ('queued', 'running')
     returning id, org_id, source_id, seller_id, status, requested_by, attempts, rows_read, rows_written, rows_rejected`,
    [runId, reason],
  );
  const run = rows[0];
  if (!run) {
    const { rows: done } = await pool.query<RunRow>('select * from import_runs where id = $1', [runId]);
    return done[0];
  }
  hooks.onProgress?.(run, {
    rowsRead: run.rows_read,
    rowsWritten: 0,
    rowsRejected: run.rows_rejected,
    status: 'failed',
    error: reason,
  });
  return run;
}

/**
 * Runs (or runs again) one feed import run in a thread of the imports pool: the job's way to run it
 * (jobs.ts) and the bench's. Same outcomes as executeRun (import.ts), plus: a run that needs more heap
 * than the thread's cap is recorded as failed with that reason; a run whose thread was lost or ended
 * (the server closing) goes back to the queue and the error is rethrown (the job is retried).
 */
export async function runImport(
  deps: { pool: pg.Pool; config: ImportConfig },
  runId: number,
  hooks: RunHooks = {},
): Promise<RunRow> {
  const databaseUrl = deps.pool.options.connectionString;
  if (!databaseUrl) throw new Error('feed import: the pool has no connection string');
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: ImportThreadMessage) => {
    if (m.type === 'progress') hooks.onProgress?.(m.run, m.progress);
    else hooks.onStep?.(m.step, m.ms, m.heapUsed);
  });
  // the thread's last messages may arrive after the pool's answer (another port): the port's close,
  // which comes after them (the thread closes its end, or it ended), says that all have arrived
  const closed = new Promise<void>((resolve) => port1.once('close', () => resolve()));
  const settle = async () => {
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000).unref())]);
    port1.close();
  };
  const controller = new AbortController();
  const heapMb = limits.heapMb;
  active.set(controller, databaseUrl);
  try {
    const config: ImportConfig = {
      FETCH_ALLOW_PRIVATE: deps.config.FETCH_ALLOW_PRIVATE,
      FEED_MAX_BYTES: deps.config.FEED_MAX_BYTES,
    };
    const run = await importPool.run(
      importTask,
      [{ databaseUrl, runId, config, steps: Boolean(hooks.onStep) }, port2],
      { signal: controller.signal, transferList: [port2] },
    );
    await settle();
    return run;
  } catch (err) {
    await settle();
    if (err instanceof ThreadFailure && err.kind === 'out_of_memory')
      return failRun(
        deps.pool,
        runId,
        `el feed necesita más memoria de la que tiene el importador (${heapMb} MB); divídalo en varios archivos o impórtelo como fuente parcial`,
        hooks,
      );
    if (err instanceof ThreadFailure) await requeueRun(deps.pool, runId, err);
    throw err;
  } finally {
    active.delete(controller);
  }
}
