import type pg from 'pg';
import { z } from 'zod';
import { type Queryable, withTransaction } from '../../db/database.js';
import { defineJob, defineSchedule, enqueue, type JobEmit } from '../../platform/jobs/index.js';
import { nextCronRun, parseCron } from './cron.js';
import { createRun, type RunHooks } from './import.js';
import { runImport } from './import-pool.js';

// The feeds' background work, declared in one place (worker role):
//   'feed-import' { runId }  → runImport: in a thread of the imports pool (a capped heap, import-pool.ts),
//                              executeRun streams the source into one ingest transaction. A feed that
//                              fails as a whole is recorded as failed (not retried); another error (the
//                              database, a killed worker whose lease expired) retries the job, and the run
//                              starts again from the beginning — nothing of the interrupted attempt landed.
//   'feeds-tick'             every minute (cron): queues a run of every source whose schedule is due (its
//                              next run computed in the organisation's zone, cron.ts).

export const FEED_IMPORT_QUEUE = 'feed-import';
export const FEEDS_TICK_QUEUE = 'feeds-tick';
export const feedImportPayload = z.object({ runId: z.number().int().positive() });
export type FeedImportPayload = z.infer<typeof feedImportPayload>;

/** Queues the import of a run (inside the caller's transaction when `db` is its client). */
export async function enqueueFeedImport(db: Queryable, runId: number): Promise<void> {
  await enqueue(db, FEED_IMPORT_QUEUE, { runId } satisfies FeedImportPayload, { maxAttempts: 3 });
}

/** Live progress to the user who asked for the run (exporter channel, event 'import:progress'). */
export function progressHooks(emit: JobEmit): RunHooks {
  return {
    onProgress: (run, p) => {
      if (!run.requested_by) return;
      emit(run.requested_by, 'import:progress', {
        run_id: Number(run.id),
        source_id: run.source_id,
        status: p.status,
        rows_read: p.rowsRead,
        rows_written: p.rowsWritten,
        rows_rejected: p.rowsRejected,
        error: p.error,
      });
    },
  };
}

/** Queues a run of every source whose schedule is due; returns how many. */
export async function enqueueDueSources(pool: pg.Pool): Promise<number> {
  return withTransaction(pool, async (c) => {
    const { rows } = await c.query<{
      id: number;
      org_id: number;
      seller_id: number;
      kind: 'feed' | 'crawl';
      schedule: string;
      created_by: number | null;
      timezone: string;
    }>(
      `select s.id, s.org_id, s.seller_id, s.kind, s.schedule, s.created_by, o.market_zone as timezone
         from import_sources s join organisations o on o.id = s.org_id
        where s.deleted_at is null and s.schedule is not null and s.next_run_at <= now()
          and not exists (select 1 from import_runs r where r.source_id = s.id and r.status in ('queued', 'running'))
        for update of s skip locked`,
    );
    for (const s of rows) {
      const runId = await createRun(c, s, 'schedule', s.created_by);
      await enqueueRunOf(c, s.kind, runId);
      let next: Date | null = null;
      try {
        next = nextCronRun(parseCron(s.schedule), s.timezone, new Date());
      } catch {
        next = null;
      }
      await c.query('update import_sources set next_run_at = $2 where id = $1', [s.id, next]);
    }
    return rows.length;
  });
}

/** How a run of each source kind is queued (the crawler registers its own). */
const runQueuers = new Map<string, (db: Queryable, runId: number) => Promise<void>>([
  ['feed', enqueueFeedImport],
]);
export function registerRunQueuer(
  kind: 'feed' | 'crawl',
  fn: (db: Queryable, runId: number) => Promise<void>,
): void {
  runQueuers.set(kind, fn);
}
export async function enqueueRunOf(db: Queryable, kind: string, runId: number): Promise<void> {
  const queue = runQueuers.get(kind);
  if (!queue) throw new Error(`no queue for source kind ${kind}`);
  await queue(db, runId);
}

defineJob({
  queue: FEED_IMPORT_QUEUE,
  payload: feedImportPayload,
  maxAttempts: 3,
  handler: async ({ runId }, ctx) => {
    await runImport({ pool: ctx.pool, config: ctx.config }, runId, progressHooks(ctx.emit));
  },
});
defineJob({
  queue: FEEDS_TICK_QUEUE,
  payload: z.object({}),
  maxAttempts: 1,
  policy: 'short',
  handler: async (_p, ctx) => {
    await enqueueDueSources(ctx.pool);
  },
});
defineSchedule({ queue: FEEDS_TICK_QUEUE, cron: '* * * * *' });
