import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExporterServerEvents, ExporterTaskProgress, ReportTask } from '@vigia/domain';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/database.js';
import { emitToUser } from '../../platform/exporter/index.js';
import { enqueue, type JobContext, registerJobHandler } from '../../platform/jobs/index.js';
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

export const reportsDir = (dataDir: string) => join(dataDir, 'reports');

// The app of each configuration: job handlers get the config, not the app, and need the exporter channel.
const apps = new WeakMap<Config, FastifyInstance>();
export function attachReportsApp(app: FastifyInstance): void {
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
  // a build is not retried: its failure is recorded with its reason (a new request builds again)
  await enqueue(db, REPORT_QUEUE, { taskId: rows[0].id }, { maxAttempts: 1 });
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

/**
 * THE place where a finished or failed report task is recorded: the row's final state, the push to its
 * owner, then every onReportTaskFinished listener.
 */
async function recordTaskOutcome(
  ctx: JobContext,
  taskId: string,
  outcome: { ok: true; sizeBytes: number; rows: number } | { ok: false; error: string },
): Promise<void> {
  const { rows } = await ctx.pool.query<TaskRow>(
    outcome.ok
      ? `update export_tasks set status = 'succeeded', progress = 1, size_bytes = $2, rows_done = $3,
                rows_total = $3, finished_at = now(), expires_at = now() + make_interval(days => $4)
          where id = $1 returning *`
      : `update export_tasks set status = 'failed', error = $2, finished_at = now(), file_path = null
          where id = $1 returning *`,
    outcome.ok ? [taskId, outcome.sizeBytes, outcome.rows, REPORT_FILE_TTL_DAYS] : [taskId, outcome.error],
  );
  const task = rows[0];
  if (!task) return;
  push(ctx.config, task.user_id, outcome.ok ? 'task:done' : 'task:failed', progressOf(task));
  for (const listener of outcomeListeners) {
    try {
      await listener(task, { pool: ctx.pool, config: ctx.config });
    } catch (err) {
      ctx.log.error({ err, taskId }, 'report outcome listener failed');
    }
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
  const { pool, config } = ctx;
  const pending = await getTask(pool, payload.taskId);
  if (pending?.status !== 'queued') return; // already run (or deleted)
  const p = pending.params;
  const path = join(reportsDir(config.DATA_DIR), String(pending.user_id), `${pending.id}.${p.format}`);
  const databaseUrl = pool.options.connectionString;
  if (!databaseUrl) throw new Error('report build: the pool has no connection string');
  let task: TaskRow | undefined;
  let total = 0;
  const started = Date.now();
  try {
    const outcome = await buildInWorker(
      { databaseUrl, params: p, path, progressEveryMs: PROGRESS_EVERY_MS },
      {
        // the task is 'running' from the moment its build has a thread (until then it waits its turn)
        onTurn: async () => {
          const { rows } = await pool.query<TaskRow>(
            `update export_tasks set status = 'running', expires_at = now() + make_interval(days => $2)
              where id = $1 and status = 'queued' returning *`,
            [pending.id, REPORT_FILE_TTL_DAYS],
          );
          task = rows[0];
          if (!task) throw new TaskGone();
        },
        onStart: async (n) => {
          total = n;
          await pool.query(
            'update export_tasks set rows_total = $2, file_path = $3, file_name = $4 where id = $1',
            [pending.id, n, path, fileNameOf(p)],
          );
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
    );
    if (!outcome.ok) throw new BuildFailed(outcome.reason);
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
    await recordTaskOutcome(ctx, pending.id, { ok: true, sizeBytes: outcome.bytes, rows: outcome.rows });
  } catch (err) {
    if (err instanceof TaskGone) return;
    if (!task) throw err; // the task could not be started: the job fails, the task stays queued
    ctx.log.error({ err, taskId: pending.id }, 'report build failed');
    await recordTaskOutcome(ctx, pending.id, { ok: false, error: reasonOf(err) });
  }
}

/** The task was taken by another run (or deleted) while its build waited for a turn. */
class TaskGone extends Error {}
/** The build's thread told (or showed) why it failed. */
class BuildFailed extends Error {}

export function registerReportHandler(): void {
  registerJobHandler<{ taskId: string }>(REPORT_QUEUE, runReportTask);
}

/** Deletes the files of tasks past their expiry (the rows stay, without file). Returns how many. */
export async function deleteExpiredReportFiles(db: Queryable, now = new Date()): Promise<number> {
  const { rows } = await db.query<{ id: string; file_path: string }>(
    `with gone as (
       select id, file_path from export_tasks
        where file_path is not null and expires_at <= $1 and status <> 'running'
        for update skip locked)
     update export_tasks t set file_path = null from gone where t.id = gone.id
     returning gone.id, gone.file_path`,
    [now],
  );
  for (const r of rows) await rm(r.file_path, { force: true });
  return rows.length;
}
