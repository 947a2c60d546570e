import { Piscina } from 'piscina';
import { BusyError } from '../../lib/errors.js';

// One worker-thread pool library for the whole server (issue 24 item 4): charts, report builds and every
// file download run in threads of a Piscina pool (piscina 5 runs on Node 20), never on the event loop.
//
// - Bounded: each pool runs at most `threads` tasks at once and queues at most `maxQueue` more; a task
//   beyond that is refused at once with a BusyError (503 with Retry-After, plugins/errors.ts), never left
//   to wait without limit.
// - Heap limits: each thread has V8's old/young generation capped (`heapMb`, `youngMb`); a task that needs
//   more ends its thread (ERR_WORKER_OUT_OF_MEMORY) and fails with a ThreadFailure of kind
//   'out_of_memory' — the process goes on, and the pool starts another thread.
// - Abort: a task run with an AbortSignal (abortOnDisconnect: the client went away) leaves the queue, or,
//   when running, has its thread ended (a ThreadFailure of kind 'aborted').
// - A thread lost under a task (it exited or crashed, not out of memory, not aborted) is replaced by the
//   pool, and the task is run once more on a fresh thread when the pool allows it (`retryLostThread`);
//   a second loss fails the task (kind 'lost'). There is no fall-back to the event loop: work that is
//   too heavy for a thread is too heavy for the loop every other request shares.
//
// A task is a named export of a module (`task(import.meta.url, 'name', fn)`): every thread runs the
// dispatcher worker.ts, which imports that module once and calls the export with the task's arguments.
// Arguments are structured-cloned (SharedArrayBuffers are shared, not copied; MessagePorts travel in
// `transferList`); a byte result (a file) is transferred back, not copied.

/** A function a pool's threads can run: the export `name` of the module at `module` (a file URL). */
export interface Task<F extends (...args: never[]) => unknown> {
  module: string;
  name: string;
  /** Types only: the function's signature. */
  readonly __fn?: F;
}

/**
 * Declares `fn`, exported as `name` by the module whose `import.meta.url` is `moduleUrl`, as a task for
 * the pools. The name is checked against the function so that a rename cannot break the thread silently.
 */
export function task<F extends (...args: never[]) => unknown>(
  moduleUrl: string,
  name: string,
  fn: F,
): Task<F> {
  if (fn.name !== name) throw new Error(`task ${name}: the function is named ${fn.name}`);
  return { module: moduleUrl, name };
}

/**
 * The URL of the module `./name` beside the module at `moduleUrl`, with the same extension (.ts under the
 * tests, .js built): for a task whose function lives in another file than the one declaring it.
 */
