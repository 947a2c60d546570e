import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../config.js';
import { type Database, withTransaction } from '../../db/database.js';
import { createTestContext, createTestDatabase } from '../../test/context.js';
import {
  backoffMs,
  enqueue,
  getJob,
  type JobLogger,
  JobWorker,
  type JobWorkerOptions,
  registerJobHandler,
  unregisterJobHandler,
  waitForJob,
} from './queue.js';

let db: Database;
let config: Config;
const workers: JobWorker[] = [];
const quiet: JobLogger = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  db = await createTestDatabase();
  config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'vigia-jobs-')),
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
  });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await db?.close();
  if (config) rmSync(config.DATA_DIR, { recursive: true, force: true });
});

function startWorker(opts: Partial<JobWorkerOptions> = {}): JobWorker {
  const worker = new JobWorker({ pool: db.pool, config, log: quiet, pollMs: 50, backoffBaseMs: 20, ...opts });
  workers.push(worker);
  worker.start();
  return worker;
}

/** A queue name of its own per test: the handler registry is process-wide. */
const queueName = () => `test-${randomBytes(4).toString('hex')}`;

describe('job queue', () => {
  it('runs a job and marks it succeeded', async () => {
    const queue = queueName();
    const seen: { payload: unknown; attempt: number; maxAttempts: number }[] = [];
    registerJobHandler<{ n: number }>(queue, async (payload, ctx) => {
      seen.push({ payload, attempt: ctx.job.attempt, maxAttempts: ctx.job.maxAttempts });
    });
    startWorker();
    const id = await enqueue(db.pool, queue, { n: 7 }, { maxAttempts: 3 });
    const job = await waitForJob(db.pool, id);
    expect(job).toMatchObject({ status: 'succeeded', attempts: 1, last_error: null, locked_by: null });
    expect(job.finished_at).toBeInstanceOf(Date);
    expect(seen).toEqual([{ payload: { n: 7 }, attempt: 1, maxAttempts: 3 }]);
    unregisterJobHandler(queue);
  });

  it('retries a failed attempt with backoff and records the error', async () => {
    const queue = queueName();
    const runs: number[] = [];
    registerJobHandler(queue, async (_p, ctx) => {
      runs.push(Date.now());
      if (ctx.job.attempt < 3) throw new Error(`fallo transitorio ${ctx.job.attempt}`);
    });
    startWorker({ backoffBaseMs: 100 });
    const id = await enqueue(db.pool, queue, {});
    // after the first failure: back in the queue, error recorded, run_at in the future
    const afterFirst = await waitForJob(db.pool, id, {
      until: (j) => j.status === 'queued' && j.attempts === 1,
    });
    expect(afterFirst.attempts).toBe(1);
    expect(afterFirst.last_error).toBe('fallo transitorio 1');
    const job = await waitForJob(db.pool, id);
    expect(job.status).toBe('succeeded');
    expect(job.attempts).toBe(3);
    expect(runs).toHaveLength(3);
    // 100 ms, then 200 ms (exponential); allow scheduling slack below
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(90);
    expect(runs[2] - runs[1]).toBeGreaterThanOrEqual(190);
    unregisterJobHandler(queue);
  });

  it('fails for good after max_attempts, keeping the last error', async () => {
    const queue = queueName();
    let runs = 0;
    registerJobHandler(queue, async () => {
      runs++;
      throw new Error(`sin conexión (intento ${runs})`);
    });
    startWorker();
    const id = await enqueue(db.pool, queue, { x: 1 }, { maxAttempts: 3 });
    const job = await waitForJob(db.pool, id, { statuses: ['failed'] });
    expect(job).toMatchObject({ status: 'failed', attempts: 3, last_error: 'sin conexión (intento 3)' });
    expect(job.finished_at).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toBe(3); // not run again
    unregisterJobHandler(queue);
  });

  it('redacts the stored payload once the job is finished, if the handler asks', async () => {
    const queue = queueName();
    registerJobHandler<{ secret: string; to: string }>(queue, async () => {}, {
      redact: (p) => ({ to: p.to, redacted: true }),
    });
    startWorker();
    const id = await enqueue(db.pool, queue, { secret: 's3cr3t', to: 'a@b.cl' });
    const job = await waitForJob(db.pool, id);
    expect(job.payload).toEqual({ to: 'a@b.cl', redacted: true });
    unregisterJobHandler(queue);
  });

  it('wakes at once on enqueue instead of waiting for the next poll', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {});
    startWorker({ pollMs: 60_000 });
    await new Promise((r) => setTimeout(r, 50)); // first (empty) poll done
    const t = Date.now();
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { timeoutMs: 5000 });
    expect(Date.now() - t).toBeLessThan(2000);
    unregisterJobHandler(queue);
  });

  it('honours runAt and leaves jobs of queues without a handler alone', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {});
    startWorker();
    const later = await enqueue(db.pool, queue, {}, { runAt: new Date(Date.now() + 400) });
    const orphan = await enqueue(db.pool, `${queue}-nobody`, {});
    await new Promise((r) => setTimeout(r, 200));
    expect((await getJob(db.pool, later))!.status).toBe('queued');
    const job = await waitForJob(db.pool, later);
    expect(job.status).toBe('succeeded');
    expect((await getJob(db.pool, orphan))!.status).toBe('queued');
    unregisterJobHandler(queue);
  });

  it('enqueues inside a transaction: the job exists only if it commits', async () => {
    const queue = queueName();
    await expect(
      withTransaction(db.pool, async (client) => {
        await enqueue(client, queue, { n: 1 });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const committed = await withTransaction(db.pool, (client) => enqueue(client, queue, { n: 2 }));
    const { rows } = await db.pool.query('select id, payload from jobs where queue = $1', [queue]);
    expect(rows).toEqual([{ id: committed, payload: { n: 2 } }]);
  });

  it('runs each job exactly once with several workers on one table (SKIP LOCKED)', async () => {
    const queue = queueName();
    const runs = new Map<number, number>();
    registerJobHandler<{ n: number }>(queue, async ({ n }) => {
      runs.set(n, (runs.get(n) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
    });
    const ids = [];
    for (let n = 0; n < 40; n++) ids.push(await enqueue(db.pool, queue, { n }));
    startWorker({ concurrency: 3 });
    startWorker({ concurrency: 3 });
    startWorker({ concurrency: 3 });
    for (const id of ids) expect((await waitForJob(db.pool, id)).status).toBe('succeeded');
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    const { rows } = await db.pool.query<{ n: number }>(
      'select count(distinct locked_by)::int as n from jobs where queue = $1',
      [queue],
    );
    expect(rows[0].n).toBe(0); // locks released
    unregisterJobHandler(queue);
  });

  it('recovers jobs abandoned by a dead worker (lease timeout)', async () => {
    const queue = queueName();
    const { rows } = await db.pool.query<{ id: number }>(
      `insert into jobs (queue, status, attempts, max_attempts, locked_at, locked_by) values
         ($1, 'running', 1, 5, now() - interval '1 hour', 'dead-worker'),
         ($1, 'running', 2, 2, now() - interval '1 hour', 'dead-worker'),
         ($1, 'running', 1, 5, now(), 'live-worker')
       returning id`,
      [queue],
    );
    const worker = new JobWorker({ pool: db.pool, config, log: quiet, leaseTimeoutMs: 60_000 });
    expect(await worker.reapAbandoned()).toBe(2);
    const [retried, exhausted, live] = await Promise.all(rows.map((r) => getJob(db.pool, r.id)));
    expect(retried).toMatchObject({ status: 'queued', locked_by: null });
    expect(retried!.last_error).toMatch(/lease expired/);
    expect(exhausted).toMatchObject({ status: 'failed' });
    expect(live).toMatchObject({ status: 'running', locked_by: 'live-worker' });
  });

  it('stop() waits for the running job', async () => {
    const queue = queueName();
    let finished = false;
    registerJobHandler(queue, async () => {
      await new Promise((r) => setTimeout(r, 200));
      finished = true;
    });
    const worker = startWorker();
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    await worker.stop();
    expect(finished).toBe(true);
    expect((await getJob(db.pool, id))!.status).toBe('succeeded');
    unregisterJobHandler(queue);
  });

  it('computes exponential backoff with a cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 5000, 3_600_000))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(backoffMs(30, 5000, 3_600_000)).toBe(3_600_000);
  });
});

describe('jobs plugin', () => {
  it('starts the worker with the app and stops it on close', async () => {
    const ctx = await createTestContext();
    try {
      expect(ctx.app.jobWorker.isRunning).toBe(true);
      const queue = queueName();
      const seen: string[] = [];
      registerJobHandler<{ m: string }>(queue, async ({ m }, jobCtx) => {
        expect(jobCtx.config).toBe(ctx.config);
        seen.push(m);
      });
      const id = await enqueue(ctx.db.pool, queue, { m: 'hola' });
      expect((await waitForJob(ctx.db.pool, id)).status).toBe('succeeded');
      expect(seen).toEqual(['hola']);
      unregisterJobHandler(queue);
    } finally {
      await ctx.close();
    }
    expect(ctx.app.jobWorker.isRunning).toBe(false);
  });
});
