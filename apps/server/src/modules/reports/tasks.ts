import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExporterServerEvents, ExporterTaskProgress, ReportTask } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { emitToUser } from '../../platform/exporter/index.js';
import { defineJob, enqueue, type JobContext } from '../../platform/jobs/index.js';
import { reportAccessNow } from './access.js';
import { buildInWorker, stopBuilds } from './build-pool.js';
import type { ReportParams } from './builders.js';

// Report tasks (export_tasks, migrations 001 and 130): created by a request or a subscription, built by
// the 'report' job, their state pushed to the owner's room of the exporter channel. The table is the
// truth (the list survives reloads and reconnections); the socket only tells what changed.
//
// Files: DATA_DIR/reports/<user id>/<task id>.<xlsx|csv>, deleted REPORT_FILE_TTL_DAYS after they are
// built (deleteExpiredReportFiles, every scheduler tick: file_path and gs_url become null, the row stays).

export const REPORT_QUEUE = 'report';
export const REPORT_FILE_TTL_DAYS = 7;
/** Tasks a user may have queued or running at once (more → 429). */
export const MAX_ACTIVE_TASKS = 5;
/** Shortest interval between two progress writes/pushes of one task. */
const PROGRESS_EVERY_MS = 250;
/**
 * Fault injection for the multi-process proof (platform/multi-process.test.ts): a pause after a build
 * has started, so that the test can kill its worker mid-report. Zero (off) unless the variable is set.
 */
const TEST_PAUSE_MS = Number(process.env.VIGIA_TEST_REPORT_PAUSE_MS) || 0;

export const reportsDir = (dataDir: string) => join(dataDir, 'reports');

// The app of each configuration: job handlers get the config, not the app, and need the exporter channel.
const apps = new WeakMap<Config, FastifyInstance>();
export function attachReportsApp(app: FastifyInstance): void {
  if (apps.get(app.deps.config) === app) return; // the routes and the jobs of one app
  apps.set(app.deps.config, app);
  // builds still running when the server closes end now, recorded as failed (the job worker waits for them)
  app.addHook('onClose', async () => stopBuilds(app.deps.db.url));
}

type TaskEvent = keyof Pick<
  ExporterServerEvents,
  'task:created' | 'task:progress' | 'task:done' | 'task:failed'
>;
function push(config: Config, userId: number, event: TaskEvent, payload: ExporterTaskProgress): void {
  const app = apps.get(config);
  if (app) emitToUser(app, userId, event, payload);
}

// ───────────────────────────── rows ─────────────────────────────

export interface TaskRow {
  id: string;
  user_id: number;
  kind: string;
  params: ReportParams;
  status: ReportTask['status'];
  progress: number;
  rows_done: number;
  rows_total: number | null;
  file_path: string | null;
  file_name: string | null;
  size_bytes: number | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  subscription_id: number | null;
}

