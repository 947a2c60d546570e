import { rm } from 'node:fs/promises';
import { MessageChannel } from 'node:worker_threads';
import { moduleBeside, ThreadFailure, task, WorkerPool } from '../../platform/pool/index.js';
import { type BuildJob, type BuildMessage, buildReport } from './build-worker.js';

// Report builds off the server's event loop (docs/architecture.md "Reports"): each build runs in a thread
// of the reports pool (platform/pool) with a capped heap, at most `concurrency` at once in this process
// (the others wait their turn in the pool's bounded queue, their task still 'queued'). The cap bounds what
// one report can take from the server: a build that needs more is ended by V8 (ERR_WORKER_OUT_OF_MEMORY)
// and recorded as a failed task; the server goes on. The thread's memory is the process's: the RSS that
// matters is the server's, main thread and builds together.

export interface BuildLimits {
  /** V8 old-generation cap of one build's thread (MB). */
  heapMb: number;
  /** V8 young-generation cap (MB). */
  youngMb: number;
  /** Builds running at once in this process. */
  concurrency: number;
  /** Builds waiting for a thread at most (one more fails its job, which is retried later). */
  maxQueue: number;
}

const DEFAULT_LIMITS: BuildLimits = { heapMb: 192, youngMb: 16, concurrency: 2, maxQueue: 32 };

const buildTask = task(moduleBeside(import.meta.url, './build-worker'), 'buildReport', buildReport);

function poolFor(limits: BuildLimits): WorkerPool {
  return new WorkerPool({
    name: 'reports',
    threads: limits.concurrency,
    maxQueue: limits.maxQueue,
    heapMb: limits.heapMb,
    youngMb: limits.youngMb,
    // a build talks to the main thread through its port while it runs: its event loop must turn
    atomics: 'disabled',
    // a build whose thread died is recorded as failed, not run twice
    retryLostThread: false,
  });
}

let limits: BuildLimits = { ...DEFAULT_LIMITS };
let buildPool = poolFor(limits);

/** Changes the limits (tests force a tiny heap); no argument restores the defaults. */
export function setBuildLimits(next?: Partial<BuildLimits>): void {
  const old = buildPool;
  limits = { ...DEFAULT_LIMITS, ...next };
  buildPool = poolFor(limits);
  old.close().catch(() => {});
}

export type BuildOutcome = { ok: true; rows: number; bytes: number } | { ok: false; reason: string };

/** The builds running or waiting now (→ their database), to end them when their server closes. */
const active = new Map<AbortController, string>();

/** Ends the running builds on this database (its server is closing); their tasks are recorded as failed. */
export async function stopBuilds(databaseUrl: string): Promise<void> {
  for (const [controller, url] of active) if (url === databaseUrl) controller.abort();
}

/** Spanish reason of a build whose thread ended without telling its outcome. */
function crashReason(err: unknown, heapMb: number): string {
  if (err instanceof ThreadFailure) {
    if (err.kind === 'aborted' || err.kind === 'closed') return 'el servidor se detuvo mientras se generaba';
    if (err.kind === 'out_of_memory')
      return `el reporte necesita más memoria de la disponible para generarlo (${heapMb} MB); pida un rango de fechas más corto o menos eCommerce`;
    return `el proceso de generación se detuvo inesperadamente (${err.message})`;
  }
  return `el proceso de generación falló (${err instanceof Error ? err.message : String(err)})`;
}

/**
 * Builds one report file in a thread of the reports pool (waiting for a free turn first). `onTurn` is
 * called when the build has its thread (the task turns 'running' then; an error there cancels the build
 * and is thrown), `onStart` when the thread knows the row total, `onProgress` with the rows written so
 * far; all may be async and are awaited in order before the outcome is returned. A failed build leaves
 * no file. A full queue throws a BusyError (the job is tried again later, its task still 'queued').
 */
export async function buildInWorker(
  job: Omit<BuildJob, 'progressEveryMs'> & { progressEveryMs?: number },
  on: {
    onTurn?: () => Promise<void>;
    onStart?: (total: number) => Promise<void>;
    onProgress?: (done: number) => Promise<void>;
  },
): Promise<BuildOutcome> {
  const { port1, port2 } = new MessageChannel();
  const controller = new AbortController();
  const heapMb = limits.heapMb;
  active.set(controller, job.databaseUrl);
  // Messages are handled one after the other (a progress write never overtakes the start's).
  let chain: Promise<void> = Promise.resolve();
  let told: BuildOutcome | null = null;
  let refused: unknown = null;
  let turned = false;
  port1.on('message', (m: BuildMessage) => {
    chain = chain.then(async () => {
      if (m.type === 'turn') {
        turned = true;
        try {
          await on.onTurn?.();
          port1.postMessage({ go: true });
        } catch (err) {
          refused = err;
          port1.postMessage({ go: false });
        }
      } else if (m.type === 'start') await on.onStart?.(m.total);
      else if (m.type === 'progress') await on.onProgress?.(m.done);
      else if (m.type === 'done') told = { ok: true, rows: m.rows, bytes: m.bytes };
      else told = { ok: false, reason: m.message };
    });
  });
  // the thread's last messages may arrive after the pool's answer (another port): the port's close,
  // which comes after them (the thread closes its end, or it ended), says that all have arrived
  const closed = new Promise<void>((resolve) => port1.once('close', () => resolve()));
  let crash: unknown = null;
  try {
    await buildPool.run(buildTask, [{ progressEveryMs: 250, ...job }, port2], {
      signal: controller.signal,
      transferList: [port2],
    });
  } catch (err) {
    crash = err;
  } finally {
    active.delete(controller);
  }
  if (turned || crash instanceof ThreadFailure) {
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000).unref())]);
  }
  port1.close();
  await chain;
  if (refused) throw refused;
  if (!turned) {
    // Refused by a full queue, or stopped while waiting: nothing to record, the job is tried again.
    if (!(crash instanceof ThreadFailure) || crash.kind === 'aborted' || crash.kind === 'closed') throw crash;
    // A thread that could not even start (e.g. out of memory while loading): the task fails with the reason.
    await on.onTurn?.();
  }
  const outcome: BuildOutcome = (told as BuildOutcome | null) ?? {
    ok: false,
    reason: crashReason(crash, heapMb),
  };
  if (!outcome.ok) await rm(job.path, { force: true });
  return outcome;
}
