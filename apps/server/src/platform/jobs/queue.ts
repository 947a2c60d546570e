import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { DEFAULT_TIMEZONE } from '@vigia/domain';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { isDatabaseUnavailable } from '../../lib/errors.js';

// The job queue: pg-boss 10 on the application's PostgreSQL (schema `pgboss`; decision and reasons in
// docs/architecture.md "Jobs"). pg-boss keeps the rows (queues as partitions, retries with back-off,
// dedupe keys, expiry of jobs whose worker died, archiving and deletion of finished jobs, cron
// schedules in a time zone); this file adds what the application needs on top:
//
//   defineJob({ queue, payload: zodSchema, handler, concurrency, maxAttempts, … })
//                                  → declares a queue (modules/<feature>/jobs.ts, platform/mail);
//                                    registerJobHandler(queue, handler, opts) is the same, without schema
//   defineSchedule({ queue, cron })
//                                  → a cron schedule evaluated in the market's time zone (worker role)
//   enqueue(db, queue, payload, opts)
//                                  → one row, inside the caller's transaction when db is its client (the
//                                    job exists only if the work commits), and a NOTIFY delivered at
//                                    commit that wakes a worker in any process at once
//   JobRunner (platform/jobs/plugin.ts, roles 'worker' and 'all')
//                                  → per queue at most `concurrency` jobs at once (a full slow queue does
//                                    not delay 'email'); LISTEN for the wake-up, polling as a fallback;
//                                    a heartbeat keeps a running job's lease, so that a job whose worker
//                                    was killed expires after JOBS_LEASE_SECONDS and is retried by another
//                                    worker; stop() lets running jobs finish for stopGraceMs and hands the
//                                    rest back; outcomes that could not be written while the database was
//                                    unreachable are written when it is back.
//
// Handlers must be idempotent: a job retried after its worker died may find part of its work done (the
// report build writes its file under a temporary name and renames it; the e-mail job's handler runs
// once per row, see platform/mail).

export const JOB_SCHEMA = 'pgboss';
/** The NOTIFY channel of the wake-up (payload: the queue name). */
export const JOB_CHANNEL = 'vigia_jobs';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** What a handler knows about the job it runs. */
export interface JobInfo {
  id: string;
  queue: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

/** Pushes a real-time event to a user's connections (the exporter channel of this process). */
export type JobEmit = (userId: number, event: string, payload: unknown) => boolean;

/** Everything a handler may use: no request, no Fastify instance. */
export interface JobContext {
  job: JobInfo;
  pool: pg.Pool;
  config: Config;
  log: JobLogger;
  emit: JobEmit;
  /**
   * Aborted when the worker stops: a job that works in a loop (e.g. measuring pictures for a time budget)
   * ends its loop at the next step, within the stop grace, instead of being cut off with the pool closed.
   */
  signal: AbortSignal;
}

/** What work run when a worker starts gets (no job). */
export type WorkerStartContext = Omit<JobContext, 'job' | 'signal'>;

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
  /** Jobs of this queue run at once by one process (default 1). */
  concurrency?: number;
  /** Attempts before the job fails for good, unless enqueue says otherwise (default 5). */
  maxAttempts?: number;
  /** First retry delay in seconds, doubled (with jitter) per failed attempt (default 5). */
  retryDelaySeconds?: number;
  /**
   * 'short': at most one job waiting per dedupe key (enqueue's singletonKey, or the queue itself
   * without one): a second enqueue while one waits is a no-op that returns null. Default 'standard'.
   */
  policy?: 'standard' | 'short';
}

export interface JobDefinition<S extends z.ZodType> extends JobHandlerOptions<z.output<S>> {
  queue: string;
  /** Checked by enqueue (the caller's mistake is thrown at once) and again by the worker. */
  payload: S;
  handler: JobHandler<z.output<S>>;
}

interface Registered {
  handler: JobHandler<unknown>;
  redact?: (payload: unknown) => unknown;
  schema?: z.ZodType;
  concurrency: number;
  maxAttempts: number;
  retryDelaySeconds: number;
  policy: 'standard' | 'short';
}

