import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TIMEZONE } from '@vigia/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Config, loadConfig } from '../../config.js';
import { type Database, withTransaction } from '../../db/database.js';
import { createTestContext, createTestDatabase } from '../../test/context.js';
import {
  defineJob,
  defineSchedule,
  enqueue,
  getJob,
  JOB_SCHEMA,
  type JobLogger,
  JobRunner,
  type JobRunnerOptions,
  jobsOf,
  registerJobHandler,
  unregisterJobHandler,
  waitForJob,
} from './queue.js';

let db: Database;
let config: Config;
const runners: JobRunner[] = [];
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
  await Promise.all(runners.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await db?.close();
  if (config) rmSync(config.DATA_DIR, { recursive: true, force: true });
});

async function startRunner(opts: Partial<JobRunnerOptions> = {}): Promise<JobRunner> {
  const runner = new JobRunner({
    pool: db.pool,
    config,
    log: quiet,
    pollMs: 100,
    schedules: false,
    startupWork: false,
    ...opts,
  });
  runners.push(runner);
  await runner.start();
  return runner;
}

/** A queue name of its own per test: the handler registry is process-wide. */
const queueName = () => `test-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('job queue (pg-boss)', () => {
  it('runs a job, validated by its zod schema, and marks it succeeded', async () => {
    const queue = queueName();
    const seen: { n: number; attempt: number; maxAttempts: number }[] = [];
    const job = defineJob({
      queue,
      payload: z.object({ n: z.number().int() }),
      maxAttempts: 3,
      handler: async ({ n }, ctx) => {
        seen.push({ n, attempt: ctx.job.attempt, maxAttempts: ctx.job.maxAttempts });
      },
    });
    await startRunner();
    const id = await job.enqueue(db.pool, { n: 7 });
    const done = await waitForJob(db.pool, id);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 1, max_attempts: 3, queue });
    expect(seen).toEqual([{ n: 7, attempt: 1, maxAttempts: 3 }]);
    // a payload that breaks the schema is refused at enqueue, not at run time
    await expect(enqueue(db.pool, queue, { n: 'siete' })).rejects.toThrow();
    unregisterJobHandler(queue);
  });

  it('retries a failed attempt with back-off, then succeeds; fails for good after maxAttempts', async () => {
    const queue = queueName();
    const at: number[] = [];
    registerJobHandler(
      queue,
      async (p: { fail: number }, ctx) => {
        at.push(Date.now());
        if (ctx.job.attempt <= p.fail) throw new Error(`intento ${ctx.job.attempt} falló`);
      },
      { retryDelaySeconds: 1, maxAttempts: 3 },
    );
    await startRunner();
    const id = await enqueue(db.pool, queue, { fail: 1 });
    const job = await waitForJob(db.pool, id, { timeoutMs: 15_000 });
    expect(job).toMatchObject({ status: 'succeeded', attempts: 2 });
    // back-off: the second attempt waited at least the first delay (1 s, doubled with jitter)
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(900);

    const doomed = await enqueue(db.pool, queue, { fail: 9 }, { maxAttempts: 2 });
    const failed = await waitForJob(db.pool, doomed, { timeoutMs: 15_000 });
    expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
    expect(failed.last_error).toBe('intento 2 falló');
    unregisterJobHandler(queue);
  }, 30_000);

  it('redacts the stored payload once the job is finished', async () => {
    const queue = queueName();
    registerJobHandler<{ secret: string; to: string }>(queue, async () => {}, {
      redact: ({ to }) => ({ to, redacted: true }),
    });
    await startRunner();
    const id = await enqueue(db.pool, queue, { secret: 's3cr3t', to: 'a@b.cl' });
    const job = await waitForJob(db.pool, id);
    expect(job.payload).toEqual({ to: 'a@b.cl', redacted: true });
    unregisterJobHandler(queue);
  });

  it('a job enqueued in a transaction exists only if it commits', async () => {
    const queue = queueName();
    await expect(
      withTransaction(db.pool, async (client) => {
        await enqueue(client, queue, { n: 1 });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await withTransaction(db.pool, (client) => enqueue(client, queue, { n: 2 }));
    expect((await jobsOf(db.pool, queue)).map((j) => j.payload)).toEqual([{ n: 2 }]);
  });

  it('wakes a worker in another process at once (LISTEN/NOTIFY), not at its next poll', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {});
    // no local wake-up and a one-minute poll: only the NOTIFY sent at commit can start the job
    await startRunner({ pollMs: 60_000, localWake: false });
    await sleep(300); // the runner's first poll found nothing
    const t = Date.now();
    const id = await withTransaction(db.pool, (client) => enqueue(client, queue, {}));
    await waitForJob(db.pool, id, { timeoutMs: 5000, intervalMs: 10 });
    expect(Date.now() - t).toBeLessThan(2000);
    unregisterJobHandler(queue);
  });

  it('per-queue concurrency: a full slow queue does not delay an e-mail', async () => {
    const slow = queueName();
    const mail = queueName();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let slowRunning = 0;
    registerJobHandler(
      slow,
      async () => {
        slowRunning++;
        await gate;
      },
      { concurrency: 2 },
    );
    registerJobHandler(mail, async () => {});
    await startRunner();
    const slowIds = [];
    for (let i = 0; i < 5; i++) slowIds.push(await enqueue(db.pool, slow, { i }));
    await sleep(500);
    expect(slowRunning).toBe(2); // the slow queue's limit
    const t = Date.now();
    const id = await enqueue(db.pool, mail, {});
    expect((await waitForJob(db.pool, id, { timeoutMs: 3000 })).status).toBe('succeeded');
    expect(Date.now() - t).toBeLessThan(2000);
    release();
    for (const s of slowIds) expect((await waitForJob(db.pool, s)).status).toBe('succeeded');
    unregisterJobHandler(slow);
    unregisterJobHandler(mail);
  });

  it('dedupe keys: on a short queue one waiting job per key, whatever the number of enqueues', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {}, { policy: 'short' });
    const [a, b] = await Promise.all([enqueue(db.pool, queue, {}), enqueue(db.pool, queue, {})]);
    expect(b).toBe(a);
    const c = await enqueue(db.pool, queue, {}, { singletonKey: 'seller-5' });
    expect(c).not.toBe(a);
    expect(await enqueue(db.pool, queue, {}, { singletonKey: 'seller-5' })).toBe(c);
    expect(await jobsOf(db.pool, queue)).toHaveLength(2);
    unregisterJobHandler(queue);
  });

  it('keeps cron schedules in the market’s time zone', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {});
    defineSchedule({ queue, cron: '0 3 * * *' });
    await startRunner({ schedules: true });
    const { rows } = await db.pool.query(
      `select cron, timezone from ${JOB_SCHEMA}.schedule where name = $1`,
      [queue],
    );
    expect(rows).toEqual([{ cron: '0 3 * * *', timezone: DEFAULT_TIMEZONE }]);
    unregisterJobHandler(queue);
  });

  it('a job whose worker died (no heartbeat past its lease) is retried by another worker', async () => {
    const queue = queueName();
    const runs: number[] = [];
    registerJobHandler(queue, async (_p, ctx) => {
      runs.push(ctx.job.attempt);
    });
    const id = await enqueue(db.pool, queue, {});
    // a dead worker's leftovers: fetched (active), its lease expired long ago
    await db.pool.query(
      `update ${JOB_SCHEMA}.job set state = 'active', started_on = now() - interval '1 hour',
              expire_in = interval '2 seconds' where id = $1`,
      [id],
    );
    const runner = await startRunner({ leaseSeconds: 2 });
    await runner.maintain();
    const job = await waitForJob(db.pool, id, { timeoutMs: 15_000 });
    expect(job).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(runs).toEqual([2]);
    unregisterJobHandler(queue);
  }, 30_000);

  it('a running job keeps its lease by heartbeat (not retried while it runs)', async () => {
    const queue = queueName();
    let runs = 0;
    registerJobHandler(queue, async () => {
      runs++;
      await sleep(3500);
    });
    const runner = await startRunner({ leaseSeconds: 2 });
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    await sleep(2500);
    await runner.maintain(); // would expire it without the heartbeat
    expect((await waitForJob(db.pool, id)).status).toBe('succeeded');
    expect(runs).toBe(1);
    unregisterJobHandler(queue);
  }, 20_000);

  it('prunes finished jobs (archived, then deleted)', async () => {
    const queue = queueName();
    registerJobHandler(queue, async () => {});
    const runner = await startRunner({ archiveAfterSeconds: 1, deleteAfterSeconds: 1 });
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id);
    await sleep(1200);
    await runner.maintain();
    const archived = await db.pool.query(`select 1 from ${JOB_SCHEMA}.archive where id = $1`, [id]);
    expect(archived.rowCount).toBe(1);
    await db.pool.query(
      `update ${JOB_SCHEMA}.archive set archived_on = now() - interval '1 minute' where id = $1`,
      [id],
    );
    await runner.maintain();
    expect(await getJob(db.pool, id)).toBeNull();
    unregisterJobHandler(queue);
  });

  it('stop() lets the running job finish', async () => {
    const queue = queueName();
    let finished = false;
    registerJobHandler(queue, async () => {
      await sleep(300);
      finished = true;
    });
    const runner = await startRunner();
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    await runner.stop();
    expect(finished).toBe(true);
    expect((await getJob(db.pool, id))!.status).toBe('succeeded');
    unregisterJobHandler(queue);
  });

  it("stop() aborts the running jobs' signal: a looping job ends its loop and succeeds within the grace", async () => {
    const queue = queueName();
    let steps = 0;
    let abortedAt = -1;
    registerJobHandler(queue, async (_p, ctx) => {
      // a job working for a time budget (as picture measuring does): it checks the signal between steps
      const end = Date.now() + 60_000;
      while (Date.now() < end && !ctx.signal.aborted) {
        steps++;
        await sleep(20);
      }
      abortedAt = ctx.signal.aborted ? steps : -1;
    });
    const runner = await startRunner({ stopGraceMs: 5_000 });
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    const t0 = Date.now();
    await runner.stop();
    expect(Date.now() - t0).toBeLessThan(5_000); // ended by the signal, not by the grace running out
    expect(abortedAt).toBeGreaterThan(0);
    expect((await getJob(db.pool, id))!.status).toBe('succeeded');
    unregisterJobHandler(queue);
  });

  it('stop() hands back a job still running after the grace period; another worker runs it', async () => {
    const queue = queueName();
    const runs: number[] = [];
    let block = true;
    registerJobHandler(queue, async (_p, ctx) => {
      runs.push(ctx.job.attempt);
      while (block) await sleep(50);
    });
    const first = await startRunner({ stopGraceMs: 200 });
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    await first.stop();
    expect((await getJob(db.pool, id))!.status).toBe('queued');
    block = false;
    await startRunner();
    expect((await waitForJob(db.pool, id)).status).toBe('succeeded');
    expect(runs).toEqual([1, 1]); // the handed-back attempt did not count
    unregisterJobHandler(queue);
  });

  it('a handed-back job that then fails on the stopped worker is not recorded as failed: it stays due, unreported', async () => {
    const queue = queueName();
    const runs: number[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    let ended: () => void = () => {};
    const endedHere = new Promise<void>((r) => {
      ended = r;
    });
    let first = true;
    registerJobHandler(queue, async (_p, ctx) => {
      runs.push(ctx.job.attempt);
      if (!first) return;
      first = false;
      await released;
      setTimeout(ended, 100); // after the runner has handled the error below
      // what a handler meets once its worker stopped (the pool ended, the signal aborted)
      throw new Error('Cannot use a pool after calling end on the pool');
    });
    const said: { level: string; msg: string }[] = [];
    const log: JobLogger = {
      info: (_o, msg) => said.push({ level: 'info', msg: String(msg) }),
      warn: (_o, msg) => said.push({ level: 'warn', msg: String(msg) }),
      error: (_o, msg) => said.push({ level: 'error', msg: String(msg) }),
    };
    const stopped = await startRunner({ stopGraceMs: 200, log });
    const id = await enqueue(db.pool, queue, {});
    await waitForJob(db.pool, id, { statuses: ['running'] });
    await stopped.stop();
    expect((await getJob(db.pool, id))!.status).toBe('queued');
    release();
    await endedHere;
    expect((await getJob(db.pool, id))!.status).toBe('queued');
    // as stop() left it: due now, no attempt counted (a failure recorded here put it back by the retry delay)
    const { rows } = await db.pool.query(
      `select state, retry_count, start_after <= now() as due from ${JOB_SCHEMA}.job where id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ state: 'retry', retry_count: 0, due: true });
    expect(said.filter((s) => s.level !== 'info').map((s) => s.msg)).toEqual([
      'jobs: handed back running jobs at shutdown',
    ]);
    expect(said.some((s) => s.level === 'info' && /handed back/.test(s.msg))).toBe(true);
    await startRunner();
    expect((await waitForJob(db.pool, id)).status).toBe('succeeded');
    expect(runs).toEqual([1, 1]); // the attempt that ended on the stopped worker did not count
    unregisterJobHandler(queue);
  });
});

describe('jobs plugin', () => {
  it('runs jobs in the role all, and the role api only enqueues', async () => {
    const ctx = await createTestContext();
    const api = await createTestContext({ env: { VIGIA_ROLE: 'api' } });
    try {
      expect(ctx.app.jobRunner?.isRunning).toBe(true);
      expect(api.app.jobRunner).toBeNull();
      const queue = queueName();
      const seen: string[] = [];
      registerJobHandler<{ m: string }>(queue, async ({ m }, jobCtx) => {
        expect(jobCtx.config).toBe(ctx.config);
        seen.push(m);
      });
      const id = await enqueue(ctx.db.pool, queue, { m: 'hola' });
      expect((await waitForJob(ctx.db.pool, id)).status).toBe('succeeded');
      expect(seen).toEqual(['hola']);
      // the api role's database keeps its job waiting: no runner there
      const waiting = await enqueue(api.db.pool, queue, { m: 'chao' });
      await sleep(500);
      expect((await getJob(api.db.pool, waiting))!.status).toBe('queued');
      unregisterJobHandler(queue);
    } finally {
      await ctx.close();
      await api.close();
    }
    expect(ctx.app.jobRunner?.isRunning).toBe(false);
  });
});
