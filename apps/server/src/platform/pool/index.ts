import type { FastifyReply } from 'fastify';
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
 * The pool of the file downloads (every XLSX/CSV answer written in memory: image verification, assortment,
 * promotions, product history): ExcelJS runs here, off the event loop, two at a time, eight waiting at
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

/**
 * A whole download (its SQL, then its file) under the export pool's bound: at most threads + maxQueue
 * downloads under way in the process, the others refused at once (503 with Retry-After).
 */
export function download<T>(fn: () => Promise<T>): Promise<T> {
  return exportPool.withSlot(fn);
}

/** Writes a download in the export pool, abandoned if the client disconnects. */
export function writeFile<F extends (...args: never[]) => Buffer | Promise<Buffer>>(
  reply: FastifyReply,
  t: Task<F>,
  ...args: Parameters<F>
): Promise<Buffer> {
  return exportPool.run(t, args, { signal: abortOnDisconnect(reply) }) as Promise<Buffer>;
}

/** Runs a download writer off the event loop a few times, so that each thread has compiled ExcelJS. */
export async function warmExportPool<F extends (...args: never[]) => unknown>(
  t: Task<F>,
  args: Parameters<F>,
  times = 4,
): Promise<void> {
  await Promise.all(Array.from({ length: times }, () => exportPool.run(t, args)));
}
