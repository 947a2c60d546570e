import type { FastifyReply } from 'fastify';
import { attachment } from '../../lib/workbook.js';
import { type Task, WorkerPool } from './pool.js';

export {
  moduleBeside,
  type PoolSpec,
  type RunOptions,
  type Task,
  ThreadFailure,
  type ThreadFailureKind,
  task,
  WorkerPool,
} from './pool.js';

/**
 * The pool of the file downloads (every XLSX/CSV answer written in memory, through download() below: image
 * verification, assortment, promotions, product history, a feed run's rejections): ExcelJS runs here, off the event loop, two at a time, eight waiting at
 * most (a burst beyond that is answered 503 with Retry-After at once: a download waits for at most about
 * five others' time), each thread's heap capped.
 */
export const exportPool = new WorkerPool({
  name: 'exports',
  threads: 2,
  maxQueue: 8,
  heapMb: 256,
  youngMb: 32,
  // one thread stays (ExcelJS compiled in it: detail/routes.ts warms it); the second ends when idle
  minThreads: 1,
  idleTimeoutMs: 5 * 60_000,
});

/**
 * An AbortSignal that fires when the client goes away before its answer was sent (the connection closed):
 * its task leaves the pool's queue, or has its thread ended when already running.
 */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  return controller.signal;
}

/** Writes a file in the export pool (a task returning its bytes), abandoned if the client disconnects. */
export type WriteFile = <F extends (...args: never[]) => Buffer | Promise<Buffer>>(
  t: Task<F>,
  ...args: Parameters<F>
) => Promise<Buffer>;

/** What a download answers: the file's bytes, its media type and the name the browser saves it under. */
export interface DownloadFile {
  type: string;
  name: string;
  body: Buffer;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * The one way to answer a file download (every XLSX/CSV written in memory: image verification, assortment,
 * promotions, product history, a feed run's rejections; issue 26 finding 3). The whole download — its SQL
 * and row mapping (`build`), then its file written by `write` in the export pool, off the event loop — runs
 * only when fewer than threads + maxQueue downloads are under way in the process; the others are refused at
 * once with 503 and Retry-After (BusyError, plugins/errors.ts). The answer is private and not stored.
 */
export async function download(
  reply: FastifyReply,
  build: (write: WriteFile) => Promise<DownloadFile>,
): Promise<FastifyReply> {
  const write: WriteFile = (t, ...args) =>
    exportPool.run(t, args, { signal: abortOnDisconnect(reply) }) as Promise<Buffer>;
  const file = await exportPool.withSlot(() => build(write));
  return (
    reply
      .header('content-type', file.type)
      .header('content-disposition', attachment(file.name))
      .header('cache-control', 'private, no-store')
      // a Buffer is sent as is (Fastify does not serialise buffers), outside the JSON schema
      .send(file.body as never)
  );
}

/** Runs a download writer off the event loop a few times, so that each thread has compiled ExcelJS. */
export async function warmExportPool<F extends (...args: never[]) => unknown>(
  t: Task<F>,
  args: Parameters<F>,
  times = 4,
): Promise<void> {
  await Promise.all(Array.from({ length: times }, () => exportPool.run(t, args)));
}