export const gsUrlOf = (taskId: string) => `reports/${taskId}`;
export function taskIdOfGsUrl(gsUrl: string): string | null {
  const m = /^(?:reports\/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(
    gsUrl.trim(),
  );
  return m ? m[1].toLowerCase() : null;
}

export function taskOut(t: TaskRow): ReportTask {
  const p = t.params;
  return {
    id: t.id,
    report_type: p.report_type,
    format: p.format,
    from_date: p.from,
    to_date: p.to,
    currency: p.currency,
    pivot_id: p.pivot,
    sellers: p.sellers,
    status: t.status,
    progress: t.progress,
    rows_done: t.rows_done,
    rows_total: t.rows_total,
    file_name: t.file_name,
    size_bytes: t.size_bytes,
    error: t.error,
    created_at: t.created_at.toISOString(),
    finished_at: t.finished_at?.toISOString() ?? null,
    gs_url: t.status === 'succeeded' && t.file_path ? gsUrlOf(t.id) : null,
    expires_at: t.expires_at?.toISOString() ?? null,
    scheduled: t.subscription_id !== null,
  };
}

const progressOf = (
  t: Pick<TaskRow, 'id' | 'status' | 'progress' | 'rows_done' | 'rows_total'> & Partial<TaskRow>,
) => {
  const out: ExporterTaskProgress = {
    id: t.id,
    status: t.status,
    progress: t.progress,
    rows_done: t.rows_done,
    rows_total: t.rows_total,
  };
  if (t.file_name) out.file_name = t.file_name;
  if (t.size_bytes !== null && t.size_bytes !== undefined) out.size_bytes = t.size_bytes;
  if (t.error) out.error = t.error;
  return out;
};

export async function getTask(db: Queryable, id: string): Promise<TaskRow | null> {
  const { rows } = await db.query<TaskRow>('select * from export_tasks where id = $1', [id]);
  return rows[0] ?? null;
}

/** The user's last 100 report tasks, newest first. */
export async function listTasks(db: Queryable, userId: number): Promise<TaskRow[]> {
  const { rows } = await db.query<TaskRow>(
    `select * from export_tasks where user_id = $1 and kind like 'report:%'
      order by created_at desc limit 100`,
    [userId],
  );
  return rows;
}

export async function activeTasks(db: Queryable, userId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from export_tasks
      where user_id = $1 and kind like 'report:%' and status in ('queued', 'running')`,
    [userId],
  );
  return rows[0].n;
}

/**
 * Creates a task and its 'report' job. `db` may be a transaction's client (then both exist only if it
 * commits; call announceTask after the commit).
 */
export async function createTask(
  db: Queryable,
  userId: number,
  params: ReportParams,
  subscriptionId: number | null = null,
): Promise<TaskRow> {
  const { rows } = await db.query<TaskRow>(
    `insert into export_tasks (user_id, kind, params, subscription_id) values ($1, $2, $3::jsonb, $4)
     returning *`,
    [userId, `report:${params.report_type}`, JSON.stringify(params), subscriptionId],
  );
  await enqueue(db, REPORT_QUEUE, { taskId: rows[0].id });
  return rows[0];
}

export function announceTask(config: Config, t: TaskRow): void {
  push(config, t.user_id, 'task:created', progressOf(t));
}

// ───────────────────────────── outcome ─────────────────────────────

export type ReportOutcomeListener = (task: TaskRow, ctx: { pool: pg.Pool; config: Config }) => Promise<void>;
const outcomeListeners: ReportOutcomeListener[] = [];

/**
 * Subscribes to "a report task finished (succeeded or failed)" — e.g. the subscription e-mail here, and
 * notifications ("report ready or failed"). Called after the outcome is committed; a listener's error is
 * logged, never turns the task into a failure.
 */
export function onReportTaskFinished(listener: ReportOutcomeListener): void {
  if (!outcomeListeners.includes(listener)) outcomeListeners.push(listener);
}

/** What settling a task needs (a job's context, or the scheduler's). */
export interface TaskDeps {
  pool: pg.Pool;
  config: Config;
  log: JobContext['log'];
}

/** After a task's outcome is committed: the push to its owner, then every onReportTaskFinished listener. */
async function announceOutcome(deps: TaskDeps, task: TaskRow): Promise<void> {
  push(
    deps.config,
    task.user_id,
    task.status === 'succeeded' ? 'task:done' : 'task:failed',
    progressOf(task),
  );
  for (const listener of outcomeListeners) {
    try {
      await listener(task, { pool: deps.pool, config: deps.config });
    } catch (err) {
      deps.log.error({ err, taskId: task.id }, 'report outcome listener failed');
    }
  }
}

/**
 * THE place where a finished or failed report task is recorded: the row's final state (only from one of
 * `from`: a task settled meanwhile as abandoned keeps that outcome, and a file built for it is deleted),
 * then announceOutcome.
 */
async function recordTaskOutcome(
  ctx: TaskDeps,
  taskId: string,
  outcome: { ok: true; sizeBytes: number; rows: number; path: string } | { ok: false; error: string },
  from: ReportTask['status'][] = ['running'],
): Promise<void> {
  const { rows } = await ctx.pool.query<TaskRow & { old_path: string | null }>(
    outcome.ok
      ? `update export_tasks set status = 'succeeded', progress = 1, size_bytes = $2, rows_done = $3,
                rows_total = $3, finished_at = now(), expires_at = now() + make_interval(days => $4)
          where id = $1 and status = any($5) returning *, file_path as old_path`
      : `update export_tasks t set status = 'failed', error = $2, finished_at = now(), file_path = null
           from (select id, file_path as old_path from export_tasks where id = $1 for update) o
          where t.id = o.id and t.status = any($3) returning t.*, o.old_path`,
    outcome.ok
      ? [taskId, outcome.sizeBytes, outcome.rows, REPORT_FILE_TTL_DAYS, from]
      : [taskId, outcome.error, from],
  );
  const task = rows[0];
  if (!task) {
    if (outcome.ok) await rm(outcome.path, { force: true }); // the task was failed meanwhile
    return;
  }
  if (!outcome.ok && task.old_path) await rm(task.old_path, { force: true });
  await announceOutcome(ctx, task);
}

// ───────────────────────────── liveness ─────────────────────────────

// A claimed task's handler holds a session advisory lock (LOCK_CLASS, hashtext(task id)) on a connection
// of its own until it ends (migration 220). A free lock on a task still 'running' (or claimed and
// 'queued') means its process died or lost the database: the task is abandoned.
const LOCK_CLASS = 22087;
/** A task never taken by a job this long after it was asked for is failed (its job was lost). */
export const UNSTARTED_TASK_HOURS = 6;
export const ABANDONED_REASON =
  'No fue posible generar el reporte: el proceso que lo generaba se detuvo (reinicio o caída del servidor); vuelva a pedirlo';
export const UNSTARTED_REASON = `No fue posible generar el reporte: no empezó a generarse en ${UNSTARTED_TASK_HOURS} horas; vuelva a pedirlo`;

/** Where a task's file is (or would be) written. */
const taskFilePath = (dataDir: string, t: Pick<TaskRow, 'id' | 'user_id' | 'params'>) =>
  join(reportsDir(dataDir), String(t.user_id), `${t.id}.${t.params.format}`);

/**
 * Fails the report tasks whose job is gone — claimed but no process holds their lock, or never taken
 * for UNSTARTED_TASK_HOURS — with a Spanish reason, deletes their partial files and announces them (the
 * owner's socket, the subscription's delivery, notifications). Of one user, or all. Returns their ids.
 */
export async function settleAbandonedTasks(deps: TaskDeps, userId: number | null = null): Promise<string[]> {
  const { rows } = await deps.pool.query<TaskRow & { old_path: string | null }>(
    `with gone as (
       select id, file_path as old_path,
              case when claimed_at is null and status = 'queued' then $3 else $2 end as reason
         from export_tasks
        where kind like 'report:%' and status in ('queued', 'running')
          and ($1::int is null or user_id = $1)
          -- a task whose job is still live in the queue (waiting, retrying after a crashed worker, or
          -- running) is not abandoned: another worker takes it up (docs/architecture.md "Jobs and roles")
          and not exists (select 1 from pgboss.job j where j.name = '${REPORT_QUEUE}'
                            and j.data->>'taskId' = export_tasks.id::text
                            and j.state in ('created', 'retry', 'active'))
          and ((status = 'running' or claimed_at is not null)
                 and pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(id::text))
               or (status = 'queued' and claimed_at is null
                   and created_at < now() - make_interval(hours => $4)))
        for update skip locked)
     update export_tasks t set status = 'failed', error = gone.reason, finished_at = now(), file_path = null
       from gone where t.id = gone.id
     returning t.*, gone.old_path`,
    [userId, ABANDONED_REASON, UNSTARTED_REASON, UNSTARTED_TASK_HOURS],
  );
  for (const t of rows) {
    await rm(t.old_path ?? taskFilePath(deps.config.DATA_DIR, t), { force: true });
    deps.log.warn({ taskId: t.id, reason: t.error }, 'abandoned report task failed');
    await announceOutcome(deps, t);
  }
  return rows.map((t) => t.id);
}

/** Runs `work` holding the task's lock on a connection of its own (released, or dropped, at the end). */
async function withTaskLock(pool: pg.Pool, taskId: string, work: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  let locked = false;
  try {
    await client.query('select pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS, taskId]);
    locked = true;
    await work();
  } finally {
    if (locked)
      await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, taskId]).catch((e) => {
        broken = e as Error;
      });
    client.release(broken);
  }
}

// ───────────────────────────── the build ─────────────────────────────

const fileNameOf = (p: ReportParams) => `vigia_${p.report_type}_${p.from}_${p.to}.${p.format}`;

/** Spanish reason shown for a failed build. */
function reasonOf(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return `No fue posible generar el reporte: ${msg}`.slice(0, 500);
}

async function runReportTask(payload: { taskId: string }, ctx: JobContext): Promise<void> {
  await withTaskLock(ctx.pool, payload.taskId, () => buildTask(payload.taskId, ctx));
}

/** The job's work, under the task's lock: claim, check access, build, record. */
async function buildTask(taskId: string, ctx: JobContext): Promise<void> {
  const { pool } = ctx;
  // Claimed by this handler: a queued task, or one whose earlier handler died (nobody else holds the
  // lock we hold), which starts over.
  const { rows: claimed } = await pool.query<TaskRow & { old_path: string | null }>(
    `update export_tasks t set claimed_at = now(), status = 'queued', progress = 0, rows_done = 0,
            rows_total = null, file_path = null
       from (select id, file_path as old_path from export_tasks where id = $1 for update) o
      where t.id = o.id and (t.status = 'queued' or t.status = 'running')
      returning t.*, o.old_path`,
    [taskId],
  );
  const queued = claimed[0];
  if (!queued) return; // already run, settled or deleted
  if (queued.old_path) await rm(queued.old_path, { force: true });
  try {
    await runClaimed(queued, ctx);
  } catch (err) {
    // whatever ends the job ends its task: failed with its reason (when the database lets us say so;
    // otherwise the free lock tells settleAbandonedTasks later)
    ctx.log.error({ err, taskId }, 'report build failed');
    await recordTaskOutcome(ctx, taskId, { ok: false, error: reasonOf(err) }, ['queued', 'running']);
  }
}

async function runClaimed(queued: TaskRow, ctx: JobContext): Promise<void> {
  const { pool, config } = ctx;
  // the owner's access now, not when the task was asked for (issue 26): narrowed, or the task fails
  const access = await reportAccessNow(pool, queued.user_id, queued.params.report_type, queued.params);
  if (!access.ok) {
    await recordTaskOutcome(ctx, queued.id, { ok: false, error: reasonOf(access.reason) }, ['queued']);
    return;
  }
  const pending = { ...queued, params: { ...queued.params, ...access.scope } };
  const p = pending.params;
  if (JSON.stringify(p) !== JSON.stringify(queued.params))
    await pool.query('update export_tasks set params = $2::jsonb where id = $1', [
      queued.id,
      JSON.stringify(p),
    ]);
  const path = taskFilePath(config.DATA_DIR, pending);
  // Built under a temporary name and renamed when complete: a killed build leaves no partial file under
  // the task's name (and a retake — another worker after a crash — removes the killed one's leftovers).
  const partPath = `${path}.part`;
  await rm(partPath, { force: true });
  const databaseUrl = pool.options.connectionString;
  if (!databaseUrl) throw new Error('report build: the pool has no connection string');
  let total = 0;
  const started = Date.now();
  const outcome = await buildInWorker(
    { databaseUrl, params: p, path: partPath, progressEveryMs: PROGRESS_EVERY_MS },
    {
      // the task is 'running' from the moment its build has a thread (until then it waits its turn)
      onTurn: async () => {
        const { rowCount } = await pool.query(
          `update export_tasks set status = 'running', expires_at = now() + make_interval(days => $2)
            where id = $1 and status = 'queued'`,
          [pending.id, REPORT_FILE_TTL_DAYS],
        );
        if (!rowCount) throw new TaskGone();
      },
      onStart: async (n) => {
        total = n;
        await pool.query(
          'update export_tasks set rows_total = $2, file_path = $3, file_name = $4 where id = $1',
          [pending.id, n, path, fileNameOf(p)],
        );
        if (TEST_PAUSE_MS) await new Promise((r) => setTimeout(r, TEST_PAUSE_MS));
        push(
          config,
          pending.user_id,
          'task:progress',
          progressOf({ ...pending, status: 'running', rows_total: n }),
        );
      },
      onProgress: async (done) => {
        const progress = total > 0 ? Math.min(0.99, done / total) : 0;
        await pool.query('update export_tasks set rows_done = $2, progress = $3 where id = $1', [
          pending.id,
          done,
          progress,
        ]);
        push(config, pending.user_id, 'task:progress', {
          id: pending.id,
          status: 'running',
          progress,
          rows_done: done,
          rows_total: total,
        });
      },
    },
  ).catch(async (err) => {
    await rm(partPath, { force: true });
    if (err instanceof TaskGone) return null;
    throw err;
  });
  if (!outcome) return; // settled or deleted while it waited for a turn
  if (!outcome.ok) {
    await rm(partPath, { force: true });
    await recordTaskOutcome(ctx, pending.id, { ok: false, error: reasonOf(outcome.reason) });
    return;
  }
  await rename(partPath, path);
  ctx.log.info(
    {
      taskId: pending.id,
      rows: outcome.rows,
      bytes: outcome.bytes,
      ms: Date.now() - started,
      type: p.report_type,
      format: p.format,
    },
    'report built',
  );
  await recordTaskOutcome(ctx, pending.id, { ok: true, sizeBytes: outcome.bytes, rows: outcome.rows, path });
}

/** The task was taken by another run (or deleted) while its build waited for a turn. */
class TaskGone extends Error {}

/** The 'report' job's declaration (jobs.ts). */
export function defineReportJob(): void {
  defineJob({
    queue: REPORT_QUEUE,
    payload: z.object({ taskId: z.string().min(1) }),
    // a build that fails is not retried (its reason is recorded and a new request builds again); the
    // attempts are for a worker that died mid-build: another worker builds the task again
    maxAttempts: 3,
    concurrency: 2,
    handler: runReportTask,
  });
}

/** Deletes the files of tasks past their expiry (the rows stay, without file). Returns how many. */
export async function deleteExpiredReportFiles(db: Queryable, now = new Date()): Promise<number> {
  const { rows } = await db.query<{ id: string; file_path: string }>(
    `with gone as (
       select id, file_path from export_tasks
        where file_path is not null and expires_at <= $1 and status in ('succeeded', 'failed')
        for update skip locked)
     update export_tasks t set file_path = null from gone where t.id = gone.id
     returning gone.id, gone.file_path`,
    [now],
  );
  for (const r of rows) await rm(r.file_path, { force: true });
  return rows.length;
}
