import { afterAll, describe, expect, it } from 'vitest';
import { BusyError } from '../../lib/errors.js';
import * as tasks from '../../test/pool-tasks.js';
import { ThreadFailure, task, WorkerPool } from './index.js';

// The worker-thread pool library (issue 24 item 4) with real threads: bounded queue, heap cap, abort,
// lost threads, shared memory in and bytes out.

const at = new URL('../../test/pool-tasks.ts', import.meta.url).href;
const t = {
  double: task(at, 'double', tasks.double),
  spin: task(at, 'spin', tasks.spin),
  crashOnce: task(at, 'crashOnce', tasks.crashOnce),
  crash: task(at, 'crash', tasks.crash),
  allocate: task(at, 'allocate', tasks.allocate),
  bytes: task(at, 'bytes', tasks.bytes),
  sumShared: task(at, 'sumShared', tasks.sumShared),
  fails: task(at, 'fails', tasks.fails),
};

const pools: WorkerPool[] = [];
const poolOf = (spec: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) => {
  const p = new WorkerPool({ name: 'test', threads: 1, maxQueue: 4, ...spec });
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('the worker pool', () => {
  it('runs a task in a thread; bytes come back as a Buffer, shared memory is not copied', async () => {
    const p = poolOf({ threads: 2 });
    expect(await p.run(t.double, [21])).toBe(42);
    const file = await p.run(t.bytes, [100_000, 7]);
    expect(Buffer.isBuffer(file)).toBe(true);
    expect(file.length).toBe(100_000);
    expect(file[99_999]).toBe(7);
    const column = new Float64Array(new SharedArrayBuffer(8 * 1000)).fill(2);
    expect(await p.run(t.sumShared, [column])).toBe(2000);
    expect(column[0]).toBe(-1); // the thread wrote into the caller's memory
  });

  it('refuses a task beyond its queue at once with a BusyError (503, Retry-After), and runs the others', async () => {
    const p = poolOf({ threads: 1, maxQueue: 2, retryAfterSeconds: 3 });
    const accepted = [p.run(t.spin, [300, 1]), p.run(t.spin, [10, 2]), p.run(t.spin, [10, 3])];
    await new Promise((r) => setTimeout(r, 50)); // the first one is running, two wait
    const started = Date.now();
    const refused = await p.run(t.spin, [10, 4]).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(100);
    expect(refused).toBeInstanceOf(BusyError);
    expect((refused as BusyError).statusCode).toBe(503);
    expect((refused as BusyError).retryAfterSeconds).toBe(3);
    expect(await Promise.all(accepted)).toEqual([1, 2, 3]);
  });

  it('fails a task that needs more than its heap cap as out of memory, and the pool goes on', async () => {
    const p = poolOf({ heapMb: 16, youngMb: 4 });
    const err = await p.run(t.allocate, [256]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThreadFailure);
    expect((err as ThreadFailure).kind).toBe('out_of_memory');
    expect((err as ThreadFailure).heapMb).toBe(16);
    expect(await p.run(t.double, [5])).toBe(10);
  });

  it('fails the waiting tasks, not hangs them, when a thread cannot even start within its heap cap', async () => {
    const p = poolOf({ threads: 2, heapMb: 2, youngMb: 1 });
    const errs = await Promise.all(
      [p.run(t.double, [1]), p.run(t.double, [2]), p.run(t.double, [3])].map((r) =>
        r.catch((e: unknown) => e),
      ),
    );
    for (const e of errs) {
      expect(e).toBeInstanceOf(ThreadFailure);
      expect((e as ThreadFailure).kind).toBe('out_of_memory');
    }
  });

  // Piscina ends the aborted task's thread but starts none for the waiting task c (minThreads 0): the pool
  // has to make it start one (pool.ts #afterAbort), or c waits for ever.
  it('abandons a waiting task and ends a running one when their signal aborts', async () => {
    const p = poolOf();
    const running = new AbortController();
    const waiting = new AbortController();
    const started = Date.now();
    const a = p.run(t.spin, [20_000, 1], { signal: running.signal }).catch((e: unknown) => e);
    const b = p.run(t.spin, [20_000, 2], { signal: waiting.signal }).catch((e: unknown) => e);
    const c = p.run(t.double, [4]);
    await new Promise((r) => setTimeout(r, 200));
    waiting.abort();
    running.abort();
    for (const e of await Promise.all([a, b])) {
      expect(e).toBeInstanceOf(ThreadFailure);
      expect((e as ThreadFailure).kind).toBe('aborted');
    }
    expect(await c).toBe(8); // the thread that was ended is replaced
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('survives a thread that dies under a task: the task runs once more on a fresh thread', async () => {
    const p = poolOf({ threads: 2 });
    const flag = new Int32Array(new SharedArrayBuffer(4));
    expect(await p.run(t.crashOnce, [flag])).toBe('again');
    expect(flag[0]).toBe(2);
    expect(p.lostThreads).toBe(1);

    // a thread ended from outside while it computes (as a crash of the thread would)
    const long = p.run(t.spin, [1500, 5]);
    await new Promise((r) => setTimeout(r, 300));
    const busy = p.threads;
    expect(busy.length).toBeGreaterThan(0);
    await Promise.all(busy.map((w) => w.terminate()));
    expect(await long).toBe(5);
    expect(p.lostThreads).toBe(2);

    // a task that kills every thread it runs in fails after its second thread, with its reason
    const err = await p.run(t.crash, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThreadFailure);
    expect((err as ThreadFailure).kind).toBe('lost');
    expect(await p.run(t.double, [1])).toBe(2);
  });

  it("passes a task's own error through unchanged (not a thread failure)", async () => {
    const p = poolOf();
    const err = await p.run(t.fails, ['sin datos']).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(ThreadFailure);
    expect((err as Error).message).toBe('sin datos');
  });
});
