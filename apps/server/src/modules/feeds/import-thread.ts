import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { createPool } from '../../db/database.js';
import { executeRun, type ImportConfig, type Progress, type RunRow } from './import.js';

// The body of a feed import run, in a thread of the imports pool (import-pool.ts, platform/pool, a capped
// heap; the thread loads it through modules/feed-import-thread.ts, which registers every roll-up): it opens a small pool on the same database and runs the whole import there (download, streamed
// parse, the one ingest transaction with every roll-up, the run's record), telling the main thread its
// progress (and, for the bench, the time of each ingest step) through `port`. What an import allocates —
// the parser's events, the rows, the statements' parameters, the rows the roll-ups read — is collected
// in that small heap, so the server's resident memory grows by about the cap, whatever the feed's size.
// The thread's pool ends with the run: the process-wide caches of ingest (the seller's listing states,
// category ids) live and die with it, and the next run reads them again (one query).

export interface ImportThreadJob {
  databaseUrl: string;
  runId: number;
  config: ImportConfig;
  /** Send the time of each ingest step (IngestOptions.onStep: the bench's profile). */
  steps: boolean;
}

export type ImportThreadMessage =
  | {
      type: 'progress';
      run: RunRow;
      progress: Progress & { status: RunRow['status']; error: string | null };
    }
  /** `heapUsed`: the thread's heap in use at the step's end (bytes). */
  | { type: 'step'; step: string; ms: number; heapUsed: number };

export async function importRunInThread(job: ImportThreadJob, port: MessagePort): Promise<RunRow> {
  const post = (m: ImportThreadMessage) => port.postMessage(m);
  // two connections: the run's transaction, and its progress written beside it
  const pool = createPool(job.databaseUrl, 2);
  try {
    return await executeRun({ pool, config: job.config }, job.runId, {
      onProgress: (run, progress) => post({ type: 'progress', run, progress }),
      onStep: job.steps
        ? (step, ms) => post({ type: 'step', step, ms, heapUsed: getHeapStatistics().used_heap_size })
        : undefined,
    });
  } finally {
    await pool.end().catch(() => {});
    // the main thread reads the messages up to the port's close (they may arrive after the task's answer)
    port.close();
  }
}
