import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { workerSpec } from '../../lib/worker-spec.js';
import type { BuildJob, BuildMessage } from './build-worker.js';

// Report builds off the server's event loop (docs/architecture.md "Reports"): each build runs in a
// worker thread of its own (build-worker.ts) with a capped heap, at most `concurrency` at once in this
// process (the others wait their turn, their task still 'queued'). The cap bounds what one report can
// take from the server: a build that needs more is ended by V8 (ERR_WORKER_OUT_OF_MEMORY) and recorded
// as a failed task; the server goes on. The thread's memory is the process's: the RSS that matters is
// the server's, main thread and builds together.

export interface BuildLimits {
  /** V8 old-generation cap of one build's thread (MB). */
  heapMb: number;
  /** V8 young-generation cap (MB). */
  youngMb: number;
  /** Builds running at once in this process. */
  concurrency: number;
}

const DEFAULT_LIMITS: BuildLimits = { heapMb: 192, youngMb: 16, concurrency: 2 };
let limits: BuildLimits = { ...DEFAULT_LIMITS };

/** Changes the limits (tests force a tiny heap); no argument restores the defaults. */
export function setBuildLimits(next?: Partial<BuildLimits>): void {
  limits = { ...DEFAULT_LIMITS, ...next };
}

export type BuildOutcome = { ok: true; rows: number; bytes: number } | { ok: false; reason: string };

// ───────────────────────────── turns ─────────────────────────────

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= limits.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.();
  };
}

// ───────────────────────────── threads ─────────────────────────────

/** The threads running now (→ their database), to end them when their server closes. */
const active = new Map<Worker, string>();
const stopped = new WeakSet<Worker>();

/** Ends the running builds on this database (its server is closing); their tasks are recorded as failed. */
export async function stopBuilds(databaseUrl: string): Promise<void> {
  const ending = [...active].filter(([, url]) => url === databaseUrl).map(([w]) => w);
  for (const w of ending) stopped.add(w);
  await Promise.all(ending.map((w) => w.terminate()));
}

/** Spanish reason of a thread that ended without telling its outcome. */
function crashReason(
  worker: Worker,
  err: (Error & { code?: string }) | null,
  code: number,
  heapMb: number,
): string {
  if (stopped.has(worker)) return 'el servidor se detuvo mientras se generaba';
  if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return `el reporte necesita más memoria de la disponible para generarlo (${heapMb} MB); pida un rango de fechas más corto o menos eCommerce`;
  if (err) return `el proceso de generación falló (${err.message})`;
  return `el proceso de generación se detuvo inesperadamente (código ${code})`;
}

/**
 * Builds one report file in a worker thread (waiting for a free turn first). `onStart` is called when
 * the thread knows the row total (the task turns 'running' at `onTurn`), `onProgress` with the rows
 * written so far; both may be async and are awaited in order before the outcome is returned. A failed
 * build leaves no file.
 */
export async function buildInWorker(
  job: Omit<BuildJob, 'progressEveryMs'> & { progressEveryMs?: number },
  on: {
    onTurn?: () => Promise<void>;
    onStart?: (total: number) => Promise<void>;
    onProgress?: (done: number) => Promise<void>;
  },
): Promise<BuildOutcome> {
  const release = await turn();
  try {
    await on.onTurn?.();
    const { heapMb, youngMb } = limits;
    const spec = workerSpec(import.meta.url, 'build-worker');
    const worker = new Worker(spec.file, {
      eval: spec.eval,
      workerData: { progressEveryMs: 250, ...job } satisfies BuildJob,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngMb },
      stdout: false,
      stderr: false,
    });
    active.set(worker, job.databaseUrl);
    // Messages are handled one after the other (a progress write never overtakes the start's).
    let chain: Promise<void> = Promise.resolve();
    let told: BuildOutcome | null = null;
    let crash: Error | null = null;
    worker.on('message', (m: BuildMessage) => {
      chain = chain.then(async () => {
        if (m.type === 'start') await on.onStart?.(m.total);
        else if (m.type === 'progress') await on.onProgress?.(m.done);
        else if (m.type === 'done') told = { ok: true, rows: m.rows, bytes: m.bytes };
        else told = { ok: false, reason: m.message };
      });
    });
    worker.on('error', (err) => {
      crash = err;
    });
    const code = await new Promise<number>((resolve) => worker.once('exit', resolve));
    active.delete(worker);
    await chain;
    const outcome: BuildOutcome = (told as BuildOutcome | null) ?? {
      ok: false,
      reason: crashReason(worker, crash as Error | null, code, heapMb),
    };
    if (!outcome.ok) await rm(job.path, { force: true });
    return outcome;
  } finally {
    release();
  }
}
