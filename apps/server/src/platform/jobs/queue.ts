import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';

// The job queue on PostgreSQL (table `jobs`, migrations/001_init.sql; decision in docs/architecture.md).
//
//   enqueue(db, 'email', payload)              → a row 'queued' (inside the caller's transaction if db is
//                                                 its client: the job exists only if the work commits)
//   registerJobHandler('email', handler)       → what runs it (one handler per queue name, process-wide)
//   JobWorker (started by plugin.ts)           → leases ready jobs with FOR UPDATE SKIP LOCKED (several
//                                                 processes can share the table), runs the handler, marks
//                                                 'succeeded'; on error records last_error and reschedules
//                                                 with exponential backoff until max_attempts → 'failed'.
//
// A job whose worker died while running it (lease older than leaseTimeoutMs) is put back in the queue,
// or failed when it has no attempts left.
//
// While the database is unreachable (stopped, restarting): a job's outcome that could not be written is
// kept in memory and written at the first poll that reaches the database again (a failed attempt is then
// retried with backoff as usual), and jobs still leased by this worker but no longer running here (their
// lease committed but its answer was lost) go back to the queue at once instead of after the lease timeout.

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** What a handler knows about the job it runs. */
export interface JobInfo {
  id: number;
  queue: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/** Everything a handler may use: no request, no Fastify instance. */
export interface JobContext {
  job: JobInfo;
  pool: pg.Pool;
  config: Config;
  log: JobLogger;
}

export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Throwing (or rejecting) means "failed this attempt": the job is retried with backoff. */
export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<void>;

export interface JobHandlerOptions<P> {
  /**
   * Applied to the stored payload once the job is finished (succeeded or failed for good), e.g. to
   * drop a password-reset link from an e-mail job so that the secret does not stay in the table.
   */
  redact?: (payload: P) => unknown;
}

interface Registered {
  handler: JobHandler<unknown>;
  redact?: (payload: unknown) => unknown;
}

const handlers = new Map<string, Registered>();

/** Registers (or replaces) the handler of a queue. Idempotent: each app instance may call it again. */
export function registerJobHandler<P>(
  queue: string,
  handler: JobHandler<P>,
  opts: JobHandlerOptions<P> = {},
): void {
  handlers.set(queue, {
    handler: handler as JobHandler<unknown>,
    redact: opts.redact as ((payload: unknown) => unknown) | undefined,
  });
}

/** Removes a handler (tests). */
export function unregisterJobHandler(queue: string): void {
  handlers.delete(queue);
}

export function registeredQueues(): string[] {
  return [...handlers.keys()];
}

const events = new EventEmitter();
events.setMaxListeners(0);

/**
 * Wakes this process's workers at once instead of at their next poll. enqueue() calls it; after
 * enqueueing inside a transaction, call it again after the commit (the job is invisible until then).
 */
export function wakeJobWorkers(): void {
  events.emit('wake');
}

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job is 'failed' for good (default 5). */
  maxAttempts?: number;
}

/**
 * Adds a job. `db` may be the pool or the client of an open transaction (then the job exists only if
 * that transaction commits). Returns the job id.
 */
export async function enqueue(
  db: Queryable,
  queue: string,
  payload: unknown,
  opts: EnqueueOptions = {},
): Promise<number> {
  const maxAttempts = opts.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('maxAttempts must be ≥ 1');
  const { rows } = await db.query<{ id: number }>(
    `insert into jobs (queue, payload, run_at, max_attempts)
     values ($1, $2::jsonb, coalesce($3::timestamptz, now()), $4)
     returning id`,
    [queue, JSON.stringify(payload ?? {}), opts.runAt ?? null, maxAttempts],
  );
  wakeJobWorkers();
  return rows[0].id;
}

export interface JobRow {
  id: number;
  queue: string;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_at: Date | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** One job's row (tests, admin). */
export async function getJob(db: Queryable, id: number): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>('select * from jobs where id = $1', [id]);
  return rows[0] ?? null;
}

/**
 * Waits until a job reaches one of `statuses` (default: succeeded or failed), or satisfies `until`
 * when given, and returns its row. For tests and scripts; rejects after timeoutMs.
 */