const handlers = new Map<string, Registered>();

/** Registers (or replaces) the handler of a queue. Idempotent: each app instance may call it again. */
export function registerJobHandler<P>(
  queue: string,
  handler: JobHandler<P>,
  opts: JobHandlerOptions<P> & { schema?: z.ZodType } = {},
): void {
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be ≥ 1');
  handlers.set(queue, {
    handler: handler as JobHandler<unknown>,
    redact: opts.redact as ((payload: unknown) => unknown) | undefined,
    schema: opts.schema,
    concurrency,
    maxAttempts: opts.maxAttempts ?? 5,
    retryDelaySeconds: opts.retryDelaySeconds ?? 5,
    policy: opts.policy ?? 'standard',
  });
}

/**
 * Declares a queue with its payload schema and handler; returns a typed enqueue for it. The one way a
 * feature declares a job (in modules/<feature>/jobs.ts).
 */
export function defineJob<S extends z.ZodType>(def: JobDefinition<S>) {
  const { queue, payload, handler, ...opts } = def;
  registerJobHandler(queue, handler, { ...opts, schema: payload });
  return {
    queue,
    enqueue: (db: Queryable, data: z.input<S>, o: EnqueueOptions = {}) => enqueue(db, queue, data, o),
  };
}

/** Removes a handler (tests). */
export function unregisterJobHandler(queue: string): void {
  handlers.delete(queue);
}

export function registeredQueues(): string[] {
  return [...handlers.keys()];
}

export interface ScheduleDefinition {
  /** The queue it sends a job to (one schedule per queue). */
  queue: string;
  /** Five-field cron, evaluated in `tz` (default: the market's zone). */
  cron: string;
  payload?: object;
  tz?: string;
}

const schedules = new Map<string, ScheduleDefinition>();

/** Declares a cron schedule: it is kept in the database by the worker role (one send per minute at most). */
export function defineSchedule(def: ScheduleDefinition): void {
  schedules.set(def.queue, def);
}

export function registeredSchedules(): ScheduleDefinition[] {
  return [...schedules.values()];
}

const startups = new Map<string, (ctx: WorkerStartContext) => Promise<unknown>>();

/**
 * Work a worker does once when it starts (not awaited by readiness; a failure is logged), e.g. queue a
 * backfill or a dispatch of what was written while no worker ran. Replaces warm-ups in onReady hooks.
 */
export function atWorkerStart(name: string, fn: (ctx: WorkerStartContext) => Promise<unknown>): void {
  startups.set(name, fn);
}

const events = new EventEmitter();
events.setMaxListeners(0);

/**
 * Wakes this process's runners at once. enqueue() NOTIFYs the database (delivered at commit, to every
 * process), so callers need not call this; kept for callers that want an immediate local poll.
 */
export function wakeJobWorkers(queue?: string): void {
  events.emit('wake', queue);
}

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job is 'failed' for good (default: the queue's, else 5). */
  maxAttempts?: number;
  /** Dedupe key: on a 'short' queue, one waiting job per key (a second enqueue returns null). */
  singletonKey?: string;
}

type Executor = PgBoss.Db;

function executor(db: Queryable): Executor {
  return { executeSql: (text: string, values: unknown[]) => db.query(text, values) };
}

// pg-boss only builds its SQL here; every call passes the caller's connection (`db`).
const sender = new PgBoss({
  schema: JOB_SCHEMA,
  db: {
    executeSql: () => {
      throw new Error('jobs: no connection given');
    },
  },
});

const queueOptions = (queue: string): PgBoss.Queue => {
  const r = handlers.get(queue);
  return {
    name: queue,
    policy: r?.policy ?? 'standard',
    retryLimit: (r?.maxAttempts ?? 5) - 1,
    retryDelay: r?.retryDelaySeconds ?? 5,
    retryBackoff: true,
  };
};