export function moduleBeside(moduleUrl: string, name: string): string {
  return new URL(`${name}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl).href;
}

export interface PoolSpec {
  /** For logs and errors ('charts', 'reports', 'exports'). */
  name: string;
  /** Tasks running at once (threads). */
  threads: number;
  /** Tasks waiting at most; one more is refused (BusyError). */
  maxQueue: number;
  /** V8 old-generation cap of each thread (MB); none by default. */
  heapMb?: number;
  /** V8 young-generation cap of each thread (MB). */
  youngMb?: number;
  /** Threads kept alive while idle (default 0: they end after `idleTimeoutMs`). */
  minThreads?: number;
  idleTimeoutMs?: number;
  /**
   * How an idle thread waits for its next task: 'sync' (Atomics.wait, the lowest latency, for short
   * synchronous tasks) or 'disabled' (its event loop keeps running: tasks that talk through ports).
   */
  atomics?: 'sync' | 'disabled';
  /** Run a task once more when its thread is lost under it (default true). */
  retryLostThread?: boolean;
  /** Retry-After (seconds) of a refused task (default 2). */
  retryAfterSeconds?: number;
}

export type ThreadFailureKind = 'out_of_memory' | 'aborted' | 'lost' | 'closed';

/** A task that did not finish because of its thread, not because of its own code. */
export class ThreadFailure extends Error {
  constructor(
    readonly kind: ThreadFailureKind,
    readonly pool: string,
    readonly heapMb: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  signal?: AbortSignal | null;
  /** Objects moved to the thread rather than copied (MessagePorts, ArrayBuffers). */
  transferList?: readonly Transferable[];
}

type TransferList = NonNullable<Parameters<Piscina['run']>[1]>['transferList'];

/** Where the dispatcher is: built JS beside this file, or under the tests a bootstrap that loads tsx first. */
function dispatcherFile(): string {
  const own = import.meta.url;
  return own.endsWith('.ts') ? new URL('./tsx-worker.mjs', own).href : new URL('./worker.js', own).href;
}

/** A call the dispatcher answers without loading a module (worker.ts). */
const NOOP = { module: '', name: 'noop', args: [] };

const isAbort = (err: unknown) => (err as { name?: string } | null)?.name === 'AbortError';
const isOutOfMemory = (err: unknown) =>
  (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
/** Piscina's words for a task whose thread ended under it. */
const isLost = (err: unknown) =>
  err instanceof Error &&
  !('code' in err && err.code) &&
  /^(worker exited with code|Terminating worker thread)/.test(err.message);

export class WorkerPool {
  readonly spec: Required<Omit<PoolSpec, 'heapMb' | 'youngMb'>> & Pick<PoolSpec, 'heapMb' | 'youngMb'>;
  #piscina: Piscina | null = null;
  #closed = false;
  /** Instances retired after a thread failed outside a task, with that failure. */
  readonly #retired = new WeakMap<Piscina, Error>();
  /** Threads lost under a task since the pool started (tests, logs). */
  lostThreads = 0;

  constructor(spec: PoolSpec) {
    this.spec = {
      minThreads: 0,
      idleTimeoutMs: 30_000,
      atomics: 'sync',
      retryLostThread: true,
      retryAfterSeconds: 2,
      ...spec,
    };
  }

  /** The Piscina pool, started at the first task. */
  #pool(): Piscina {
    if (this.#closed) throw new ThreadFailure('closed', this.spec.name, this.spec.heapMb, 'pool closed');
    if (!this.#piscina) {
      const s = this.spec;
      this.#piscina = new Piscina({
        filename: dispatcherFile(),
        name: 'default',
        minThreads: Math.min(s.minThreads, s.threads),
        maxThreads: s.threads,
        maxQueue: s.maxQueue,
        idleTimeout: s.idleTimeoutMs,
        atomics: s.atomics,
        resourceLimits: {
          ...(s.heapMb ? { maxOldGenerationSizeMb: s.heapMb } : {}),
          ...(s.youngMb ? { maxYoungGenerationSizeMb: s.youngMb } : {}),
        },
      });
      // A thread that fails outside a task (while starting: e.g. a heap cap too small even to load the
      // code) would leave the tasks waiting for it queued for ever, as Piscina then stops starting
      // threads: that instance is retired — its waiting tasks are refused with the thread's error (see
      // run), its running ones finish — and the next task gets a fresh one.
      const piscina = this.#piscina;
      piscina.on('error', (err: Error) => {
        if (this.#piscina === piscina) this.#piscina = null;
        this.#retired.set(piscina, err);
        piscina.close({ force: true }).catch(() => {});
      });
    }
    return this.#piscina;
  }

  #slots = 0;

  /**
   * Runs `fn` — the whole of a request whose heavy part runs in this pool (its SQL, then its task) — only
   * when fewer than `threads + maxQueue` such requests are under way; otherwise refuses at once with a
   * BusyError. So a burst is bounded before its queries, not only at the thread's queue: the rows a
   * download reads and maps on the event loop count too.
   */
  async withSlot<T>(fn: () => Promise<T>): Promise<T> {
    const s = this.spec;
    if (this.#slots >= s.threads + s.maxQueue) throw new BusyError(s.retryAfterSeconds);
    this.#slots++;
    try {
      return await fn();
    } finally {
      this.#slots--;
    }
  }

  /** Tasks waiting for a thread now. */
  get queued(): number {
    return this.#piscina?.queueSize ?? 0;
  }

  /** The pool's threads now (tests end one to prove a lost thread is survived). */
  get threads(): readonly import('node:worker_threads').Worker[] {
    return this.#piscina?.threads ?? [];
  }

  /**
   * Runs `t` with `args` in a thread. Refused with a BusyError when `threads` tasks run and `maxQueue`
   * wait; a ThreadFailure when its thread ran out of heap, was aborted or was lost (twice).
   */
  async run<F extends (...args: never[]) => unknown>(
    t: Task<F>,
    args: Parameters<F>,
    opts: RunOptions = {},
  ): Promise<Awaited<ReturnType<F>>> {
    const s = this.spec;
    for (let attempt = 0; ; attempt++) {
      const piscina = this.#pool();
      try {
        const result = await piscina.run(
          { module: t.module, name: t.name, args },
          { signal: opts.signal ?? null, transferList: opts.transferList as TransferList },
        );
        // a file comes back as bytes moved out of the thread: a Buffer again, without a copy
        return (
          result instanceof Uint8Array && !Buffer.isBuffer(result)
            ? Buffer.from(result.buffer, result.byteOffset, result.byteLength)
            : result
        ) as Awaited<ReturnType<F>>;
      } catch (err) {
        const retired = this.#retired.get(piscina);
        if (retired && isAbort(err) && !opts.signal?.aborted) {
          if (isOutOfMemory(retired))
            throw new ThreadFailure('out_of_memory', s.name, s.heapMb, retired.message);
          this.lostThreads++;
          if (s.retryLostThread && attempt === 0) continue;
          throw new ThreadFailure('lost', s.name, s.heapMb, retired.message);
        }
        // Piscina refuses a task when its queue holds maxQueue tasks (beyond the threads starting)
        if (err instanceof Error && err.message === 'Task queue is at limit') {
          throw new BusyError(s.retryAfterSeconds);
        }
        if (isAbort(err)) {
          this.#afterAbort(piscina);
          throw new ThreadFailure('aborted', s.name, s.heapMb, 'aborted');
        }
        if (isOutOfMemory(err)) {
          throw new ThreadFailure('out_of_memory', s.name, s.heapMb, (err as Error).message);
        }
        if (this.#closed) throw new ThreadFailure('closed', s.name, s.heapMb, 'pool closed');
        if (isLost(err)) {
          this.lostThreads++;
          if (s.retryLostThread && attempt === 0) continue;
          throw new ThreadFailure('lost', s.name, s.heapMb, (err as Error).message);
        }
        throw err;
      }
    }
  }

  /**
   * Piscina ends the thread of an aborted running task but starts no other one for the tasks still
   * waiting (it only keeps `minThreads`, 0 here): they would wait for ever. A no-op task submitted now makes
   * it start a thread, which then takes the waiting tasks in order; when even that is refused (the queue is
   * full), the instance is retired as after a thread's failure, so its waiting tasks run again on a fresh one.
   */
  #afterAbort(piscina: Piscina): void {
    queueMicrotask(() => {
      if (this.#closed || this.#piscina !== piscina || piscina.queueSize === 0) return;
      if (piscina.threads.length >= this.spec.threads) return;
      piscina.run(NOOP).catch((err: unknown) => {
        if (this.#piscina !== piscina || this.#retired.has(piscina)) return;
        this.#piscina = null;
        this.#retired.set(piscina, err instanceof Error ? err : new Error(String(err)));
        piscina.close({ force: true }).catch(() => {});
      });
    });
  }

  /** Ends every thread (running tasks fail with kind 'closed'); the pool refuses tasks afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    const p = this.#piscina;
    this.#piscina = null;
    await p?.destroy();
  }
}