export async function waitForJob(
  db: Queryable,
  id: number,
  opts: {
    statuses?: JobStatus[];
    until?: (job: JobRow) => boolean;
    timeoutMs?: number;
    intervalMs?: number;
  } = {},
): Promise<JobRow> {
  const statuses = opts.statuses ?? ['succeeded', 'failed'];
  const done = opts.until ?? ((job: JobRow) => statuses.includes(job.status));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(db, id);
    if (job && done(job)) return job;
    if (Date.now() > deadline) {
      throw new Error(`job ${id} still ${job?.status ?? 'missing'} after ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
  }
}

/** Delay before attempt n+1 after n failed attempts: base·2^(n−1), capped. */
export function backoffMs(failedAttempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failedAttempts - 1));
}

export interface JobWorkerOptions {
  pool: pg.Pool;
  config: Config;
  log: JobLogger;
  /** Poll interval when idle (default 500 ms). */
  pollMs?: number;
  /** Jobs run at once by this worker (default 4). */
  concurrency?: number;
  /** First retry delay (default 5 s), doubled per failed attempt up to backoffMaxMs (default 1 h). */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A 'running' job locked longer than this is considered abandoned (default 15 min). */
  leaseTimeoutMs?: number;
  /** How long stop() waits for running jobs (default 10 s); unfinished ones are recovered by lease timeout. */
  stopGraceMs?: number;
}

interface LeasedJob {
  id: number;
  queue: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

const REAP_EVERY_MS = 60_000;
const MAX_ERROR_LENGTH = 2000;

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** Polls the queue and runs jobs with the registered handlers. One per process (see plugin.ts). */
export class JobWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly opts: Required<Omit<JobWorkerOptions, 'pool' | 'config' | 'log'>>;
  private readonly running = new Set<Promise<void>>();
  private readonly runningIds = new Set<number>();
  /** Outcomes (success or failed attempt) not written because the database was unreachable. */
  private readonly unrecorded = new Map<number, () => Promise<void>>();
  private databaseDown = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private polling = false;
  private pollAgain = false;
  private lastReap = 0;
  private readonly wake = () => void this.poll();

  constructor(private readonly deps: JobWorkerOptions) {
    this.opts = {
      pollMs: deps.pollMs ?? 500,
      concurrency: deps.concurrency ?? 4,
      backoffBaseMs: deps.backoffBaseMs ?? 5000,
      backoffMaxMs: deps.backoffMaxMs ?? 3_600_000,
      leaseTimeoutMs: deps.leaseTimeoutMs ?? 15 * 60_000,
      stopGraceMs: deps.stopGraceMs ?? 10_000,
    };
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    events.on('wake', this.wake);
    void this.poll();
  }

  /** Stops leasing and waits (up to stopGraceMs) for the jobs already running. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    events.off('wake', this.wake);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running.size) {
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.running]),
        new Promise((r) => {
          graceTimer = setTimeout(r, this.opts.stopGraceMs);
        }),
      ]);
      clearTimeout(graceTimer);
    }
  }

  /** Leases and starts ready jobs up to the concurrency limit; called by the timer, on wake and after each job. */
  async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      if (this.databaseDown || this.unrecorded.size) await this.recover();
      if (Date.now() - this.lastReap > REAP_EVERY_MS) {
        this.lastReap = Date.now();
        await this.reapAbandoned();
      }
      while (!this.stopped && this.running.size < this.opts.concurrency) {
        const queues = registeredQueues();
        if (!queues.length) break;
        const job = await this.lease(queues);
        if (!job) break;
        this.runningIds.add(job.id);
        const run: Promise<void> = this.run(job).finally(() => {
          this.running.delete(run);
          this.runningIds.delete(job.id);
          void this.poll();
        });
        this.running.add(run);
      }
    } catch (err) {
      if (this.stopped) {
        // closing
      } else if (isDatabaseUnavailable(err)) {
        if (!this.databaseDown) this.deps.log.warn({ err }, 'job queue: database unavailable; retrying');
        this.databaseDown = true;
      } else {
        this.deps.log.error({ err }, 'job queue poll failed');
      }
    } finally {
      this.polling = false;
      if (this.pollAgain && !this.stopped) {
        this.pollAgain = false;
        void this.poll();
      } else {
        this.schedule();
      }
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), this.opts.pollMs);
    this.timer.unref();
  }

  /** Takes the oldest ready job of a known queue; SKIP LOCKED lets other workers take the next one. */
  private async lease(queues: string[]): Promise<LeasedJob | null> {
    const { rows } = await this.deps.pool.query<LeasedJob>(
      `update jobs j
          set status = 'running', attempts = j.attempts + 1, locked_at = now(), locked_by = $2
        where j.id = (select id from jobs
                       where status = 'queued' and run_at <= now() and queue = any($1::text[])
                       order by run_at, id
                       limit 1
                       for update skip locked)
        returning j.id, j.queue, j.payload, j.attempts, j.max_attempts`,
      [queues, this.id],
    );
    return rows[0] ?? null;
  }

  private async run(job: LeasedJob): Promise<void> {
    const registered = handlers.get(job.queue);
    const info: JobInfo = {
      id: job.id,
      queue: job.queue,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
    };
    const log = this.deps.log;
    const finalPayload = () => {
      if (!registered?.redact) return null;
      return JSON.stringify(registered.redact(job.payload) ?? {});
    };
    try {
      if (!registered) throw new Error(`no handler registered for queue '${job.queue}'`);
      await registered.handler(job.payload, {
        job: info,
        pool: this.deps.pool,
        config: this.deps.config,
        log,
      });
    } catch (err) {
      await this.record(
        job.id,
        () => this.recordFailure(job, err, finalPayload),
        'could not record job failure',
      );
      return;
    }
    const payload = finalPayload();
    await this.record(
      job.id,
      async () => {
        await this.deps.pool.query(
          `update jobs
              set status = 'succeeded', finished_at = now(), locked_at = null, locked_by = null,
                  payload = coalesce($3::jsonb, payload)
            where id = $1 and locked_by = $2 and status = 'running'`,
          [job.id, this.id, payload],
        );
      },
      'could not record job success',
    );
  }

  /** Writes a job's outcome; kept for later when the database is unreachable (see recover()). */
  private async record(id: number, write: () => Promise<void>, what: string): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (isDatabaseUnavailable(e)) {
        this.unrecorded.set(id, write);
        this.databaseDown = true;
      } else if (!this.stopped) {
        this.deps.log.error({ err: e, jobId: id }, what);
      }
    }
  }

  /**
   * After the database was unreachable: writes the outcomes kept meanwhile, then puts back in the queue
   * the jobs this worker still holds but no longer runs. Throws (and is retried at the next poll) while
   * the database is still unreachable.
   */
  private async recover(): Promise<void> {
    for (const [id, write] of [...this.unrecorded]) {
      await write();
      this.unrecorded.delete(id);
    }
    const { rowCount } = await this.deps.pool.query(
      `update jobs
          set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
              finished_at = case when attempts >= max_attempts then now() end,
              last_error = 'interrupted: the database was unavailable',
              locked_at = null, locked_by = null, run_at = now()
        where status = 'running' and locked_by = $1 and id <> all($2::bigint[])`,
      [this.id, [...this.runningIds]],
    );
    if (this.databaseDown)
      this.deps.log.warn({ requeued: rowCount ?? 0 }, 'job queue: database available again');
    this.databaseDown = false;
  }

  private async recordFailure(
    job: LeasedJob,
    err: unknown,
    finalPayload: () => string | null,
  ): Promise<void> {
    const message = errorText(err);
    if (job.attempts >= job.max_attempts) {
      this.deps.log.error(
        { err, jobId: job.id, queue: job.queue, attempts: job.attempts },
        'job failed for good',
      );
      await this.deps.pool.query(
        `update jobs
            set status = 'failed', last_error = $3, finished_at = now(), locked_at = null, locked_by = null,
                payload = coalesce($4::jsonb, payload)
          where id = $1 and locked_by = $2 and status = 'running'`,
        [job.id, this.id, message, finalPayload()],
      );
      return;
    }
    const delay = backoffMs(job.attempts, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
    this.deps.log.warn(
      { err, jobId: job.id, queue: job.queue, attempt: job.attempts, retryInMs: delay },
      'job attempt failed; retrying later',
    );
    await this.deps.pool.query(
      `update jobs
          set status = 'queued', last_error = $3, locked_at = null, locked_by = null,
              run_at = now() + $4 * interval '1 millisecond'
        where id = $1 and locked_by = $2 and status = 'running'`,
      [job.id, this.id, message, delay],
    );
  }

  /** Jobs left 'running' by a worker that died: back to the queue, or failed when out of attempts. */
  async reapAbandoned(): Promise<number> {
    const { rowCount } = await this.deps.pool.query(
      `update jobs
          set status = case when attempts >= max_attempts then 'failed' else 'queued' end,
              finished_at = case when attempts >= max_attempts then now() end,
              last_error = 'lease expired: the worker stopped while running the job',
              locked_at = null, locked_by = null
        where status = 'running' and locked_at < now() - $1 * interval '1 millisecond'`,
      [this.opts.leaseTimeoutMs],
    );
    return rowCount ?? 0;
  }
}