/** Creates a queue (its partition) when missing; safe to call concurrently from several processes. */
async function ensureQueue(db: Queryable, queue: string): Promise<void> {
  const { rows } = await db.query(`select 1 from ${JOB_SCHEMA}.queue where name = $1`, [queue]);
  if (rows.length) return;
  const opts = queueOptions(queue);
  // one creation at a time (two concurrent create_queue calls deadlock on pg-boss's tables); the lock
  // lasts the caller's transaction, or this statement alone outside one
  await db.query(
    `with l as (select pg_advisory_xact_lock(hashtext('vigia.jobs.create_queue')))
     select ${JOB_SCHEMA}.create_queue($1, $2) from l`,
    [queue, JSON.stringify({ ...opts, expireInSeconds: null, retentionMinutes: null, deadLetter: null })],
  );
}

/**
 * Installs (or migrates) pg-boss's schema and creates every declared queue. Every role calls it at
 * start (pg-boss takes an advisory lock for its own migrations); then enqueue works in any process.
 */
export async function installJobs(pool: pg.Pool): Promise<void> {
  const boss = new PgBoss({ schema: JOB_SCHEMA, db: executor(pool), supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
  for (const queue of handlers.keys()) await ensureQueue(pool, queue);
}

/**
 * Adds a job. `db` may be the pool or the client of an open transaction (then the job exists only if
 * that transaction commits, and its wake-up is sent at the commit). Returns the job id; on a 'short'
 * queue where a job with the same dedupe key already waits, no job is added and that job's id is
 * returned (see EnqueueOptions.singletonKey).
 */
export async function enqueue(
  db: Queryable,
  queue: string,
  payload: unknown,
  opts: EnqueueOptions = {},
): Promise<string> {
  const registered = handlers.get(queue);
  const maxAttempts = opts.maxAttempts ?? registered?.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('maxAttempts must be ≥ 1');
  const data = registered?.schema ? registered.schema.parse(payload ?? {}) : (payload ?? {});
  await ensureQueue(db, queue);
  let id: string | null = null;
  // a refused job on a 'short' queue: one waits; but a worker may take that one between the refusal and
  // the look for it (then none waits any more: sent again — seen once in CI as "refused the job and none
  // waits" while a test's worker was running)
  for (let attempt = 1; !id; attempt++) {
    id = await sender.send(queue, data as object, {
      db: executor(db),
      startAfter: opts.runAt,
      retryLimit: maxAttempts - 1,
      retryDelay: registered?.retryDelaySeconds ?? 5,
      retryBackoff: true,
      singletonKey: opts.singletonKey,
    });
    if (id) break;
    // deduped: the job already waiting does the work
    const { rows } = await db.query<{ id: string }>(
      `select id::text from ${JOB_SCHEMA}.job
        where name = $1 and state = 'created' and coalesce(singleton_key, '') = coalesce($2, '')
        limit 1`,
      [queue, opts.singletonKey ?? null],
    );
    if (rows[0]) return rows[0].id;
    if (attempt >= 3) throw new Error(`jobs: '${queue}' refused the job and none waits`);
  }
  await db.query('select pg_notify($1, $2)', [JOB_CHANNEL, queue]);
  wakeJobWorkers(queue);
  return id;
}

export interface JobRow {
  id: string;
  queue: string;
  payload: unknown;
  status: JobStatus;
  /** Attempts started so far. */
  attempts: number;
  max_attempts: number;
  run_at: Date;
  started_at: Date | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const JOB_COLUMNS = `id::text, name as queue, data as payload,
  case when state in ('created', 'retry') then 'queued' when state = 'active' then 'running'
       when state = 'completed' then 'succeeded' else 'failed' end as status,
  case when started_on is null then 0 else retry_count + 1 end as attempts,
  retry_limit + 1 as max_attempts, start_after as run_at, started_on as started_at,
  case when state in ('retry', 'failed') then coalesce(output->>'message', output::text) end as last_error,
  created_on as created_at, completed_on as finished_at`;

/**
 * SQL of one job's row (the columns of JobRow) by an id expression, archived jobs included: for a
 * `left join lateral (…) j on true` in a feature's query (e.g. a delivery's e-mail job).
 */
export function jobRowSql(idExpr: string): string {
  return `select ${JOB_COLUMNS} from ${JOB_SCHEMA}.job where id = ${idExpr}
          union all select ${JOB_COLUMNS} from ${JOB_SCHEMA}.archive where id = ${idExpr}
          limit 1`;
}

/** One job's row, finished (archived) ones included (tests, admin); null when unknown or pruned. */
export async function getJob(db: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>(
    `select ${JOB_COLUMNS} from ${JOB_SCHEMA}.job where id = $1::uuid
     union all select ${JOB_COLUMNS} from ${JOB_SCHEMA}.archive where id = $1::uuid
     limit 1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Jobs of a queue, oldest first (tests, admin). */
export async function jobsOf(db: Queryable, queue: string): Promise<JobRow[]> {
  const { rows } = await db.query<JobRow>(
    `select * from (select ${JOB_COLUMNS} from ${JOB_SCHEMA}.job where name = $1
     union all select ${JOB_COLUMNS} from ${JOB_SCHEMA}.archive where name = $1) j
     order by created_at, id`,
    [queue],
  );
  return rows;
}

/**
 * Waits until a job reaches one of `statuses` (default: succeeded or failed), or satisfies `until`
 * when given, and returns its row. For tests and scripts; rejects after timeoutMs.
 */
export async function waitForJob(
  db: Queryable,
  id: string,
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

export interface JobRunnerOptions {
  pool: pg.Pool;
  config: Config;
  log: JobLogger;
  /** Fallback poll interval per queue when no NOTIFY arrives (default 2 s). */
  pollMs?: number;
  /** A running job's lease: without a heartbeat for this long it is retried elsewhere (default 60 s). */
  leaseSeconds?: number;
  /** How long stop() waits for running jobs before handing them back (default 10 s). */
  stopGraceMs?: number;
  /** Maintenance (expiry of dead workers' jobs, archiving, deletion) interval (default 30 s). */
  maintenanceSeconds?: number;
  /** Finished jobs are archived after this (default 1 h) and deleted from the archive after deleteAfterSeconds. */
  archiveAfterSeconds?: number;
  deleteAfterSeconds?: number;
  /** Keep the cron schedules (default true). */
  schedules?: boolean;
  /** Listen for wake-ups (default true). */
  listen?: boolean;
  /** Wake on this process's own enqueues without waiting for the NOTIFY (default true; tests turn it off). */
  localWake?: boolean;
  /** Run the atWorkerStart work (default true). */
  startupWork?: boolean;
  emit?: JobEmit;
}

interface Fetched {
  id: string;
  name: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  startedOn: Date;
}

const MAX_ERROR_LENGTH = 2000;

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** Runs the registered queues' jobs in this process (roles 'worker' and 'all'; see plugin.ts). */
export class JobRunner {
  readonly id = randomUUID();
  private readonly boss: PgBoss;
  private readonly opts: Required<Omit<JobRunnerOptions, 'pool' | 'config' | 'log' | 'emit'>>;
  private readonly emit: JobEmit;
  /** Running jobs by id, with their promise. */
  private readonly running = new Map<string, { queue: string; done: Promise<void> }>();
  /** Jobs stop() handed back to the queue while they still ran here: their end here is not recorded. */
  private readonly handedBack = new Set<string>();
  /** Aborted by stop(): the running jobs' signal (JobContext.signal). */
  private stopping = new AbortController();
  /** Outcomes not written because the database was unreachable, by job id. */
  private readonly unrecorded = new Map<string, () => Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly polling = new Set<string>();
  private readonly pollAgain = new Set<string>();
  private listener: pg.Client | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = true;
  private databaseDown = false;
  private readonly wake = (queue?: string) => {
    if (queue) void this.poll(queue);
    else for (const q of this.queues()) void this.poll(q);
  };

  constructor(private readonly deps: JobRunnerOptions) {
    this.opts = {
      pollMs: deps.pollMs ?? 2000,
      leaseSeconds: deps.leaseSeconds ?? 60,
      stopGraceMs: deps.stopGraceMs ?? 10_000,
      // expiry of dead workers' jobs at least as often as a lease lasts
      maintenanceSeconds: deps.maintenanceSeconds ?? Math.min(30, Math.max(1, deps.leaseSeconds ?? 60)),
      archiveAfterSeconds: deps.archiveAfterSeconds ?? 3600,
      deleteAfterSeconds: deps.deleteAfterSeconds ?? 7 * 86_400,
      schedules: deps.schedules ?? true,
      listen: deps.listen ?? true,
      startupWork: deps.startupWork ?? true,
      localWake: deps.localWake ?? true,
    };
    this.emit = deps.emit ?? (() => false);
    this.boss = new PgBoss({
      schema: JOB_SCHEMA,
      db: executor(deps.pool),
      supervise: true,
      schedule: this.opts.schedules,
      maintenanceIntervalSeconds: this.opts.maintenanceSeconds,
      archiveCompletedAfterSeconds: this.opts.archiveAfterSeconds,
      archiveFailedAfterSeconds: Math.max(this.opts.archiveAfterSeconds, 86_400),
      deleteAfterSeconds: this.opts.deleteAfterSeconds,
      expireInSeconds: this.opts.leaseSeconds,
    });
    this.boss.on('error', (err) => {
      if (!this.stopped && !isDatabaseUnavailable(err)) this.deps.log.warn({ err }, 'pg-boss');
    });
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  private queues(): string[] {
    return registeredQueues();
  }

  /**
   * Starts the runner. Never throws: while the database cannot be reached (or the app was built
   * without one, e.g. the OpenAPI export) it logs and tries again every 2 s until stopped.
   */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    try {
      await this.boot();
    } catch (err) {
      if (this.stopped) return;
      this.deps.log.warn({ err }, 'jobs: runner not started yet; retrying');
      this.bootRetry = setTimeout(() => {
        this.stopped = true;
        void this.start();
      }, 2000);
      this.bootRetry.unref();
    }
  }

  private bootRetry: NodeJS.Timeout | null = null;

  private async boot(): Promise<void> {
    await installJobs(this.deps.pool);
    await this.boss.start();
    // jobs left active by a worker that died before this one started are retried now, not at the first
    // maintenance tick
    await this.boss.expire().catch((err) => this.deps.log.warn({ err }, 'jobs: expiry at start failed'));
    if (this.opts.schedules) await this.keepSchedules();
    if (this.opts.localWake) events.on('wake', this.wake);
    if (this.opts.listen) await this.listen();
    const beat = Math.max(250, (this.opts.leaseSeconds * 1000) / 3);
    this.heartbeat = setInterval(() => void this.beat(), beat);
    this.heartbeat.unref();
    for (const q of this.queues()) void this.poll(q);
    if (this.opts.startupWork) {
      const ctx = { pool: this.deps.pool, config: this.deps.config, log: this.deps.log, emit: this.emit };
      for (const [name, fn] of startups)
        fn(ctx).catch((err) => this.deps.log.warn({ err, work: name }, 'jobs: start-up work failed'));
    }
  }

  /** The declared schedules in the database (pg-boss sends each due one once, whichever worker sees it). */
  private async keepSchedules(): Promise<void> {
    for (const s of registeredSchedules()) {
      await ensureQueue(this.deps.pool, s.queue);
      await this.boss.schedule(s.queue, s.cron, s.payload ?? {}, {
        tz: s.tz ?? DEFAULT_TIMEZONE,
        retryLimit: 0,
      });
    }
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.deps.pool.options.connectionString });
    const retry = () => {
      if (this.listener !== client) return;
      this.listener = null;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.listenRetry = setTimeout(() => void this.listen(), 1000);
      this.listenRetry.unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (msg) => {
      if (msg.channel === JOB_CHANNEL && msg.payload && handlers.has(msg.payload))
        void this.poll(msg.payload);
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`listen ${JOB_CHANNEL}`);
      // jobs enqueued while not listening
      for (const q of this.queues()) void this.poll(q);
    } catch {
      retry();
    }
  }

  /** Keeps the lease of every running job (pg-boss expires an active job from its started_on). */
  private async beat(): Promise<void> {
    if (this.stopped || !this.running.size) return;
    try {
      await this.deps.pool.query(
        `update ${JOB_SCHEMA}.job set started_on = now() where id = any($1::uuid[]) and state = 'active'`,
        [[...this.running.keys()]],
      );
    } catch {
      // the next beat tries again; a lease lost meanwhile means the job may be retried elsewhere
    }
  }

  /** Runs maintenance now (tests): expiry of abandoned jobs, archiving, deletion. */
  async maintain(): Promise<void> {
    await this.boss.maintain();
  }

  /**
   * Stops fetching and waits (up to stopGraceMs) for the running jobs; those still running then are
   * handed back to the queue (another worker runs them; this attempt does not count).
   */
  async stop(): Promise<void> {
    if (this.bootRetry) clearTimeout(this.bootRetry);
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort();
    events.off('wake', this.wake);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    if (this.listenRetry) clearTimeout(this.listenRetry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    if (this.running.size) {
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.running.values()].map((r) => r.done)),
        new Promise((r) => {
          graceTimer = setTimeout(r, this.opts.stopGraceMs);
        }),
      ]);
      clearTimeout(graceTimer);
    }
    const left = [...this.running.keys()];
    for (const id of left) this.handedBack.add(id);
    if (left.length) {
      await this.deps.pool
        .query(
          `update ${JOB_SCHEMA}.job
              set state = 'retry', start_after = now(), started_on = null,
                  output = '{"message":"handed back: the worker stopped"}'
            where id = any($1::uuid[]) and state = 'active'`,
          [left],
        )
        .catch((err) => this.deps.log.warn({ err }, 'jobs: running jobs not handed back'));
      this.deps.log.warn({ jobs: left }, 'jobs: handed back running jobs at shutdown');
    }
    await this.boss.stop({ graceful: false, close: false, wait: true }).catch(() => {});
  }

  private runningOf(queue: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.queue === queue) n++;
    return n;
  }

  /** Fetches and starts ready jobs of one queue up to its concurrency. */
  async poll(queue: string): Promise<void> {
    if (this.stopped) return;
    const registered = handlers.get(queue);
    if (!registered) return;
    if (this.polling.has(queue)) {
      this.pollAgain.add(queue);
      return;
    }
    this.polling.add(queue);
    try {
      if (this.databaseDown || this.unrecorded.size) await this.recover();
      const free = registered.concurrency - this.runningOf(queue);
      if (free > 0) {
        const jobs = (await executor(this.deps.pool).executeSql(FETCH_SQL, [
          queue,
          free,
          this.opts.leaseSeconds,
        ])) as unknown as {
          rows: Fetched[];
        };
        for (const job of jobs.rows) {
          const done: Promise<void> = this.run(job, registered).finally(() => {
            this.running.delete(job.id);
            void this.poll(queue);
          });
          this.running.set(job.id, { queue, done });
        }
      }
    } catch (err) {
      if (this.stopped) {
        // closing
      } else if (isDatabaseUnavailable(err)) {
        if (!this.databaseDown) this.deps.log.warn({ err }, 'job queue: database unavailable; retrying');
        this.databaseDown = true;
      } else {
        this.deps.log.error({ err, queue }, 'job queue poll failed');
      }
    } finally {
      this.polling.delete(queue);
      if (this.pollAgain.delete(queue) && !this.stopped) void this.poll(queue);
      else this.schedule(queue);
    }
  }

  private schedule(queue: string): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(queue));
    const t = setTimeout(() => void this.poll(queue), this.databaseDown ? 500 : this.opts.pollMs);
    t.unref();
    this.timers.set(queue, t);
  }

  private async run(job: Fetched, registered: Registered): Promise<void> {
    const info: JobInfo = {
      id: job.id,
      queue: job.name,
      attempt: job.retryCount + 1,
      maxAttempts: job.retryLimit + 1,
    };
    const redacted = () => (registered.redact ? JSON.stringify(registered.redact(job.data) ?? {}) : null);
    try {
      const payload = registered.schema ? registered.schema.parse(job.data) : job.data;
      await registered.handler(payload, {
        job: info,
        pool: this.deps.pool,
        config: this.deps.config,
        log: this.deps.log,
        emit: this.emit,
        signal: this.stopping.signal,
      });
    } catch (err) {
      if (this.handedBack.delete(job.id)) {
        // stop() gave it back to the queue (state retry, due now, this attempt not counted): what it met
        // on the way out (an ended pool, its aborted signal) is not a failure of the job — recorded by
        // fail() it was logged as a failed attempt and put the job's next run back by the retry delay
        this.deps.log.info(
          { jobId: job.id, queue: job.name, err: errorText(err) },
          'job handed back at shutdown ended on the stopped worker; it runs again from the queue',
        );
        return;
      }
      const last = info.attempt >= info.maxAttempts;
      if (last) {
        this.deps.log.error(
          { err, jobId: job.id, queue: job.name, attempt: info.attempt },
          'job failed for good',
        );
      } else {
        this.deps.log.warn(
          { err, jobId: job.id, queue: job.name, attempt: info.attempt },
          'job attempt failed; retrying later',
        );
      }
      const message = errorText(err);
      await this.record(job.id, async () => {
        await this.finish(job, 'fail', { message }, last ? redacted() : null);
      });
      return;
    }
    this.handedBack.delete(job.id); // done all the same: recorded as done
    await this.record(job.id, () => this.finish(job, 'complete', null, redacted()));
  }

  /** Completes or fails a job (pg-boss plans) and redacts its payload, in one transaction. */
  private async finish(
    job: Fetched,
    how: 'complete' | 'fail',
    output: object | null,
    payload: string | null,
  ): Promise<void> {
    const client = await this.deps.pool.connect();
    try {
      await client.query('begin');
      const db = executor(client);
      if (how === 'complete') await this.boss.complete(job.name, job.id, output ?? {}, { db });
      else await this.boss.fail(job.name, job.id, output ?? {}, { db });
      if (payload !== null)
        await client.query(
          `update ${JOB_SCHEMA}.job set data = $3::jsonb where name = $1 and id = $2::uuid and state in ('completed', 'failed')`,
          [job.name, job.id, payload],
        );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** Writes a job's outcome; kept for later when the database is unreachable (see recover()). */
  private async record(id: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (isDatabaseUnavailable(e)) {
        this.unrecorded.set(id, write);
        this.databaseDown = true;
      } else if (!this.stopped) {
        this.deps.log.error({ err: e, jobId: id }, 'could not record job outcome');
      }
    }
  }

  /** Writes the outcomes kept while the database was unreachable; throws while it still is. */
  private async recover(): Promise<void> {
    for (const [id, write] of [...this.unrecorded]) {
      await write();
      this.unrecorded.delete(id);
    }
    if (this.databaseDown) this.deps.log.warn({}, 'job queue: database available again');
    this.databaseDown = false;
  }
}

// pg-boss's fetch, as its plans write it, but run by us: its own fetch swallows every error, and an
// unreachable database must be seen (outcomes kept, polling faster). The fetching worker sets the
// job's lease (expire_in, renewed by the heartbeat through started_on).
const FETCH_SQL = `
    with next as (
      select id from ${JOB_SCHEMA}.job
       where name = $1 and state < 'active' and start_after < now()
       order by priority desc, created_on, id
       limit $2
       for update skip locked)
    update ${JOB_SCHEMA}.job j set
      state = 'active',
      started_on = now(),
      expire_in = $3 * interval '1 second',
      retry_count = case when started_on is not null then retry_count + 1 else retry_count end
      from next
     where name = $1 and j.id = next.id
    returning j.id::text as id, j.name, j.data, j.retry_count as "retryCount", j.retry_limit as "retryLimit",
              j.started_on as "startedOn"`;
