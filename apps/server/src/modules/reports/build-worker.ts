import type { MessagePort } from 'node:worker_threads';
import { createPool } from '../../db/database.js';
import { type ReportParams, reportBuilder } from './builders.js';
import { openRowSink, type RowSink } from './writer.js';

// The body of a report build, run in a thread of the reports pool (build-pool.ts, platform/pool, a capped
// heap): it opens a small pool on the same database, reads the report's rows in keyset batches
// (builders.ts) and streams them into the file (writer.ts), telling the main thread what it did through
// `port`. The main thread owns the task's row and the exporter channel; this thread only reads the market
// and writes the file. It starts only when the main thread says 'go' (the task is 'running' from then).
// A failure it can catch is sent as a message (and the partial file deleted); anything worse (out of
// memory, a crash) ends the thread and the main thread records it.

export interface BuildJob {
  databaseUrl: string;
  params: ReportParams;
  path: string;
  /** Shortest interval between two progress messages. */
  progressEveryMs: number;
}

export type BuildMessage =
  | { type: 'turn' }
  | { type: 'start'; total: number }
  | { type: 'progress'; done: number }
  | { type: 'done'; rows: number; bytes: number }
  | { type: 'error'; message: string };

/** The main thread's answer to 'turn'. */
export type BuildGo = { go: boolean };

export async function buildReport(job: BuildJob, port: MessagePort): Promise<void> {
  const post = (m: BuildMessage) => port.postMessage(m);
  try {
    const go = new Promise<BuildGo>((resolve) => port.once('message', resolve));
    post({ type: 'turn' });
    if ((await go).go) await build(job, post);
  } finally {
    port.close();
  }
}

async function build(job: BuildJob, post: (m: BuildMessage) => void): Promise<void> {
  const pool = createPool(job.databaseUrl, 2);
  let sink: RowSink | null = null;
  try {
    const p = job.params;
    const builder = await reportBuilder(pool, p);
    post({ type: 'start', total: builder.total });
    sink = await openRowSink({
      path: job.path,
      format: p.format,
      sheetName: builder.sheetName,
      columns: builder.columns,
      currency: p.currency,
    });
    let done = 0;
    let last = Date.now();
    for await (const batch of builder.batches()) {
      await sink.write(batch);
      done += batch.length;
      if (Date.now() - last >= job.progressEveryMs) {
        last = Date.now();
        post({ type: 'progress', done });
      }
    }
    const bytes = await sink.finish();
    sink = null;
    post({ type: 'done', rows: done, bytes });
  } catch (err) {
    await sink?.abort().catch(() => {});
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  } finally {
    await pool.end().catch(() => {});
  }
}
